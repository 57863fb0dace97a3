import type { CollectType, Template, TemplateKind } from '../../../../contract/crf.ts'
import { listTemplates as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call } from '../../../api/call.ts'

/** GET api/templates?kind=crf|group: the CRFs or question groups, by name. */
export function listTemplates(query: { kind: TemplateKind; q?: string; collectType?: CollectType }): Promise<Template[]> {
  return call(endpoint, query)
}
