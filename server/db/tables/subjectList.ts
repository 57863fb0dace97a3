/** Subjects per project, center, queue and status, kept by enrolment (migration 0018). */
export interface SubjectTallyTable {
  project_id: number
  center_id: number
  queue_id: number
  status: string
  n: number
}

/** The indicator columns a user chose for a project's subject list, in `sort` order. */
export interface SubjectListFieldTable {
  project_id: number
  user_id: number
  indicator_id: number
  sort: number
}
