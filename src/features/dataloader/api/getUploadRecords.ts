import { getUploadRecords as endpoint, type UploadRecordPage } from '../../../../contract/dataLoader.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/scientific/dataloader/getUploadRecord: one keyset page of the project's uploads, newest first. */
export function getUploadRecords(
  studyId: number,
  after: string | undefined,
  limit: number,
  options?: CallOptions<UploadRecordPage>,
): Promise<UploadRecordPage> {
  return call(endpoint, { studyId, after, limit }, options)
}
