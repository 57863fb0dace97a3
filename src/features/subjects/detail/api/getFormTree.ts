import { getFormTree as endpoint, type FormTree } from '../../../../../contract/studyData.ts'
import { call, type CallOptions } from '../../../../api/call.ts'

/** GET api/scientific/form/getOneFormInfoTree: the subject's forms, prepose ones first. */
export function getFormTree(input: { studyId: number; objectId: number }, options?: CallOptions<FormTree>): Promise<FormTree> {
  return call(endpoint, input, options)
}
