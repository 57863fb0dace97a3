import type { IndicatorListQuery, IndicatorPage } from '../../../../contract/dictionary.ts'
import { listIndicators as endpoint } from '../../../../contract/dictionaryEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/dictionary/indicators: the randomization plan picks its stratification factors from it. */
export function listIndicators(query: Partial<IndicatorListQuery>, options?: CallOptions<IndicatorPage>): Promise<IndicatorPage> {
  return call(endpoint, query, options)
}
