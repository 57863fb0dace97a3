import type { Generated, Selectable } from 'kysely'

/** One visit of a project's schedule (migration 0021). */
export interface VisitTable {
  id: Generated<number>
  project_id: number
  name: string
  /** Days after enrolment the visit is planned for. */
  day_offset: number
  window_before: Generated<number>
  window_after: Generated<number>
  sort: Generated<number>
  created_at: string
  updated_at: string
}

/** A follow-up CRF a visit collects. */
export interface VisitFormTable {
  visit_id: number
  template_id: number
  sort: Generated<number>
}

export type Visit = Selectable<VisitTable>
