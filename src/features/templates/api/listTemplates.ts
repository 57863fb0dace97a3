import { templateListResponse, templatePaths, type CollectType, type Template, type TemplateKind } from '../../../../contract/crf.ts'
import { get } from '../../../api/client.ts'

/** GET api/templates?kind=crf|group: the CRFs or question groups, by name. */
export async function listTemplates(query: { kind: TemplateKind; q?: string; collectType?: CollectType }): Promise<Template[]> {
  const res = await get<Template[]>(templatePaths.list, query, { schema: templateListResponse })
  return res.data ?? []
}
