import { getVisitPlan as endpoint, type VisitPlan } from '../../../../contract/followUp.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/visits: the visit schedule, to download some visits only. */
export function getVisitPlan(id: number, options?: CallOptions<VisitPlan>): Promise<VisitPlan> {
  return call(endpoint, { id }, options)
}
