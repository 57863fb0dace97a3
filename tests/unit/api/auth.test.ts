// The auth endpoint files of src/features/auth/api through the real client against the real
// server (Fastify on 127.0.0.1, port 0, in-memory SQLite): the SPEC §4 session transitions.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { permissions } from '../../../contract/permissions.ts'
import { screenNames } from '../../../contract/screens.ts'
import { ApiError, configureApi, type ApiConfig } from '../../../src/api/client.ts'
import { changePassword } from '../../../src/features/auth/api/changePassword.ts'
import { login } from '../../../src/features/auth/api/login.ts'
import { logout } from '../../../src/features/auth/api/logout.ts'
import { getPermissions } from '../../../src/features/auth/api/permissions.ts'
import { getUserInfo } from '../../../src/features/auth/api/userInfo.ts'
import {
  TOKEN_COOKIE,
  clearSession,
  memoryCookieStorage,
  session,
  setCookieStorage,
  setToken,
  type CookieStorage,
} from '../../../src/state/session.ts'
import { testApp, type TestApp } from '../../support/testApp.ts'

let t: TestApp
let base: string
let userId: number
let refusedBase: string

beforeAll(async () => {
  t = await testApp()
  userId = await t.createUser('alice', 'abc123', { name: 'Alice 李' })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/`
  // a port that was just free: connections to it are refused (the server is down)
  const closed = http.createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  refusedBase = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`
  await new Promise<void>((resolve) => closed.close(() => resolve()))
})

afterAll(async () => {
  await t.close()
})

interface Fx {
  toasts: string[]
  dialogs: number
  forceLogouts: number
  reloads: number
  answer(v: boolean): void
}

let fx: Fx
let cookies: CookieStorage
let errorLog: MockInstance<typeof console.error>

function configure(overrides: Partial<ApiConfig> = {}) {
  const answers: ((v: boolean) => void)[] = []
  fx = { toasts: [], dialogs: 0, forceLogouts: 0, reloads: 0, answer: (v) => answers.shift()?.(v) }
  configureApi({
    baseURL: base,
    timeout: 5000,
    toast: (m, o) => {
      expect(o.timeout).toBe(5000)
      fx.toasts.push(m)
    },
    confirmRelogin: () => {
      fx.dialogs++
      return new Promise<boolean>((r) => answers.push(r))
    },
    forceLogout: () => {
      fx.forceLogouts++
      clearSession()
    },
    reload: () => void fx.reloads++,
    language: () => 'en',
    ...overrides,
  })
}

beforeEach(() => {
  cookies = memoryCookieStorage()
  setCookieStorage(cookies)
  clearSession()
  configure()
  errorLog = vi.spyOn(console, 'error').mockImplementation(() => {})
})

afterEach(() => {
  fx.answer(false)
  errorLog.mockRestore()
})

async function signedIn(): Promise<string> {
  const res = await login({ username: 'alice', password: 'abc123', platform: 'web' })
  return res.data?.token ?? ''
}

describe('login', () => {
  it('trims the username, stores the token in the Kr-D-Token cookie on boolResult true', async () => {
    const res = await login({ username: '  alice ', password: 'abc123', platform: 'web' })
    expect(res.boolResult).toBe(true)
    expect(res.data?.userId).toBe(userId)
    expect(res.data?.token).toBeTruthy()
    expect(cookies.get(TOKEN_COOKIE)).toBe(res.data?.token)
    expect(session.token).toBe(res.data?.token)
    expect(fx.toasts).toEqual([])
  })

  it('a wrong password rejects with boolResult false, the server message toasted, no token stored', async () => {
    const e = await login({ username: 'alice', password: 'wrong1' }).catch((err: unknown) => err)
    expect(e).toBeInstanceOf(ApiError)
    const err = e as ApiError
    expect(err.status).toBe(400)
    expect(err.envelope?.boolResult).toBe(false)
    expect(fx.toasts).toEqual([err.message])
    expect(err.message.length).toBeGreaterThan(0)
    expect(cookies.get(TOKEN_COOKIE)).toBeUndefined()
    expect(fx.forceLogouts + fx.reloads + fx.dialogs).toBe(0)
  })
})

