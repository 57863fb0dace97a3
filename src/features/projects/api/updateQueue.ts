import type { Queue, QueueInput } from '../../../../contract/projects.ts'
import { updateQueue as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call } from '../../../api/call.ts'

/** PUT api/projects/:id/queues/:queueId */
export function updateQueue(id: number, queueId: number, queue: QueueInput): Promise<Queue> {
  return call(endpoint, { id, queueId, queue })
}
