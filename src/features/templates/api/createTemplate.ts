import type { Template, TemplateInput, TemplateKind } from '../../../../contract/crf.ts'
import { createTemplate as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call } from '../../../api/call.ts'

/** POST api/templates: a new CRF or question group with an empty draft version 1. */
export function createTemplate(kind: TemplateKind, input: TemplateInput): Promise<Template> {
  return call(endpoint, { ...input, kind })
}
