import type { VersionInfo } from '../../../../contract/crf.ts'
import { listVersions as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call } from '../../../api/call.ts'

/** GET api/templates/:id/versions: every version, oldest first. */
export function listVersions(id: number): Promise<VersionInfo[]> {
  return call(endpoint, { id })
}
