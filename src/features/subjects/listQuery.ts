/**
 * The query of the research-object list shown last (without its page), so a detail opened from
 * it moves to the next / previous subject in the same order and filter.
 */
import { proxy } from 'valtio'
import type { SubjectListQuery } from '../../../contract/subjectList.ts'

export type ListQuery = Omit<SubjectListQuery, 'after' | 'limit'>

export const listQuery = proxy<{ studyId: number | null; query: ListQuery | null }>({ studyId: null, query: null })

export function rememberListQuery(query: ListQuery): void {
  listQuery.studyId = query.studyId
  listQuery.query = query
}
