import { deleteQueue as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call } from '../../../api/call.ts'

/** DELETE api/projects/:id/queues/:queueId: 409 while research objects are in it. */
export async function deleteQueue(id: number, queueId: number): Promise<void> {
  await call(endpoint, { id, queueId })
}
