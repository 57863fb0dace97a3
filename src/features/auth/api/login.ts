import type { LoginBody, LoginData } from '../../../../contract/auth.ts'
import { post, type Envelope, type RequestOptions } from '../../../api/client.ts'
import { setToken } from '../../../state/session.ts'
import { loadAuthSchemas } from './authSchemas.ts'

/**
 * POST api/auth/jwt/token (SPEC §7): username trimmed. SPEC §4: when the answer reports
 * boolResult true and carries a token, the token is stored (cookie Kr-D-Token, until it expires).
 */
export async function login(body: LoginBody, options?: RequestOptions<LoginData>): Promise<Envelope<LoginData>> {
  const { loginResponse } = await loadAuthSchemas()
  const res = await post<LoginData>('api/auth/jwt/token', { ...body, username: body.username.trim() }, undefined, {
    schema: loginResponse,
    ...options,
  })
  if (res.boolResult === true && res.data?.token) {
    const expires = new Date(res.data.expiresAt)
    setToken(res.data.token, Number.isNaN(expires.getTime()) ? undefined : expires)
  }
  return res
}
