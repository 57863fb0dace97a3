// The session store (SPEC §3, §4) and its cookie, through js-cookie on a stand-in document.cookie.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  TOKEN_COOKIE,
  applyPermissions,
  applyUserInfo,
  browserCookieStorage,
  clearSession,
  getToken,
  memoryCookieStorage,
  session,
  setCookieStorage,
  setToken,
} from '../../../src/state/session.ts'

/** A minimal document.cookie: writes are recorded, an expiry in the past deletes. */
function fakeDocument() {
  const jar = new Map<string, string>()
  const writes: string[] = []
  const doc = {
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
    },
    set cookie(line: string) {
      writes.push(line)
      const [pair = '', ...attrs] = line.split(';').map((s) => s.trim())
      const i = pair.indexOf('=')
      const name = decodeURIComponent(pair.slice(0, i))
      const expires = attrs.find((a) => a.toLowerCase().startsWith('expires='))
      if (expires && Date.parse(expires.slice(8)) <= Date.now()) jar.delete(name)
      else jar.set(name, pair.slice(i + 1))
    },
  }
  return { doc, writes, jar }
}

describe('session with a memory cookie jar', () => {
  beforeEach(() => setCookieStorage(memoryCookieStorage()))

  it('has no token at first', () => {
    expect(getToken()).toBeUndefined()
    expect(session.token).toBe('')
  })

  it('picks up a token already in the cookie jar', () => {
    setCookieStorage(memoryCookieStorage({ [TOKEN_COOKIE]: 'from-cookie' }))
    expect(getToken()).toBe('from-cookie')
    expect(session.token).toBe('from-cookie')
  })

  it('setToken stores the token in the session and in the Kr-D-Token cookie', () => {
    const jar = memoryCookieStorage()
    setCookieStorage(jar)
    setToken('abc')
    expect(session.token).toBe('abc')
    expect(jar.get('Kr-D-Token')).toBe('abc')
    expect(getToken()).toBe('abc')
  })

  it('applyUserInfo maps name, username, id, image, description, roles and the forced password change', () => {
    applyUserInfo({
      id: 7,
      name: '张三',
      username: 'zhangsan',
      image: '/a.png',
      description: 'PI',
      roles: ['数据录入员'],
      mustChangePassword: true,
    })
    expect(session).toMatchObject({
      userId: 7,
      name: '张三',
      userName: 'zhangsan',
      avatar: '/a.png',
      introduction: 'PI',
      roles: ['数据录入员'],
      mustChangePassword: true,
    })
  })

  it('clearSession clears token, system id, roles and permissions and removes the cookie', () => {
    const jar = memoryCookieStorage()
    setCookieStorage(jar)
    setToken('abc')
    session.sysId = 'sys-1'
    applyUserInfo({ id: 7, name: '张三', username: 'zhangsan', image: '', description: '', roles: ['研究者'], mustChangePassword: false })
    applyPermissions({ screens: ['dashboard', 'multiList'], permissions: ['project.view'], catalog: [] })
    expect(session.loaded).toBe(true)
    clearSession()
    expect(session.token).toBe('')
    expect(session.sysId).toBe('')
    expect(session.roles).toEqual([])
    expect(session.screens).toEqual([])
    expect(session.grants).toEqual([])
    expect(session.loaded).toBe(false)
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined()
    expect(getToken()).toBeUndefined()
  })
})

describe('browserCookieStorage (js-cookie)', () => {
  const g = globalThis as { document?: unknown }
  afterEach(() => {
    delete g.document
    setCookieStorage(memoryCookieStorage())
  })

  it('writes Kr-D-Token for path / and same-site only, reads it back, removes it', () => {
    const { doc, writes, jar } = fakeDocument()
    g.document = doc
    setCookieStorage(browserCookieStorage)
    setToken('tok-1', new Date(Date.now() + 3_600_000))
    expect(writes[0]).toMatch(/^Kr-D-Token=tok-1; /)
    expect(writes[0]).toContain('path=/')
    expect(writes[0]).toContain('sameSite=strict')
    expect(writes[0]).toMatch(/expires=/)
    expect(getToken()).toBe('tok-1')
    clearSession()
    expect(jar.has(TOKEN_COOKIE)).toBe(false)
    expect(getToken()).toBeUndefined()
  })

  it('without a document (node) it stores nothing and does not throw', () => {
    setCookieStorage(browserCookieStorage)
    expect(() => setToken('x')).not.toThrow()
    expect(getToken()).toBeUndefined()
  })
})
