import type { UserTable } from './tables/user.ts'
import type { AccountTable } from './tables/account.ts'
import type { CareerTable, DepartmentTable } from './tables/organization.ts'
import type { RoleGrantTable, RoleTable, UserRoleTable } from './tables/role.ts'
import type { CatalogEntryTable } from './tables/catalog.ts'
import type { SessionTable } from './tables/session.ts'
import type { AccessGenerationTable } from './tables/accessGeneration.ts'
import type { AuditLogTable } from './tables/auditLog.ts'
import type { LoginThrottleTable } from './tables/loginThrottle.ts'
import type { DiseaseTable, IndicatorTable, TimelineItemTable } from './tables/dictionary.ts'
import type {
  AllocationTable,
  CenterTable,
  ProjectApplicationTable,
  ProjectCenterTable,
  ProjectFormTable,
  ProjectGroupTable,
  ProjectMemberTable,
  ProjectQueueTable,
  ProjectRoleCenterTable,
  ProjectRoleQueueTable,
  ProjectRoleTable,
  ProjectTable,
  RandomizationPlanTable,
  SubjectTable,
  SubjectSequenceTable,
} from './tables/project.ts'
import type { SampleRetiredNoTable, SampleTable } from './tables/samples.ts'
import type { AttachmentTable } from './tables/attachments.ts'
import type { DataDownloadTable, DataUploadTable } from './tables/dataLoader.ts'
import type { DataAuditTable, FormRecordTable, FormRowTable } from './tables/studyData.ts'
import type { SubjectListFieldTable, SubjectTallyTable } from './tables/subjectList.ts'
import type { FormDisplayTable } from './tables/entry.ts'
import type { VisitFormTable, VisitTable } from './tables/followUp.ts'
import type { TemplateItemTable, TemplatePreposeTable, TemplateTable, TemplateVersionTable } from './tables/template.ts'

export interface Database {
  app_user: UserTable
  account: AccountTable
  department: DepartmentTable
  career: CareerTable
  role: RoleTable
  role_grant: RoleGrantTable
  user_role: UserRoleTable
  catalog_entry: CatalogEntryTable
  session: SessionTable
  access_generation: AccessGenerationTable
  audit_log: AuditLogTable
  login_throttle: LoginThrottleTable
  disease: DiseaseTable
  timeline_item: TimelineItemTable
  project: ProjectTable
  center: CenterTable
  project_queue: ProjectQueueTable
  project_center: ProjectCenterTable
  project_form: ProjectFormTable
  project_role: ProjectRoleTable
  project_role_queue: ProjectRoleQueueTable
  project_role_center: ProjectRoleCenterTable
  project_member: ProjectMemberTable
  project_application: ProjectApplicationTable
  randomization_plan: RandomizationPlanTable
  project_group: ProjectGroupTable
  allocation: AllocationTable
  subject: SubjectTable
  subject_sequence: SubjectSequenceTable
  form_record: FormRecordTable
  form_row: FormRowTable
  data_audit: DataAuditTable
  subject_tally: SubjectTallyTable
  subject_list_field: SubjectListFieldTable
  form_display: FormDisplayTable
  visit: VisitTable
  visit_form: VisitFormTable
  sample: SampleTable
  sample_retired_no: SampleRetiredNoTable
  attachment: AttachmentTable
  data_upload: DataUploadTable
  data_download: DataDownloadTable
  indicator: IndicatorTable
  template: TemplateTable
  template_prepose: TemplatePreposeTable
  template_version: TemplateVersionTable
  template_item: TemplateItemTable
}
