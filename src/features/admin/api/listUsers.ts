import type { UserListQuery, UserPage } from '../../../../contract/users.ts'
import { listUsers as endpoint } from '../../../../contract/userEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

export type UserQuery = Partial<UserListQuery>

/** GET api/admin/users: one keyset page (pass the last page's `next` as `after`). */
export function listUsers(query: UserQuery, options?: CallOptions<UserPage>): Promise<UserPage> {
  return call(endpoint, query, options)
}
