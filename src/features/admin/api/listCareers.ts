import type { CareerListQuery, CareerPage } from '../../../../contract/organization.ts'
import { listCareers as endpoint } from '../../../../contract/adminEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/admin/careers: one keyset page (pass the last page's `next` as `after`). */
export function listCareers(query: Partial<CareerListQuery>, options?: CallOptions<CareerPage>): Promise<CareerPage> {
  return call(endpoint, query, options)
}
