import { dictionaryPaths, indicatorPageResponse, type IndicatorListQuery, type IndicatorPage } from '../../../../contract/dictionary.ts'
import { get, type RequestOptions } from '../../../api/client.ts'

export type IndicatorQuery = Partial<IndicatorListQuery>

/** GET api/dictionary/indicators: one keyset page (pass the last page's `next` as `after`). */
export async function listIndicators(query: IndicatorQuery, options?: RequestOptions<IndicatorPage>): Promise<IndicatorPage> {
  const res = await get<IndicatorPage>(dictionaryPaths.indicators, { ...query }, { schema: indicatorPageResponse, ...options })
  return res.data as IndicatorPage
}
