import Cookies from 'js-cookie'
import { proxy } from 'valtio/vanilla'
import { useSnapshot } from 'valtio'
import type { PermissionsData, UserInfo } from '../../contract/auth.ts'
import type { CatalogEntry } from '../../contract/catalog.ts'
import type { Permission } from '../../contract/permissions.ts'

/** SPEC §9: the session token lives in a browser cookie of this name (and travels in this header). */
export const TOKEN_COOKIE = 'Kr-D-Token'

/** Where the token cookie is kept: js-cookie in the browser, a fake in tests (node has no document.cookie). */
export interface CookieStorage {
  get(name: string): string | undefined
  set(name: string, value: string, options?: { expires?: Date }): void
  remove(name: string): void
}

/** The browser's cookies through js-cookie; path '/', same-site only, Secure over HTTPS. */
export const browserCookieStorage: CookieStorage = {
  get: (name) => Cookies.get(name),
  set: (name, value, options) =>
    void Cookies.set(name, value, {
      path: '/',
      sameSite: 'strict',
      secure: typeof location !== 'undefined' && location.protocol === 'https:',
      ...(options?.expires ? { expires: options.expires } : {}),
    }),
  remove: (name) => Cookies.remove(name, { path: '/' }),
}

/** A cookie jar in memory, for tests and for environments without document.cookie. */
export function memoryCookieStorage(initial: Record<string, string> = {}): CookieStorage {
  const jar = new Map(Object.entries(initial))
  return {
    get: (name) => jar.get(name),
    set: (name, value) => void jar.set(name, value),
    remove: (name) => void jar.delete(name),
  }
}

let storage: CookieStorage = browserCookieStorage

/** SPEC §3 User session, client side. */
export interface Session {
  token: string
  name: string
  userId: number | null
  userName: string
  avatar: string
  introduction: string
  roles: string[]
  status: string
  code: string
  sysId: string
  /** A list of platform entries. */
  setting: string[]
  /** Screen names of GET api/admin/user/front/permissions (contract/screens.ts): the routes this user may open. */
  screens: string[]
  /** The permissions the user's roles grant: commands and buttons check them (contract/permissions.ts). */
  grants: Permission[]
  /** The menu/route catalog as the administrator arranged it: order, icons, hidden flags, titles. */
  catalog: CatalogEntry[]
  /** An administrator set the password: the change-password dialog opens and stays until it is changed. */
  mustChangePassword: boolean
  /** User info and the permission list have been read for this token. */
  loaded: boolean
}

export const session: Session = proxy<Session>({
  token: storage.get(TOKEN_COOKIE) ?? '',
  name: '',
  userId: null,
  userName: '',
  avatar: '',
  introduction: '',
  roles: [],
  status: '',
  code: '',
  sysId: '',
  setting: [],
  screens: [],
  grants: [],
  catalog: [],
  mustChangePassword: false,
  loaded: false,
})

/** Swap the cookie storage (tests pass memoryCookieStorage()); the session token follows the new jar. */
export function setCookieStorage(next: CookieStorage): void {
  storage = next
  session.token = storage.get(TOKEN_COOKIE) ?? ''
}

/** The stored token (the cookie is the truth), or undefined when there is none. */
export function getToken(): string | undefined {
  const token = storage.get(TOKEN_COOKIE)
  return token ? token : undefined
}

/** Store the token in the session and in the Kr-D-Token cookie (until `expires`, else for the browser session). */
export function setToken(token: string, expires?: Date): void {
  session.token = token
  storage.set(TOKEN_COOKIE, token, expires ? { expires } : undefined)
}

/** Take the user info of GET api/admin/user/front/info into the session. */
export function applyUserInfo(info: UserInfo): void {
  session.name = info.name
  session.userName = info.username
  session.userId = info.id
  session.avatar = info.image
  session.introduction = info.description
  session.roles = [...info.roles]
  session.mustChangePassword = info.mustChangePassword
}

/** Take the permission list into the session; the session counts as loaded from here. */
export function applyPermissions(data: PermissionsData): void {
  session.screens = [...data.screens]
  session.grants = [...data.permissions]
  session.catalog = data.catalog.map((e) => ({ ...e }))
  session.loaded = true
}

/** Whether the user's roles grant the screen (contract/screens.ts name). */
export const mayOpen = (screen: string): boolean => session.screens.includes(screen)

/** Whether the user's roles grant the permission. */
export const holds = (permission: Permission): boolean => session.grants.includes(permission)

/** `holds` for a component: it redraws when the grants change. */
export function useHolds(permission: Permission): boolean {
  return useSnapshot(session).grants.includes(permission)
}

/**
 * SPEC §4: clears token, system id and roles, and removes the stored token. The permission list
 * goes with the roles it stands for.
 */
export function clearSession(): void {
  session.token = ''
  session.sysId = ''
  session.roles = []
  session.screens = []
  session.grants = []
  session.catalog = []
  session.mustChangePassword = false
  session.loaded = false
  storage.remove(TOKEN_COOKIE)
}
