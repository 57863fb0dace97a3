import { z } from 'zod'
import { templatePaths, versionInfo, type VersionInfo } from '../../../../contract/crf.ts'
import { envelope } from '../../../../contract/envelope.ts'
import { get } from '../../../api/client.ts'

const versionListResponse = envelope(z.array(versionInfo))

/** GET api/templates/:id/versions: every version, oldest first. */
export async function listVersions(id: number): Promise<VersionInfo[]> {
  const res = await get<VersionInfo[]>(templatePaths.versions(id), undefined, { schema: versionListResponse })
  return res.data ?? []
}
