import { listSamples as endpoint, type SamplePage } from '../../../../contract/samples.ts'
import { call, type CallOptions } from '../../../api/call.ts'

export type SampleQuery = Parameters<typeof endpoint.request>[0]

/** GET api/projects/:id/samples: one keyset page (pass the last page's `next` as `after`). */
export function listSamples(query: SampleQuery, options?: CallOptions<SamplePage>): Promise<SamplePage> {
  return call(endpoint, query, options)
}
