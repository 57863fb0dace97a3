import { templatePaths, templateVersionResponse, type Layout, type TemplateVersion } from '../../../../contract/crf.ts'
import { put } from '../../../api/client.ts'

/** PUT api/templates/:id/layout: writes the layout into the draft (a new draft after a publication). */
export async function saveLayout(id: number, layout: Layout): Promise<TemplateVersion> {
  const res = await put<TemplateVersion>(templatePaths.layout(id), layout, undefined, { schema: templateVersionResponse })
  if (!res.data) throw new Error(`the layout of template ${id} came back without data`)
  return res.data
}
