import type { Indicator } from '../../../../contract/dictionary.ts'
import { getIndicator as endpoint } from '../../../../contract/dictionaryEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/dictionary/indicators/:id — a field the placed ones depend on, to name it. */
export function getIndicator(id: number, options?: CallOptions<Indicator>): Promise<Indicator> {
  return call(endpoint, { id }, options)
}
