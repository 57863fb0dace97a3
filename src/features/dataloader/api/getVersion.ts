import type { TemplateVersion } from '../../../../contract/crf.ts'
import { getVersion as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/templates/:id/versions/:version: the pinned version's fields, to download only some of them. */
export function getVersion(id: number, version: number, options?: CallOptions<TemplateVersion>): Promise<TemplateVersion> {
  return call(endpoint, { id, version }, options)
}
