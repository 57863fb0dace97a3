import type { Generated, Selectable } from 'kysely'

/** Departments form a tree; a department with users in it cannot be deleted. */
export interface DepartmentTable {
  id: Generated<number>
  name: string
  parent_id: number | null
  sort: Generated<number>
  created_at: string
  updated_at: string
}

/** A job title (SPEC: career). */
export interface CareerTable {
  id: Generated<number>
  name: string
  remarks: Generated<string>
  sort: Generated<number>
  created_at: string
  updated_at: string
}

export type Department = Selectable<DepartmentTable>
export type Career = Selectable<CareerTable>
