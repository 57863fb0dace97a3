import { getSubjectSchedule as endpoint, type SubjectSchedule } from '../../../../../contract/followUp.ts'
import { call, type CallOptions } from '../../../../api/call.ts'

/** GET api/projects/:id/subjects/:subjectId/visits: the subject's planned visits and their forms' records. */
export function getSubjectSchedule(
  input: { id: number; subjectId: number },
  options?: CallOptions<SubjectSchedule>,
): Promise<SubjectSchedule> {
  return call(endpoint, input, options)
}
