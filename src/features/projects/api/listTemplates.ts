import type { Template, TemplateKind } from '../../../../contract/crf.ts'
import { listTemplates as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/templates?kind=: the CRFs or question groups a project may collect. */
export function listTemplates(kind: TemplateKind, options?: CallOptions<Template[]>): Promise<Template[]> {
  return call(endpoint, { kind }, options)
}
