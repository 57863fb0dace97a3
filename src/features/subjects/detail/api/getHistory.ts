import { getHistory as endpoint, type HistoryPage } from '../../../../../contract/studyData.ts'
import { call, type CallOptions } from '../../../../api/call.ts'

/** GET api/projects/:id/subjects/:subjectId/history: the audit trail of a subject, a record or a field. */
export function getHistory(
  input: { studyId: number; objectId: number; recordId?: number; field?: number; rowId?: number; before?: number; limit: number },
  options?: CallOptions<HistoryPage>,
): Promise<HistoryPage> {
  return call(endpoint, input, options)
}
