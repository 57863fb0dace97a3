import type { Generated, Selectable } from 'kysely'

/** A sample of a research subject (migration 0020). */
export interface SampleTable {
  id: Generated<number>
  project_id: number
  subject_id: number
  center_id: number
  queue_id: number
  parent_id: number | null
  /** The first sample of its aliquot tree; its own id for a root. */
  root_id: number | null
  sample_no: string
  type: string
  /** '' when unknown. */
  collected_at: string
  quantity: number | null
  unit: string | null
  freezer: Generated<string>
  rack: Generated<string>
  box: Generated<string>
  position: Generated<string>
  status: Generated<string>
  remarks: Generated<string>
  created_by: number | null
  created_at: string
  updated_by: number | null
  updated_at: string
}

export type SampleRow = Selectable<SampleTable>

/**
 * A number no other sample of its project may take (migration 0036): a deleted sample's, or one a
 * sample had before it was renamed.
 */
export interface SampleRetiredNoTable {
  project_id: number
  sample_no: string
  /** The sample that had it; gone when the number was retired by a delete. */
  sample_id: number
  /** When it was retired: the delete or the rename. */
  deleted_at: string
}
