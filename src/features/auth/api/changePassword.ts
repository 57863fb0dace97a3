import type { ChangePwdBody } from '../../../../contract/auth.ts'
import { post, type Envelope, type RequestOptions } from '../../../api/client.ts'
import { loadAuthSchemas } from './authSchemas.ts'

/**
 * POST api/admin/user/changePwd (SPEC §7): body id, oldPwd, password; the caller reads boolResult
 * and msg. A refusal rejects with an ApiError whose `envelope` holds boolResult false and the
 * server's msg (pass `{ toast: false }` to show it in the dialog instead of a toast).
 */
export async function changePassword(body: ChangePwdBody, options?: RequestOptions<never>): Promise<Envelope<never>> {
  const { changePwdResponse } = await loadAuthSchemas()
  return post<never>('api/admin/user/changePwd', body, undefined, { schema: changePwdResponse, ...options })
}
