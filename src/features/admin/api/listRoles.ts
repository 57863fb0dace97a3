import type { RoleList } from '../../../../contract/roles.ts'
import { listRoles as endpoint } from '../../../../contract/adminEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/admin/roles: every system role with its counts. */
export function listRoles(options?: CallOptions<RoleList>): Promise<RoleList> {
  return call(endpoint, {}, options)
}
