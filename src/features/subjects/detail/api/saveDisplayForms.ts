import { saveDisplayForms as endpoint } from '../../../../../contract/studyData.ts'
import { call } from '../../../../api/call.ts'

/** POST api/scientific/form/saveDisplayFormInfo: which forms the detail shows, in this order. */
export function saveDisplayForms(input: { studyId: number; forms: { templateId: number; shown: boolean }[] }): Promise<void> {
  return call(endpoint, input)
}
