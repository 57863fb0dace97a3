import { templatePaths, templateVersionResponse, type TemplateVersion } from '../../../../contract/crf.ts'
import { get } from '../../../api/client.ts'

/** GET api/templates/:id/layout: the draft (else the latest published version) with its indicators. */
export async function getLayout(id: number): Promise<TemplateVersion> {
  const res = await get<TemplateVersion>(templatePaths.layout(id), undefined, { schema: templateVersionResponse })
  if (!res.data) throw new Error(`the layout of template ${id} came without data`)
  return res.data
}
