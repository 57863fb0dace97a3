import type { Q } from '../query.ts'
import type { AuditRow } from '../tables/auditLog.ts'

export interface AuditEntry {
  userId: number | null
  username: string
  ip: string
  action: string
  outcome: 'ok' | 'denied' | 'error'
  detail?: Record<string, unknown>
}

export async function appendAudit(db: Q, e: AuditEntry, at: string): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at,
      user_id: e.userId,
      username: e.username,
      ip: e.ip,
      action: e.action,
      outcome: e.outcome,
      detail: JSON.stringify(e.detail ?? {}),
    })
    .execute()
}

export function listAudit(db: Q, filter: { action?: string; username?: string } = {}): Promise<AuditRow[]> {
  let q = db.selectFrom('audit_log').selectAll()
  if (filter.action) q = q.where('action', '=', filter.action)
  if (filter.username !== undefined) q = q.where('username', '=', filter.username)
  return q.orderBy('id').execute()
}
