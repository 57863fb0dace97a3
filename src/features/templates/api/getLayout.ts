import type { TemplateVersion } from '../../../../contract/crf.ts'
import { getLayout as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call } from '../../../api/call.ts'

/** GET api/templates/:id/layout: the draft (else the latest published version) with its indicators. */
export function getLayout(id: number): Promise<TemplateVersion> {
  return call(endpoint, { id })
}
