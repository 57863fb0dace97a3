import type { UserTable } from './tables/user.ts'
import type { AccountTable } from './tables/account.ts'
import type { CareerTable, DepartmentTable } from './tables/organization.ts'
import type { RoleGrantTable, RoleTable, UserRoleTable } from './tables/role.ts'
import type { CatalogEntryTable } from './tables/catalog.ts'
import type { SessionTable } from './tables/session.ts'
import type { AuditLogTable } from './tables/auditLog.ts'
import type { LoginThrottleTable } from './tables/loginThrottle.ts'
import type { DiseaseTable, IndicatorTable, ProjectTable, TimelineItemTable } from './tables/dictionary.ts'
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
  audit_log: AuditLogTable
  login_throttle: LoginThrottleTable
  disease: DiseaseTable
  timeline_item: TimelineItemTable
  project: ProjectTable
  indicator: IndicatorTable
  template: TemplateTable
  template_prepose: TemplatePreposeTable
  template_version: TemplateVersionTable
  template_item: TemplateItemTable
}
