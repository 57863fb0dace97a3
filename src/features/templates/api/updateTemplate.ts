import { templatePaths, templateResponse, type Template, type TemplateInput } from '../../../../contract/crf.ts'
import { put } from '../../../api/client.ts'

/** PUT api/templates/:id: name, description, collect type, prepose CRFs and status. */
export async function updateTemplate(id: number, input: TemplateInput): Promise<Template> {
  const res = await put<Template>(templatePaths.one(id), input, undefined, { schema: templateResponse })
  if (!res.data) throw new Error(`template ${id} came back without data`)
  return res.data
}
