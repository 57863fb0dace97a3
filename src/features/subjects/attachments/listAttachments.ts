import { listAttachments as endpoint, type Attachment } from '../../../../contract/attachments.ts'
import { call } from '../../../api/call.ts'

/** A subject's pictures (of one record, of one field of it), oldest first. */
export async function listAttachments(
  input: { studyId: number; subjectId: number; recordId?: number; indicatorId?: number },
  signal: AbortSignal,
): Promise<Attachment[]> {
  return (await call(endpoint, input, { signal })).rows
}
