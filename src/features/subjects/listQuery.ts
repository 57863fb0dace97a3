/**
 * The query of the subject list shown last (its project, sort, order and filters, without the
 * page cursor): the detail screen's next / previous subject asks the server for neighbours in
 * this order, so they follow what the user was looking at.
 */
import { proxy } from 'valtio'
import type { SubjectListQuery } from '../../../contract/subjectList.ts'

export type ListQuery = Omit<SubjectListQuery, 'after' | 'limit'>

export const listQuery = proxy<{ value: ListQuery | null }>({ value: null })

export function rememberListQuery(q: ListQuery): void {
  listQuery.value = { ...q }
}

/** The remembered query when it is of this project, else the list's default order. */
export function listQueryFor(studyId: number): ListQuery {
  const q = listQuery.value
  return q && q.studyId === studyId ? { ...q } : { studyId, sort: 'subjectNo', order: 'asc' }
}
