import type { Center, CenterInput } from '../../../../contract/projects.ts'
import { createCenter as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call } from '../../../api/call.ts'

/** POST api/centers: a new center of the directory. */
export function createCenter(input: CenterInput): Promise<Center> {
  return call(endpoint, input)
}
