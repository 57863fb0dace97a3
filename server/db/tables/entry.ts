/** A user's choice of shown forms and their order on a subject's detail (migration 0019). */
export interface FormDisplayTable {
  user_id: number
  project_id: number
  template_id: number
  sort: number
  /** 1 shown, 0 hidden. */
  shown: number
}
