import { post, reloadPage } from '../../../api/client.ts'
import { clearSession, getToken, session } from '../../../state/session.ts'
import { loadAuthSchemas } from './authSchemas.ts'

export interface LogoutOptions {
  /** Reload the page afterwards; default: the reload configured with configureApi. */
  reload?: () => void
}

/**
 * SPEC §4: POST api/auth/jwt/logout (query token, userId), then the session is cleared (token,
 * system id, roles, cookie) even if the call fails, then the page reloads. Never rejects.
 * The call is quiet: an already ended session answers 401/50012, which needs no toast and no
 * re-login dialog on the way out.
 */
export async function logout(options: LogoutOptions = {}): Promise<void> {
  const token = getToken() ?? session.token
  try {
    if (token) {
      const { logoutResponse } = await loadAuthSchemas()
      await post(
        'api/auth/jwt/logout',
        undefined,
        { token, userId: session.userId ?? undefined },
        {
          schema: logoutResponse,
          toast: false,
          sessionEffects: false,
        },
      )
    }
  } catch {
    // SPEC §4: the session ends on this side whatever the server said (the client logged it).
  } finally {
    clearSession()
  }
  if (options.reload) options.reload()
  else reloadPage()
}
