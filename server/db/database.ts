import type { UserTable } from './tables/user.ts'
import type { SessionTable } from './tables/session.ts'
import type { AuditLogTable } from './tables/auditLog.ts'
import type { LoginThrottleTable } from './tables/loginThrottle.ts'

export interface Database {
  app_user: UserTable
  session: SessionTable
  audit_log: AuditLogTable
  login_throttle: LoginThrottleTable
}
