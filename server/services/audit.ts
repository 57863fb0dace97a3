import type { Q } from '../db/query.ts'
import { appendAudit, type AuditEntry } from '../db/repositories/audit.ts'

/** Who acts, from where: what every audited service call needs from the request. */
export interface Actor {
  userId: number | null
  username: string
  ip: string
}

/** The record an action was done to, named as the client's FocusedRecord kind and id, so its history can be found. */
export type AuditObject = NonNullable<AuditEntry['object']>

export function audit(
  db: Q,
  actor: Actor,
  action: string,
  outcome: AuditEntry['outcome'],
  now: Date,
  detail?: Record<string, unknown>,
  object?: AuditObject,
) {
  return appendAudit(db, { ...actor, action, outcome, detail, object }, now.toISOString())
}
