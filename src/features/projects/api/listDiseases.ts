import type { Disease } from '../../../../contract/dictionary.ts'
import { listDiseases as endpoint } from '../../../../contract/dictionaryEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/dictionary/diseases: the disease choices of a project. */
export function listDiseases(options?: CallOptions<Disease[]>): Promise<Disease[]> {
  return call(endpoint, {}, options)
}
