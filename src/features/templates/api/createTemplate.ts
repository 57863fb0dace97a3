import { templatePaths, templateResponse, type Template, type TemplateInput, type TemplateKind } from '../../../../contract/crf.ts'
import { post } from '../../../api/client.ts'

/** POST api/templates: a new CRF or question group with an empty draft version 1. */
export async function createTemplate(kind: TemplateKind, input: TemplateInput): Promise<Template> {
  const res = await post<Template>(templatePaths.list, { ...input, kind }, undefined, { schema: templateResponse })
  if (!res.data) throw new Error('the new template came without data')
  return res.data
}
