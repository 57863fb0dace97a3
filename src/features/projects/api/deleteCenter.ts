import { deleteCenter as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call } from '../../../api/call.ts'

/** DELETE api/centers/:id: refused while a project uses it. */
export async function deleteCenter(id: number): Promise<void> {
  await call(endpoint, { id })
}
