import type { Template, TemplateInput } from '../../../../contract/crf.ts'
import { updateTemplate as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call } from '../../../api/call.ts'

/** PUT api/templates/:id: name, description, collect type, prepose CRFs and status. */
export function updateTemplate(id: number, input: TemplateInput): Promise<Template> {
  return call(endpoint, { id, input })
}
