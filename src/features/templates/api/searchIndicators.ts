import { dictionaryPaths, indicatorPageResponse, type IndicatorPage } from '../../../../contract/dictionary.ts'
import { get } from '../../../api/client.ts'

/** GET api/dictionary/indicators?q=&limit=: switched-on indicators whose code or name starts with q. */
export async function searchIndicators(q: string, limit = 50, signal?: AbortSignal): Promise<IndicatorPage> {
  const query = { q: q.trim() === '' ? undefined : q.trim(), limit, status: 1 }
  const res = await get<IndicatorPage>(dictionaryPaths.indicators, query, { schema: indicatorPageResponse, signal })
  return res.data ?? { rows: [], next: null, total: 0 }
}
