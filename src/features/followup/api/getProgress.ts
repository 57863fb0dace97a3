import { getProgress as endpoint, type ProgressView } from '../../../../contract/followUp.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/progress: enrolment by month, center and queue, and CRF completion. */
export function getProgress(id: number, options?: CallOptions<ProgressView>): Promise<ProgressView> {
  return call(endpoint, { id }, options)
}
