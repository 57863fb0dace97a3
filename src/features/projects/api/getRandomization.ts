import type { PlanView } from '../../../../contract/randomization.ts'
import { getRandomization as endpoint } from '../../../../contract/randomization.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/randomization: the plan, or the method only for a blinded member. */
export function getRandomization(id: number, options?: CallOptions<PlanView>): Promise<PlanView> {
  return call(endpoint, { id }, options)
}
