import type { TemplateVersion } from '../../../../contract/crf.ts'
import { getVersion as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call } from '../../../api/call.ts'

/** GET api/templates/:id/versions/:version: one version (published or draft) with its indicators. */
export function getVersion(id: number, version: number): Promise<TemplateVersion> {
  return call(endpoint, { id, version })
}
