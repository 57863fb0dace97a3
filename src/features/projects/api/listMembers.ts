import type { Member } from '../../../../contract/projects.ts'
import { listMembers as endpoint } from '../../../../contract/projectEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/projects/:id/members */
export function listMembers(id: number, options?: CallOptions<Member[]>): Promise<Member[]> {
  return call(endpoint, { id }, options)
}
