import type { UserInfo } from '../../../../contract/auth.ts'
import { ApiError, get, type RequestOptions } from '../../../api/client.ts'
import { applyUserInfo, getToken } from '../../../state/session.ts'
import { loadAuthSchemas } from './authSchemas.ts'

const path = 'api/admin/user/front/info'

/**
 * GET api/admin/user/front/info (query token): reads name, username, id, image, description into
 * the session. A success without data rejects like an invalid answer. What a failure means for
 * the page (SPEC §4: session cleared, the server's message shown, back to /) is the guard's to do:
 * the rejection is an ApiError whose message is the server's msg.
 */
export async function getUserInfo(options?: RequestOptions<UserInfo>): Promise<UserInfo> {
  const { userInfoResponse } = await loadAuthSchemas()
  const token = getToken()
  const res = await get<UserInfo>(path, token ? { token } : undefined, { schema: userInfoResponse, ...options })
  if (!res.data) {
    throw new ApiError({ message: 'Verification failed, please Login again.', kind: 'invalid', method: 'GET', url: path, envelope: res })
  }
  applyUserInfo(res.data)
  return res.data
}