describe('user info and permissions', () => {
  it('fills the session from api/admin/user/front/info', async () => {
    await signedIn()
    const info = await getUserInfo()
    expect(info).toEqual({
      id: userId,
      name: 'Alice 李',
      username: 'alice',
      image: '',
      description: '',
      roles: ['System administrator'],
      mustChangePassword: false,
    })
    expect(session).toMatchObject({
      userId,
      name: 'Alice 李',
      userName: 'alice',
      roles: ['System administrator'],
      mustChangePassword: false,
    })
  })

  it('keeps the permitted screens, the granted permissions and the catalog (an administrator: all of them)', async () => {
    await signedIn()
    const data = await getPermissions()
    expect([...data.screens].sort()).toEqual([...screenNames].sort())
    expect(session.screens).toEqual(data.screens)
    expect(session.grants).toEqual([...permissions])
    expect(session.catalog.map((e) => e.name)).toEqual(expect.arrayContaining(['menu:project', ...screenNames]))
    expect(session.loaded).toBe(true)
  })

  it('an illegal stored token: HTTP 401 code 50008, the re-login dialog, no toast', async () => {
    setToken('not-a-real-token')
    const e = (await getUserInfo().catch((err: unknown) => err)) as ApiError
    expect(e).toBeInstanceOf(ApiError)
    expect(e.status).toBe(401)
    expect(e.code).toBe(50008)
    expect(fx.toasts).toEqual([])
    expect(fx.dialogs).toBe(1)
  })

  it('an expired token: code 50014, dialog once; confirming clears the session and reloads', async () => {
    await signedIn()
    t.advance(13 * 60 * 60 * 1000)
    try {
      const results = await Promise.allSettled([getUserInfo(), getPermissions()])
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
      expect(results.map((r) => (r.status === 'rejected' ? (r.reason as ApiError).code : 0))).toEqual([50014, 50014])
      expect(fx.dialogs).toBe(1)
      expect(fx.toasts).toEqual([])
      fx.answer(true)
      await new Promise((r) => setTimeout(r, 20))
      expect(fx.forceLogouts).toBe(1)
      expect(fx.reloads).toBe(1)
      expect(cookies.get(TOKEN_COOKIE)).toBeUndefined()
    } finally {
      t.advance(-13 * 60 * 60 * 1000)
    }
  })
})

describe('change password', () => {
  it('a refusal rejects with the server message and boolResult false', async () => {
    await signedIn()
    await getUserInfo()
    const e = (await changePassword({ id: userId, oldPwd: 'wrong1', password: 'new123' }).catch((err: unknown) => err)) as ApiError
    expect(e).toBeInstanceOf(ApiError)
    expect(e.envelope?.boolResult).toBe(false)
    expect(fx.toasts).toEqual([e.message])
  })

  it('success answers boolResult true and the server message', async () => {
    await signedIn()
    const res = await changePassword({ id: userId, oldPwd: 'abc123', password: 'abc1234' })
    expect(res.boolResult).toBe(true)
    expect(res.msg.length).toBeGreaterThan(0)
    // put it back for the other cases
    await changePassword({ id: userId, oldPwd: 'abc1234', password: 'abc123' })
  })
})

describe('logout', () => {
  it('ends the session on the server, clears token, system id, roles and cookie, then reloads', async () => {
    const token = await signedIn()
    await getUserInfo()
    session.sysId = 'sys-1'
    const reload = vi.fn()
    await logout({ reload })
    expect(reload).toHaveBeenCalledTimes(1)
    expect(session.token).toBe('')
    expect(session.sysId).toBe('')
    expect(session.roles).toEqual([])
    expect(cookies.get(TOKEN_COOKIE)).toBeUndefined()
    expect(fx.toasts).toEqual([])

    // the token is dead on the server: a call with it gets 50012 and the re-login dialog
    setToken(token)
    const e = (await getUserInfo().catch((err: unknown) => err)) as ApiError
    expect(e.code).toBe(50012)
    expect(fx.dialogs).toBe(1)
  })

  it('uses the configured reload when none is given', async () => {
    await signedIn()
    await logout()
    expect(fx.reloads).toBe(1)
  })

  it('clears the session and reloads even when the server is down, with no toast or dialog', async () => {
    await signedIn()
    configure({ baseURL: refusedBase })
    session.sysId = 'sys-1'
    session.roles = ['admin']
    await expect(logout()).resolves.toBeUndefined()
    expect(fx.reloads).toBe(1)
    expect(session.token).toBe('')
    expect(session.sysId).toBe('')
    expect(session.roles).toEqual([])
    expect(cookies.get(TOKEN_COOKIE)).toBeUndefined()
    expect(fx.toasts).toEqual([])
    expect(fx.dialogs + fx.forceLogouts).toBe(0)
  })

  it('with an already ended token: cleared and reloaded, no re-login dialog', async () => {
    setToken('stale-token')
    await logout()
    expect(fx.dialogs).toBe(0)
    expect(fx.reloads).toBe(1)
    expect(cookies.get(TOKEN_COOKIE)).toBeUndefined()
  })
})
