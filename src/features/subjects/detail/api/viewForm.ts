import { viewForm as endpoint, type FormInstance } from '../../../../../contract/studyData.ts'
import { call, type CallOptions } from '../../../../api/call.ts'

/** GET api/scientific/form/viewOneFormInfo: one instance, read only. */
export function viewForm(
  input: { studyId: number; objectId: number; templateId: number; recordId?: number; slot?: string },
  options?: CallOptions<FormInstance>,
): Promise<FormInstance> {
  return call(endpoint, input, options)
}
