import { templatePaths, templateResponse, type Template } from '../../../../contract/crf.ts'
import { get } from '../../../api/client.ts'

/** GET api/templates/:id */
export async function getTemplate(id: number, options: { toast?: boolean } = {}): Promise<Template> {
  const res = await get<Template>(templatePaths.one(id), undefined, { schema: templateResponse, ...options })
  if (!res.data) throw new Error(`template ${id} came without data`)
  return res.data
}
