import type { UserDetail } from '../../../../contract/users.ts'
import { getUser as endpoint } from '../../../../contract/userEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/admin/users/:id */
export function getUser(id: number, options?: CallOptions<UserDetail>): Promise<UserDetail> {
  return call(endpoint, { id }, options)
}
