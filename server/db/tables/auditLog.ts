import type { Generated, Selectable } from 'kysely'

/** Append-only: triggers on both dialects refuse UPDATE and DELETE. */
export interface AuditLogTable {
  id: Generated<number>
  at: string
  user_id: number | null
  username: string
  ip: string
  action: string
  outcome: string
  detail: string
}

export type AuditRow = Selectable<AuditLogTable>
