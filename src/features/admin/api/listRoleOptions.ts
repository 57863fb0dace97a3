import type { RoleOption } from '../../../../contract/users.ts'
import { listRoleOptions as endpoint } from '../../../../contract/userEndpoints.ts'
import { call } from '../../../api/call.ts'

/** GET api/admin/role-options: the roles a person can be given. */
export function listRoleOptions(signal?: AbortSignal): Promise<RoleOption[]> {
  return call(endpoint, {}, { signal })
}
