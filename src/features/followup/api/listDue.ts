import { listDue as endpoint, type DueListQuery, type DuePage } from '../../../../contract/followUp.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/follow-up: one keyset page of the due or overdue visits. */
export function listDue(id: number, query: Partial<DueListQuery>, options?: CallOptions<DuePage>): Promise<DuePage> {
  return call(endpoint, { id, ...query }, options)
}
