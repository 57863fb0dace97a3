import type { Center, CenterInput } from '../../../../contract/projects.ts'
import { updateCenter as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call } from '../../../api/call.ts'

/** PUT api/centers/:id: a directory entry's code, names and region. */
export function updateCenter(id: number, center: CenterInput): Promise<Center> {
  return call(endpoint, { id, center })
}
