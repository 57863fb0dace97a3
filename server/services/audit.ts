import type { Q } from '../db/query.ts'
import { appendAudit, type AuditEntry } from '../db/repositories/audit.ts'

/** Who acts, from where: what every audited service call needs from the request. */
export interface Actor {
  userId: number | null
  username: string
  ip: string
}

export function audit(db: Q, actor: Actor, action: string, outcome: AuditEntry['outcome'], now: Date, detail?: Record<string, unknown>) {
  return appendAudit(db, { ...actor, action, outcome, detail }, now.toISOString())
}
