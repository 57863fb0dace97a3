import type { CenterPage } from '../../../../contract/projects.ts'
import { listCenters as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/centers: one keyset page of the directory, by code or name prefix. */
export function listCenters(query: { q?: string; after?: string; limit?: number }, options?: CallOptions<CenterPage>): Promise<CenterPage> {
  return call(endpoint, query, options)
}
