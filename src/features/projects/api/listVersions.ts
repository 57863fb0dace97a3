import type { VersionInfo } from '../../../../contract/crf.ts'
import { listVersions as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/templates/:id/versions: every version, oldest first (a pin takes a published one). */
export function listVersions(id: number, options?: CallOptions<VersionInfo[]>): Promise<VersionInfo[]> {
  return call(endpoint, { id }, options)
}
