import type { IndicatorPage } from '../../../../contract/dictionary.ts'
import { listIndicators as endpoint } from '../../../../contract/dictionaryEndpoints.ts'
import { call } from '../../../api/call.ts'

/** GET api/dictionary/indicators?q=&limit=: switched-on indicators whose code or name starts with q. */
export function searchIndicators(q: string, limit = 50, signal?: AbortSignal): Promise<IndicatorPage> {
  return call(endpoint, { q: q.trim() === '' ? undefined : q.trim(), limit, status: 1 }, { signal })
}
