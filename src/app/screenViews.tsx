import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react'
import { Spinner, type IconName } from '@blueprintjs/core'
import { menus, screens, type Screen } from '../../contract/screens.ts'
import { PlannedScreen } from '../ui/PlannedScreen.tsx'
import { ViewErrorBoundary } from './ViewErrorBoundary.tsx'
import ErrorPage from '../features/errors/ErrorPage.tsx'
import { mayOpen } from '../state/session.ts'

/**
 * Screens with their own feature code, loaded on first open (code-split). A view gets its own
 * full path (a hidden or side pane is not the URL), e.g. to read its `?id=`.
 */
const built: Record<string, LazyExoticComponent<ComponentType<{ path: string }>>> = {
  dashboard: lazy(() => import('../features/dashboard/DashboardPage.tsx')),
  multiList: lazy(() => import('../features/projects/ProjectListPage.tsx')),
  singleList: lazy(() => import('../features/projects/ProjectListPage.tsx')),
  multiDetail: lazy(() => import('../features/projects/ProjectDetailPage.tsx')),
  multiApply: lazy(() => import('../features/projects/ProjectApplyPage.tsx')),
  multiAdd: lazy(() => import('../features/projects/ProjectWizardPage.tsx')),
  multiEdit: lazy(() => import('../features/projects/ProjectEditPage.tsx')),
  patientList: lazy(() => import('../features/subjects/SubjectListPage.tsx')),
  patientDetail: lazy(() => import('../features/subjects/SubjectDetailPage.tsx')),
  sampleList: lazy(() => import('../features/samples/SampleListPage.tsx')),
  followUp: lazy(() => import('../features/followup/FollowUpPage.tsx')),
  progress: lazy(() => import('../features/followup/ProgressPage.tsx')),
  dataLoading: lazy(() => import('../features/dataloader/DataLoadingPage.tsx')),
  dataList: lazy(() => import('../features/dataloader/DataListPage.tsx')),
  dictionaryList: lazy(() => import('../features/dictionary/DictionaryListPage.tsx')),
  diseaseList: lazy(() => import('../features/dictionary/DiseaseListPage.tsx')),
  createFields: lazy(() => import('../features/dictionary/CreateFieldsPage.tsx')),
  fields: lazy(() => import('../features/dictionary/FieldsPage.tsx')),
  crfManager: lazy(() => import('../features/templates/CrfManagerPage.tsx')),
  crfTemplate: lazy(() => import('../features/templates/CrfManagerPage.tsx')),
  subjectManager: lazy(() => import('../features/templates/SubjectManagerPage.tsx')),
  subjectTemplate: lazy(() => import('../features/templates/SubjectManagerPage.tsx')),
  editCrfTemp: lazy(() => import('../features/templates/CrfDesignerPage.tsx')),
  editSubjectTemp: lazy(() => import('../features/templates/SubjectDesignerPage.tsx')),
  assignCRFFields: lazy(() => import('../features/templates/AssignCrfFieldsPage.tsx')),
  assignSubjectFields: lazy(() => import('../features/templates/AssignSubjectFieldsPage.tsx')),
  previewCRF: lazy(() => import('../features/templates/PreviewCrfPage.tsx')),
  auditLog: lazy(() => import('../features/admin/AuditLogPage.tsx')),
  user: lazy(() => import('../features/admin/UserListPage.tsx')),
  account: lazy(() => import('../features/admin/AccountListPage.tsx')),
  department: lazy(() => import('../features/admin/DepartmentPage.tsx')),
  career: lazy(() => import('../features/admin/CareerPage.tsx')),
  role: lazy(() => import('../features/admin/RolePage.tsx')),
  catalog: lazy(() => import('../features/admin/CatalogPage.tsx')),
}

export function screenOf(path: string): Screen | undefined {
  const pathname = path.split('?')[0]
  return screens.find((s) => s.path === pathname)
}

/** How a screen's tab behaves: its title key, whether it stays, whether it is kept alive. */
export const tabMeta = (screen: Screen) => ({ title: screen.title, affix: screen.affix === true, noCache: screen.noCache === true })

/** The view of one tab, by its full path. */
export function renderView(path: string) {
  const screen = screenOf(path)
  if (!screen) return null
  if (!mayOpen(screen.name)) return <ErrorPage status={401} />
  const View = built[screen.name]
  const icon = (screen.icon ?? menus.find((m) => m.id === screen.menu)?.icon) as IconName | undefined
  return (
    <ViewErrorBoundary>
      <Suspense fallback={<Spinner className="view-spinner" />}>
        {View ? <View path={path} /> : <PlannedScreen title={screen.title} planKey={`plan.${screen.name}`} icon={icon} />}
      </Suspense>
    </ViewErrorBoundary>
  )
}
