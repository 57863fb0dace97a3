import { listDue as endpoint, type DuePage, type DueState } from '../../../../contract/followUp.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/follow-up, one row asked for: how many of the caller's visits are due, or overdue, today. */
export async function countDue(id: number, state: DueState, options?: CallOptions<DuePage>): Promise<{ total: number; today: string }> {
  const page = await call(endpoint, { id, state, limit: 1 }, options)
  return { total: page.total, today: page.today }
}
