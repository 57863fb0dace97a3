import { deleteForm as endpoint } from '../../../../../contract/studyData.ts'
import { call } from '../../../../api/call.ts'

/** POST api/scientific/studyObject/delStudyObjectForm: one instance of a subject's form, with the reason. */
export function deleteForm(input: { studyId: number; objectId: number; recordId: number; reason: string }): Promise<void> {
  return call(endpoint, input)
}
