import type { IndicatorListQuery, IndicatorPage } from '../../../../contract/dictionary.ts'
import { listIndicators as endpoint } from '../../../../contract/dictionaryEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

export type IndicatorQuery = Partial<IndicatorListQuery>

/** GET api/dictionary/indicators: one keyset page (pass the last page's `next` as `after`). */
export function listIndicators(query: IndicatorQuery, options?: CallOptions<IndicatorPage>): Promise<IndicatorPage> {
  return call(endpoint, query, options)
}
