import type { Generated, Selectable } from 'kysely'

/**
 * A JSON document column: TEXT on SQLite, JSONB on PostgreSQL. Written as a JSON string (both
 * accept it); read back as a string (SQLite) or a parsed value (pg): read it with `fromJson`
 * (server/db/json.ts).
 */
export type JsonColumn = Generated<unknown>

/** One instance of a form for one subject (migration 0017). */
export interface FormRecordTable {
  id: Generated<number>
  project_id: number
  subject_id: number
  center_id: number
  queue_id: number
  template_id: number
  version_id: number
  /** '' for the single instance; 'v<visitId>', 's<sampleId>' or '#n' otherwise. */
  slot: Generated<string>
  visit_id: number | null
  sample_id: number | null
  /** The plain (non-repeating) sections' values: { "<indicatorId>": string | string[] }. */
  data: JsonColumn
  status: Generated<string>
  rev: Generated<number>
  created_by: number | null
  created_at: string
  updated_by: number | null
  updated_at: string
  signed_by: number | null
  signed_at: string | null
  /** The data-loading upload that wrote it last (migration 0023). */
  upload_id: Generated<number | null>
}

/** One row of a sub form (a repeating section) of a record. */
export interface FormRowTable {
  id: Generated<number>
  record_id: number
  section_key: string
  sort: number
  data: JsonColumn
  rev: Generated<number>
  created_by: number | null
  created_at: string
  updated_by: number | null
  updated_at: string
  /** The data-loading upload that wrote it last (migration 0023). */
  upload_id: Generated<number | null>
}

/** The field-level audit trail; append-only (triggers refuse UPDATE and DELETE). */
export interface DataAuditTable {
  id: Generated<number>
  at: string
  user_id: number | null
  username: string
  ip: Generated<string>
  project_id: number
  subject_id: number
  record_id: number | null
  row_id: number | null
  template_id: number | null
  version_id: number | null
  section_key: string | null
  field: Generated<string>
  action: string
  old_value: string | null
  new_value: string | null
  reason: Generated<string>
  upload_id: number | null
}

export type FormRecord = Selectable<FormRecordTable>
export type FormRow = Selectable<FormRowTable>
export type DataAuditRow = Selectable<DataAuditTable>
