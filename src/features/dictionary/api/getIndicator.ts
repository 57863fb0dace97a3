import type { Indicator } from '../../../../contract/dictionary.ts'
import { getIndicator as endpoint } from '../../../../contract/dictionaryEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/dictionary/indicators/:id */
export function getIndicator(id: number, options?: CallOptions<Indicator>): Promise<Indicator> {
  return call(endpoint, { id }, options)
}
