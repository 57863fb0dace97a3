import type { HistoryEntry } from '../../../../contract/projects.ts'
import { getProjectHistory as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/history: the project's audit rows (transitions with their reasons), oldest first. */
export function getProjectHistory(id: number, options?: CallOptions<HistoryEntry[]>): Promise<HistoryEntry[]> {
  return call(endpoint, { id }, options)
}
