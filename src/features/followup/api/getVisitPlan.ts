import { getVisitPlan as endpoint, type VisitPlan } from '../../../../contract/followUp.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/visits: the visit schedule and the follow-up CRFs a visit may collect. */
export function getVisitPlan(id: number, options?: CallOptions<VisitPlan>): Promise<VisitPlan> {
  return call(endpoint, { id }, options)
}
