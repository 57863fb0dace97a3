import type { Template } from '../../../../contract/crf.ts'
import { getTemplate as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call } from '../../../api/call.ts'

/** GET api/templates/:id */
export function getTemplate(id: number, options: { toast?: boolean } = {}): Promise<Template> {
  return call(endpoint, { id }, options)
}
