import { getSampleTree as endpoint, type SampleTree } from '../../../../contract/samples.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/samples/:sampleId/tree */
export function getSampleTree(studyId: number, sampleId: number, options?: CallOptions<SampleTree>): Promise<SampleTree> {
  return call(endpoint, { studyId, sampleId }, options)
}
