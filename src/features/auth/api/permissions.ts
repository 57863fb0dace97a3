import type { PermissionsData } from '../../../../contract/auth.ts'
import { get, type RequestOptions } from '../../../api/client.ts'
import { applyPermissions, getToken } from '../../../state/session.ts'
import { loadAuthSchemas } from './authSchemas.ts'

/** GET api/admin/user/front/permissions (query token): what this user's roles grant, kept in the session. */
export async function getPermissions(options?: RequestOptions<PermissionsData>): Promise<PermissionsData> {
  const { permissionsResponse } = await loadAuthSchemas()
  const token = getToken()
  const res = await get<PermissionsData>('api/admin/user/front/permissions', token ? { token } : undefined, {
    schema: permissionsResponse,
    ...options,
  })
  const data = res.data ?? { screens: [], permissions: [], catalog: [] }
  applyPermissions(data)
  return data
}
