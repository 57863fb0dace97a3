import { useRef } from 'react'
import { H3, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core'
import { dataLoadScreen, dataLoadTabs, type DataLoadActions, type DataLoadTab } from '../../../commands/dataLoader.ts'
import type { DownloadRecord, UploadRecord } from '../../../contract/dataLoader.ts'
import { paramsOf, screenPath } from '../../../contract/screenPaths.ts'
import { useApi } from '../../api/query.ts'
import { useT } from '../../i18n/useT.ts'
import { provide, useArrivalFocus, usePublish } from '../../state/focus.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { getCrfs } from './api/getCrfs.ts'
import { getProject } from './api/getProject.ts'
import { DownloadPanel } from './DownloadPanel.tsx'
import { DownloadRecords, UploadRecords } from './RecordsPanel.tsx'
import { TemplatePanel } from './TemplatePanel.tsx'
import { UploadPanelView } from './UploadPanel.tsx'
import { eventMap, panelListener, uploadPanel } from './uploadState.ts'
import './dataLoading.css'
import { useCurrentProject } from '../../state/currentProject.ts'
import { NoProjectState } from '../../ui/NoProjectState.tsx'

/** The tabs a user's grants offer: templates and uploads to importers, downloads to exporters. */
const importTabs: readonly DataLoadTab[] = ['template', 'upload', 'uploads']
const exportTabs: readonly DataLoadTab[] = ['download', 'downloads']

/**
 * Data loading of one project (issue 11): CRF templates, upload of a data file with its progress
 * and every bad cell of a refusal, download of data, and the records of both with their kept
 * files. The tab is the path's, so a command or a link lands on it; every action is a command.
 */
export default function DataLoadingPage({ path = '' }: { path?: string }) {
  const t = useT()
  const current = useCurrentProject()
  const id = paramsOf('dataLoading', path)?.id ?? current?.id
  if (id === undefined) return <NoProjectState icon="import" title={t('route.dataLoading')} description={t('noProject.dataLoading')} />
  return <DataLoadingScreen key={id} id={id} path={path} />
}

function DataLoadingScreen({ id, path }: { id: number; path: string }) {
  const t = useT()
  const host = useCommandHost()
  const params = paramsOf('dataLoading', path)
  const ctx = host.context()
  const mayImport = ctx.can('dataLoad.import')
  const mayExport = ctx.can('dataLoad.export')
  const tabs = dataLoadTabs.filter((x) => (importTabs.includes(x) && mayImport) || (exportTabs.includes(x) && mayExport))
  const tab: DataLoadTab = params?.tab && tabs.includes(params.tab) ? params.tab : (tabs[0] ?? 'template')
  const project = useApi(['dataLoad', 'project', id], (signal) => getProject(id, { signal }))
  const crfs = useApi(['dataLoad', 'crfs', id], (signal) => getCrfs(id, { signal }))
  const selected = useRef<{ upload: UploadRecord | null; download: DownloadRecord | null }>({ upload: null, download: null })
  const root = useRef<HTMLDivElement>(null)
  const p = project.data

  const actions = (): DataLoadActions => ({
    studyId: id,
    tab,
    upload: () => {
      if (tab !== 'upload') return null
      const panel = uploadPanel(id)
      return {
        templateId: panel.templateId,
        format: panel.format,
        enrol: panel.enrol,
        events: eventMap(panel),
        listener: panelListener(id),
      }
    },
    selectedUpload: () => (tab === 'uploads' ? selected.current.upload : null),
    selectedDownload: () => (tab === 'downloads' ? selected.current.download : null),
  })
  usePublish(path, p ? { kind: 'project', id: p.id, name: p.name } : undefined, [provide(dataLoadScreen, actions)])
  useArrivalFocus(path, root, p !== undefined, ['[role="tab"][aria-selected="true"]'])

  if (!p) {
    if (project.loading) return <Spinner className="view-spinner" />
    return <NonIdealState icon="error" title={t('dataLoad.loadError')} />
  }

  /** Another tab is another path: it replaces this one in the tab bar. */
  const showTab = (next: DataLoadTab) => {
    if (next === tab) return
    const c = host.context()
    c.panes.close(path)
    c.navigate(screenPath('dataLoading', { id, tab: next }))
  }

  const panel = (which: DataLoadTab) => {
    const forms = crfs.data ?? []
    if (which === 'template') return <TemplatePanel studyId={id} crfs={forms} loading={crfs.loading} />
    if (which === 'upload') return <UploadPanelView studyId={id} crfs={forms} />
    if (which === 'download') return <DownloadPanel studyId={id} crfs={forms} loading={crfs.loading} />
    // Braces: the table's effect would take a returned row for its clean-up function.
    if (which === 'uploads')
      return (
        <UploadRecords
          studyId={id}
          onSelect={(r) => {
            selected.current.upload = r
          }}
        />
      )
    return (
      <DownloadRecords
        studyId={id}
        onSelect={(r) => {
          selected.current.download = r
        }}
      />
    )
  }

  return (
    <div className="data-loading-page" data-testid="data-loading-page" data-tab={tab} ref={root}>
      <div className="dict-header">
        <H3>{t('dataLoad.title', [p.name])}</H3>
      </div>
      {/* disabled={false} written out: Blueprint's arrow keys move only between tabs marked aria-disabled="false". */}
      <Tabs
        id="data-loading-tabs"
        selectedTabId={tab}
        onChange={(next) => showTab(next as DataLoadTab)}
        renderActiveTabPanelOnly
        aria-label={t('dataLoad.tabs.label')}
      >
        {tabs.map((which) => (
          <Tab
            key={which}
            id={which}
            disabled={false}
            title={t(`dataLoad.tabs.${which}`)}
            data-testid={`data-loading-tab-${which}`}
            panel={panel(which)}
          />
        ))}
      </Tabs>
    </div>
  )
}
