import { getDownloadRecords as endpoint, type DownloadRecordPage } from '../../../../contract/dataLoader.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/scientific/dataloader/getDownloadRecord: one keyset page of the project's downloads, newest first. */
export function getDownloadRecords(
  studyId: number,
  after: string | undefined,
  limit: number,
  options?: CallOptions<DownloadRecordPage>,
): Promise<DownloadRecordPage> {
  return call(endpoint, { studyId, after, limit }, options)
}
