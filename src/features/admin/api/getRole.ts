import type { RoleDetail } from '../../../../contract/roles.ts'
import { getRole as endpoint } from '../../../../contract/adminEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/admin/roles/:id: one role with its screens and permissions. */
export function getRole(id: number, options?: CallOptions<RoleDetail>): Promise<RoleDetail> {
  return call(endpoint, { id }, options)
}
