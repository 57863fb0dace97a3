import type { Queue, QueueInput } from '../../../../contract/projects.ts'
import { addQueue as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call } from '../../../api/call.ts'

/** POST api/projects/:id/queues */
export function addQueue(id: number, queue: QueueInput): Promise<Queue> {
  return call(endpoint, { id, queue })
}
