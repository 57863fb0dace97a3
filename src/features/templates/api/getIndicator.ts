import { dictionaryPaths, indicatorResponse, type Indicator } from '../../../../contract/dictionary.ts'
import { get, type RequestOptions } from '../../../api/client.ts'

/** GET api/dictionary/indicators/:id — a field the placed ones depend on, to name it. */
export async function getIndicator(id: number, options?: RequestOptions<Indicator>): Promise<Indicator> {
  const res = await get<Indicator>(dictionaryPaths.indicator(id), undefined, { schema: indicatorResponse, ...options })
  return res.data as Indicator
}
