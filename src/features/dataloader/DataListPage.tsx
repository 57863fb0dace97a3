import { useEffect } from 'react'
import { NonIdealState } from '@blueprintjs/core'
import { isAvailable } from '../../../commands/registry.ts'
import { useT } from '../../i18n/useT.ts'
import { useCurrentProject } from '../../state/currentProject.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { NoProjectState } from '../../ui/NoProjectState.tsx'

/**
 * The sidebar's Data List: data loading is a project's, so this entry opens the current project's
 * data loading screen in its place (the tab gives way), or asks for a project first.
 */
export default function DataListPage({ path }: { path: string }) {
  const t = useT()
  const host = useCommandHost()
  const current = useCurrentProject()
  const may = isAvailable(host.command('dataLoad.open'), host.context())
  const id = current?.id
  useEffect(() => {
    if (id === undefined || !may) return
    host.context().panes.close(path)
    void host.run('dataLoad.open', 'menu', { id })
  }, [host, id, may, path])
  if (!may) return <NonIdealState icon="import" title={t('route.dataList')} description={t('noProject.dataListDenied')} />
  return <NoProjectState icon="import" title={t('route.dataList')} description={t('noProject.dataLoading')} />
}
