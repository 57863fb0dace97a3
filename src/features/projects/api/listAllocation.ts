import type { AllocationListQuery, AllocationPage } from '../../../../contract/randomization.ts'
import { listAllocation as endpoint } from '../../../../contract/randomization.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/randomization/list: one keyset page (pass the last page's `next` as `after`). */
export function listAllocation(
  id: number,
  query: Partial<AllocationListQuery>,
  options?: CallOptions<AllocationPage>,
): Promise<AllocationPage> {
  return call(endpoint, { id, ...query }, options)
}
