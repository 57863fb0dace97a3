import { dictionaryPaths, diseaseListResponse, type Disease } from '../../../../contract/dictionary.ts'
import { get, type RequestOptions } from '../../../api/client.ts'

/** GET api/dictionary/diseases: every disease with its counts. */
export async function listDiseases(options?: RequestOptions<Disease[]>): Promise<Disease[]> {
  const res = await get<Disease[]>(dictionaryPaths.diseases, undefined, { schema: diseaseListResponse, ...options })
  return res.data ?? []
}
