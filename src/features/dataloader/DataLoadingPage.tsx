import { NonIdealState } from '@blueprintjs/core'
import { useT } from '../../i18n/useT.ts'

/** Data loading of one project (issue 11): templates, upload, download, and the records of both. */
export default function DataLoadingPage() {
  const t = useT()
  return <NonIdealState icon="import" title={t('route.dataLoading')} />
}
