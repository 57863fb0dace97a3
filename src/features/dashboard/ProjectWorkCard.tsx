import { Card, H5, Spinner } from '@blueprintjs/core'
import { useApi } from '../../api/query.ts'
import { useT } from '../../i18n/useT.ts'
import { useCurrentProject, type CurrentProjectRef } from '../../state/currentProject.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { countDue } from './api/countDue.ts'

/**
 * The current project on the home screen: its visits due and overdue today in the caller's
 * centers and queues, and the ways into its work. Without a current project it offers to choose one.
 */
export function ProjectWorkCard() {
  const t = useT()
  const project = useCurrentProject()
  return (
    <Card compact data-testid="dashboard-project">
      <H5>{t('dashboard.project')}</H5>
      {project ? <ProjectWork key={project.id} project={project} /> : <p>{t('dashboard.noProject')}</p>}
      <div className="dashboard-actions">
        {project && (
          <>
            <CommandButton id="subjectList.open" icon="people" label={t('route.patientList')} />
            <CommandButton id="followUp.open" icon="calendar" label={t('route.followUp')} />
            <CommandButton id="followUp.openProgress" icon="timeline-bar-chart" label={t('route.progress')} />
            <CommandButton id="dataLoad.open" icon="import" label={t('route.dataLoading')} />
          </>
        )}
        <CommandButton id="projects.switch" icon="swap-horizontal" />
      </div>
    </Card>
  )
}

function ProjectWork({ project }: { project: CurrentProjectRef }) {
  const t = useT()
  // A member without the follow-up lists sees the project without figures: no toast for that.
  const due = useApi(['followUp', 'dashboard', project.id, 'due'], (signal) => countDue(project.id, 'due', { signal, toast: false }))
  const overdue = useApi(['followUp', 'dashboard', project.id, 'overdue'], (signal) =>
    countDue(project.id, 'overdue', { signal, toast: false }),
  )
  return (
    <>
      <p className="dashboard-project-name">
        {project.name} <span className="bp6-text-muted">{project.number}</span>
      </p>
      {due.data && overdue.data ? (
        <p data-testid="dashboard-visits">
          {t('dashboard.visits', [due.data.today])} <strong>{t('dashboard.due', [due.data.total])}</strong> ·{' '}
          <strong className={overdue.data.total > 0 ? 'dashboard-overdue' : undefined}>
            {t('dashboard.overdue', [overdue.data.total])}
          </strong>
        </p>
      ) : (
        (due.loading || overdue.loading) && <Spinner size={16} />
      )}
    </>
  )
}
