import NProgress from 'nprogress'
import { getToken, clearSession, session } from '../state/session.ts'
import { getUserInfo } from '../features/auth/api/userInfo.ts'
import { getPermissions } from '../features/auth/api/permissions.ts'
import { isApiError } from '../api/client.ts'
import { t } from '../i18n/index.ts'
import { toast } from '../ui/toaster.ts'
import { screens } from '../../contract/screens.ts'

// nprogress's own template gives its bar role="bar", which is no ARIA role (axe: aria-roles). The
// bar only mirrors a navigation, so it is hidden from assistive technology.
NProgress.configure({
  showSpinner: false,
  template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
  barSelector: '.bar',
})

/** Reachable without a session (SPEC §2). */
export const whiteList = ['/login', '/auth-redirect']

export type GuardDecision = { kind: 'render' } | { kind: 'redirect'; to: string } | { kind: 'load' }

/** SPEC §2 navigation guard, as a pure decision on the stored token, the roles and the path. */
export function decide(path: string, hasToken: boolean, hasRoles: boolean): GuardDecision {
  if (hasToken) {
    if (path === '/login') return { kind: 'redirect', to: '/' }
    return hasRoles ? { kind: 'render' } : { kind: 'load' }
  }
  return whiteList.includes(path) ? { kind: 'render' } : { kind: 'redirect', to: '/login' }
}

let loading: Promise<boolean> | null = null

/**
 * Fetches user info and the permitted screens once. On failure the session is cleared, the
 * server's message is shown and the user goes to / (which then lands on /login).
 */
export function loadSession(): Promise<boolean> {
  loading ??= (async () => {
    try {
      // The guard itself answers a dead session here (SPEC §4), so no re-login dialog over /login.
      await getUserInfo({ sessionEffects: false })
      await getPermissions({ sessionEffects: false })
      return true
    } catch (e) {
      clearSession()
      // SPEC §4: the server's message is shown. The client toasts every failure but HTTP 401.
      if (!isApiError(e) || e.status === 401) toast(e instanceof Error ? e.message : t('message.unknownError'), 'danger')
      return false
    } finally {
      loading = null
    }
  })()
  return loading
}

export const hasSession = () => Boolean(getToken())
export const hasRoles = () => session.loaded
export const progress = NProgress

/**
 * Where the empty root path goes once signed in: SPEC §2 says project/multi-list; a user whose
 * roles do not grant it lands on the first screen of the menu they may open, and on /401 with none.
 */
export function landingPath(granted: readonly string[]): string {
  if (granted.includes('multiList')) return '/project/multi-list'
  return screens.find((s) => !s.hidden && granted.includes(s.name))?.path ?? '/401'
}
