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
  /** The record the row is about (a FocusedRecord kind of the client, e.g. 'indicator', 'crf'), if one. */
  object_type: string | null
  object_id: number | null
}

export type AuditRow = Selectable<AuditLogTable>
