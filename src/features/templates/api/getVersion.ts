import { templatePaths, templateVersionResponse, type TemplateVersion } from '../../../../contract/crf.ts'
import { get } from '../../../api/client.ts'

/** GET api/templates/:id/versions/:version: one version (published or draft) with its indicators. */
export async function getVersion(id: number, version: number): Promise<TemplateVersion> {
  const res = await get<TemplateVersion>(templatePaths.version(id, version), undefined, { schema: templateVersionResponse })
  if (!res.data) throw new Error(`version ${version} of template ${id} came without data`)
  return res.data
}
