import { unblindSubject as endpoint, type Unblinded } from '../../../../../contract/studyData.ts'
import { call } from '../../../../api/call.ts'

/** POST api/projects/:id/subjects/:subjectId/unblind: the subject's group, revealed with a reason (logged). */
export function unblindSubject(input: { studyId: number; objectId: number; reason: string }): Promise<Unblinded> {
  return call(endpoint, input)
}
