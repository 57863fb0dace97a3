import { getCrfs as endpoint, type LoadableCrf } from '../../../../contract/dataLoader.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/scientific/dataloader/getCrfByStudyId: the project's pinned CRFs a file may load into. */
export function getCrfs(studyId: number, options?: CallOptions<LoadableCrf[]>): Promise<LoadableCrf[]> {
  return call(endpoint, { studyId }, options)
}
