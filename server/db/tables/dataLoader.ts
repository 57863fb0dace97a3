import type { Generated, Selectable } from 'kysely'

/** One upload of data (migration 0023), written once when it ends. */
export interface DataUploadTable {
  id: Generated<number>
  project_id: number
  user_id: number | null
  username: string
  at: string
  file_name: string
  size: number
  /** SHA-256 of the bytes: the re-upload check, and the kept file's name in DATA_DIR/loads. */
  sha256: string
  /** 'xlsx' | 'csv' */
  container: string
  /** 'auto' | 'redcap' */
  format: string
  rows: Generated<number>
  created: Generated<number>
  updated: Generated<number>
  unchanged: Generated<number>
  enrolled: Generated<number>
  errors_total: Generated<number>
  /** 'loaded' | 'refused' | 'failed' */
  outcome: string
  /** In the uploader's language; rows since migration 0031 also keep the key and its parameters (JSON). */
  message: Generated<string>
  message_key: string | null
  message_params: string | null
  duration_ms: Generated<number>
  report_sha256: string | null
  /** The CRFs the file's sheets were read into, as ids joined by commas (migration 0035). */
  template_ids: Generated<string>
}

/** One download of data (migration 0023). */
export interface DataDownloadTable {
  id: Generated<number>
  project_id: number
  user_id: number | null
  username: string
  at: string
  file_name: string
  /** 'xlsx' | 'csv' | 'odm' */
  format: string
  /** The query as JSON. */
  scope: string
  size: Generated<number>
  sha256: string
  rows: Generated<number>
  duration_ms: Generated<number>
  /** 1 when the file holds randomization groups, identifier fields (migration 0033; earlier rows 1). */
  holds_groups: number
  holds_identifiers: number
  /** The centers and queues it could hold, a JSON list of ids; NULL: every one (migration 0034; earlier rows NULL). */
  held_center_ids: string | null
  held_queue_ids: string | null
}

export type DataUploadRow = Selectable<DataUploadTable>
export type DataDownloadRow = Selectable<DataDownloadTable>
