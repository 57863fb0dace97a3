import type { Generated, Selectable } from 'kysely'

/** A picture of a research object (migration 0022); the bytes live in the file store by hash. */
export interface AttachmentTable {
  id: Generated<number>
  project_id: number
  subject_id: number
  record_id: number | null
  indicator_id: number | null
  /** 3: picture (SPEC §7). */
  type: number
  /** SHA-256 of the bytes: their name in the file store. */
  hash: string
  /** The file name as uploaded (shown, never used as a path). */
  name: string
  mime: string
  size: number
  created_by: number | null
  created_at: string
  /** Set when deleted: the row stays for the audit trail. */
  deleted_at: string | null
  deleted_by: number | null
}

export type AttachmentRow = Selectable<AttachmentTable>
