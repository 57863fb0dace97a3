import { getViewInfo as endpoint, type ViewInfo } from '../../../../../contract/subjectList.ts'
import { call, type CallOptions } from '../../../../api/call.ts'

/** GET api/scientific/studyObject/getViewInfo: the subject's header. */
export function getViewInfo(input: { studyId: number; objectId: number }, options?: CallOptions<ViewInfo>): Promise<ViewInfo> {
  return call(endpoint, input, options)
}
