import { getDisplayForms as endpoint, type DisplayForm } from '../../../../../contract/studyData.ts'
import { call, type CallOptions } from '../../../../api/call.ts'

/** GET api/scientific/form/getDisplayFormInfo: the forms the detail shows, in order. */
export function getDisplayForms(input: { studyId: number }, options?: CallOptions<DisplayForm[]>): Promise<DisplayForm[]> {
  return call(endpoint, input, options)
}
