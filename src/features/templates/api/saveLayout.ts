import type { Layout, TemplateVersion } from '../../../../contract/crf.ts'
import { saveLayout as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call } from '../../../api/call.ts'

/** PUT api/templates/:id/layout: writes the layout into the draft (a new draft after a publication). */
export function saveLayout(id: number, layout: Layout): Promise<TemplateVersion> {
  return call(endpoint, { id, layout })
}
