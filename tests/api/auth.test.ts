import crypto from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { insertUserWithAccount } from '../../server/db/repositories/users.ts'
import { findBuiltinRole } from '../../server/db/repositories/roles.ts'
import { hashPassword } from '../../server/services/passwordHash.ts'
import { body, testApp, type TestApp } from '../support/testApp.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const alicePassword = 'alice123'
const mismatch = '您输入的用户名和密码不匹配，请重新输入！'
const mismatchEn = 'The username and the password you typed do not match. Please retype them!' // SPEC §8
const locked = '登录失败次数过多，账号已锁定，请 15 分钟后再试'

let t: TestApp
let aliceId: number
let bobId: number

// Hashing is slow on purpose: hash alice's and bob's passwords once, insert them in every fresh app.
const hashes: Record<string, string> = {}
beforeAll(async () => {
  hashes.alice = await hashPassword(alicePassword)
  hashes.bob = await hashPassword('bob12345')
})
const addUser = async (username: string, name = username) => {
  const admin = await findBuiltinRole(t.db.kysely, 'sysAdmin')
  const now = new Date().toISOString()
  const { userId } = await insertUserWithAccount(t.db.kysely, {
    name,
    username,
    passwordHash: hashes[username]!,
    roleIds: [admin!.id],
    now,
  })
  return userId
}

/**
 * A fresh server and database holding alice and bob: for each test of the describe, or, where the
 * tests only refuse and so leave nothing behind that another could trip on, one for all of them
 * (whose many sign-ins then need more than the per-address limit of 60 a minute).
 */
function withApp(scope: 'each' | 'all') {
  ;(scope === 'each' ? beforeEach : beforeAll)(() => start(scope === 'all' ? { loginRateLimit: { max: 1_000, windowMs: MINUTE } } : {}))
  ;(scope === 'each' ? afterEach : afterAll)(() => t.close())
}
async function start(opts: Parameters<typeof testApp>[0]) {
  t = await testApp(opts)
  aliceId = await addUser('alice', 'Alice Wang')
  bobId = await addUser('bob')
}
/** Within a test: the same, with other options (the old server is closed). */
async function restart(opts: Parameters<typeof testApp>[0]) {
  await t.close()
  await start(opts)
}

type Headers = Record<string, string>

const login = (payload: unknown, headers: Headers = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: payload as object, headers })
const loginAs = (username: string, password: string) => login({ username, password, platform: 'web' })
const info = (token: string, via: 'query' | 'header' = 'header') =>
  via === 'query'
    ? t.app.inject({ method: 'GET', url: '/api/admin/user/front/info', query: { token } })
    : t.app.inject({ method: 'GET', url: '/api/admin/user/front/info', headers: { 'kr-d-token': token } })
const logout = (query: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/auth/jwt/logout', query })
const changePwd = (token: string, payload: unknown, headers: Headers = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/user/changePwd',
    payload: payload as object,
    headers: { 'kr-d-token': token, ...headers },
  })

const rows = (table: 'session' | 'login_throttle' | 'audit_log' | 'app_user' | 'account') =>
  t.db.kysely.selectFrom(table).selectAll().execute()
const hashOf = async (id: number) =>
  (await t.db.kysely.selectFrom('account').select('password_hash').where('user_id', '=', id).executeTakeFirstOrThrow()).password_hash

/** A refusal in the envelope: HTTP status, body code, and the message (exact, or a part of it). */
function expectRefused(res: LightMyRequestResponse, status: number, code: number, msg?: string | RegExp) {
  expect(res.statusCode, res.body).toBe(status)
  const b = body(res)
  expect(b.code).toBe(code)
  expect(b.boolResult).not.toBe(true)
  expect(b.data).toBeUndefined()
  if (typeof msg === 'string') expect(b.msg).toBe(msg)
  else if (msg) expect(b.msg).toMatch(msg)
  return b
}

async function failLogins(username: string, times: number) {
  for (let i = 0; i < times; i++) expectRefused(await loginAs(username, 'wrong999'), 400, 400, mismatch)
}

describe('POST /api/auth/jwt/token', () => {
  withApp('each')

  it('signs in with a trimmed username and answers boolResult and data.token', async () => {
    const res = await loginAs('  alice \t', alicePassword)
    expect(res.statusCode).toBe(200)
    const b = body(res)
    expect(b).toMatchObject({ code: 0, boolResult: true, data: { userId: aliceId } })
    const token = String(b.data?.token)
    expect(token.length).toBeGreaterThanOrEqual(32)
    expect(body(await info(token)).data?.username).toBe('alice')
    const sessions = await rows('session')
    expect(sessions).toHaveLength(1)
    const account = await t.db.kysely.selectFrom('account').selectAll().where('user_id', '=', aliceId).executeTakeFirstOrThrow()
    expect(sessions[0]).toMatchObject({ account_id: account.id, ended_at: null })
    // The sign-in is recorded on the account (the account list shows it).
    expect(account.last_login_at).toBe(sessions[0]?.created_at)
    expect(sessions[0]?.token_hash).not.toContain(token)
  })

  it('gives each sign-in its own token', async () => {
    expect(await t.signIn('alice', alicePassword)).not.toBe(await t.signIn('alice', alicePassword))
  })

  it('answers a wrong password, an unknown user and a disabled account byte for byte alike', async () => {
    await t.createUser('carol', 'carol123', { status: 0 })
    const wrong = await loginAs('alice', 'alice124')
    const unknown = await loginAs('nobody', alicePassword)
    const disabled = await loginAs('carol', 'carol123')
    expectRefused(wrong, 400, 400, mismatch)
    expect(body(wrong).boolResult).toBe(false)
    for (const res of [unknown, disabled]) {
      expect(res.statusCode).toBe(wrong.statusCode)
      expect(res.body).toBe(wrong.body)
    }
    expect(await rows('session')).toEqual([])
  })

  it('answers the SPEC §8 sentence in English on request', async () => {
    expectRefused(await login({ username: 'alice', password: 'alice124' }, { 'accept-language': 'en' }), 400, 400, mismatchEn)
  })

  it('matches the username whatever its case (it is unique whatever its case) and the password case-sensitively', async () => {
    expect(body(await loginAs('ALICE', alicePassword)).data).toMatchObject({ userId: aliceId })
    expectRefused(await loginAs('alice', alicePassword.toUpperCase()), 400, 400, mismatch)
    expectRefused(await loginAs('alice', ` ${alicePassword}`), 400, 400, mismatch)
  })

  it('answers a long username whose lower case is longer (İ → i̇) like any unknown user', async () => {
    expectRefused(await loginAs('İ'.repeat(64), alicePassword), 400, 400, mismatch)
  })

  it('treats SQL typed as a password as a wrong password', async () => {
    expectRefused(await loginAs('alice', "' OR '1'='1"), 400, 400, mismatch)
    expectRefused(await loginAs('alice', "x' OR 1=1; --"), 400, 400, mismatch)
    expect(await rows('session')).toEqual([])
  })
})

describe('POST /api/auth/jwt/token refuses bad input with a message naming the field, writing nothing but audit rows', () => {
  withApp('all')

  it.each([
    ['no username', { password: alicePassword }, 'username'],
    ['no password', { username: 'alice' }, 'password'],
    ['a blank username', { username: '   ', password: alicePassword }, 'username'],
    ['an empty password', { username: 'alice', password: '' }, 'password'],
    ['a numeric username', { username: 42, password: alicePassword }, 'username'],
    ['a null username', { username: null, password: alicePassword }, 'username'],
    ['an array password', { username: 'alice', password: [alicePassword] }, 'password'],
    ['an object platform', { username: 'alice', password: alicePassword, platform: { web: true } }, 'platform'],
    ['a 10,000-character password', { username: 'alice', password: 'a1'.repeat(5_000) }, 'password'],
    ['a 65-character username', { username: 'a'.repeat(65), password: alicePassword }, 'username'],
    ['SQL in the username', { username: "alice' OR '1'='1", password: alicePassword }, 'username'],
    ['a statement in the username', { username: "alice'; DROP TABLE app_user; --", password: 'x' }, 'username'],
    ['a comment in the username', { username: "alice'--", password: alicePassword }, 'username'],
    ['HTML in the username', { username: '<script>alert(1)</script>', password: alicePassword }, 'username'],
    ['an image tag in the username', { username: '<img src=x onerror=alert(1)>', password: 'x' }, 'username'],
  ])('%s', async (_name, payload, field) => {
    const usersBefore = await rows('app_user')
    const zh = expectRefused(await login(payload), 400, 400)
    expect(zh.msg).toContain(field)
    expect(zh.msg).toMatch(/[\u4e00-\u9fff]/)
    const en = expectRefused(await login(payload, { 'accept-language': 'en' }), 400, 400)
    expect(en.msg).toContain(field)
    expect(en.msg).not.toMatch(/[\u4e00-\u9fff]/)
    expect(await rows('app_user')).toEqual(usersBefore)
    expect(await rows('session')).toEqual([])
    expect(await rows('login_throttle')).toEqual([])
    for (const row of await rows('audit_log')) expect(row).toMatchObject({ action: 'auth.login', outcome: 'denied' })
  })

  it('names the missing field in Chinese by default and in English on request', async () => {
    expectRefused(await login({ password: alicePassword }), 400, 400, '请输入 username')
    expectRefused(await login({ password: alicePassword }, { 'accept-language': 'en' }), 400, 400, 'Please input username')
  })
})

describe('GET /api/admin/user/front/info', () => {
  withApp('each')

  it.each(['query', 'header'] as const)('answers name, username, id, image, description, roles (token in the %s)', async (via) => {
    const token = await t.signIn('alice', alicePassword)
    const res = await info(token, via)
    expect(res.statusCode).toBe(200)
    expect(body(res)).toMatchObject({
      code: 0,
      data: {
        id: aliceId,
        name: 'Alice Wang',
        username: 'alice',
        image: '',
        description: '',
        roles: ['系统管理员'],
        mustChangePassword: false,
      },
    })
    expect(Object.keys(body(res).data ?? {}).sort()).toEqual([
      'description',
      'id',
      'image',
      'mustChangePassword',
      'name',
      'roles',
      'username',
    ])
  })

  it('answers 401 with code 50008 without a token', async () => {
    expectRefused(await t.app.inject({ method: 'GET', url: '/api/admin/user/front/info' }), 401, 50008)
  })

  it.each(['query', 'header'] as const)('answers 401 with code 50008 for a forged token (in the %s)', async (via) => {
    await t.signIn('alice', alicePassword)
    expectRefused(await info(crypto.randomBytes(32).toString('base64url'), via), 401, 50008, '非法的令牌，请重新登录')
  })

  it('answers 401 with code 50014 once the token is older than 12 hours', async () => {
    const token = await t.signIn('alice', alicePassword)
    t.advance(12 * HOUR - MINUTE)
    expect(body(await info(token)).code).toBe(0)
    t.advance(2 * MINUTE)
    expectRefused(await info(token), 401, 50014, '登录已过期，请重新登录')
    expectRefused(await info(token, 'query'), 401, 50014)
  })

  it('answers 401 with code 50012 for a logged-out token', async () => {
    const token = await t.signIn('alice', alicePassword)
    expect((await logout({ token })).statusCode).toBe(200)
    expectRefused(await info(token), 401, 50012)
    expectRefused(await info(token, 'query'), 401, 50012)
  })

  it('refuses the token of a person or account disabled straight in the database after it signed in: ended (50012)', async () => {
    const token = await t.signIn('alice', alicePassword)
    await t.db.kysely.updateTable('app_user').set({ status: 0 }).where('id', '=', aliceId).execute()
    expectRefused(await info(token), 401, 50012)
    const bobToken = await t.signIn('bob', 'bob12345')
    await t.db.kysely.updateTable('account').set({ status: 0 }).where('user_id', '=', bobId).execute()
    expectRefused(await info(bobToken), 401, 50012)
  })
})

describe('POST /api/auth/jwt/logout', () => {
  withApp('each')

  it('ends the session of the query token at once', async () => {
    const token = await t.signIn('alice', alicePassword)
    const other = await t.signIn('alice', alicePassword)
    const res = await logout({ token, userId: String(aliceId) })
    expect(res.statusCode).toBe(200)
    expect(body(res)).toMatchObject({ code: 0, boolResult: true })
    expectRefused(await info(token), 401, 50012)
    expectRefused(await logout({ token, userId: String(aliceId) }), 401, 50012)
    expect(body(await info(other)).code).toBe(0)
    const ended = (await rows('session')).filter((s) => s.ended_at !== null)
    expect(ended).toHaveLength(1)
    expect(ended[0]?.ended_reason).toBe('logout')
  })

  it("refuses another user's userId with 403 and keeps the session", async () => {
    const token = await t.signIn('alice', alicePassword)
    expectRefused(await logout({ token, userId: String(bobId) }), 403, 403, '只能操作自己的账号')
    expect(body(await info(token)).code).toBe(0)
    expect((await rows('session')).every((s) => s.ended_at === null)).toBe(true)
  })

  it('refuses a missing or forged token and a userId that is not a number', async () => {
    const token = await t.signIn('alice', alicePassword)
    expectRefused(await logout({}), 401, 50008)
    expectRefused(await logout({ token: 'forged', userId: String(aliceId) }), 401, 50008)
    expectRefused(await logout({ token, userId: 'abc' }), 400, 400, /userId/)
    expect(body(await info(token)).code).toBe(0)
  })
})

const newPassword = 'newPass42'

describe('POST /api/admin/user/changePwd', () => {
  withApp('each')

  it('changes the password, ends the other sessions and keeps this one', async () => {
    const current = await t.signIn('alice', alicePassword)
    const other = await t.signIn('alice', alicePassword)
    const bobs = await t.signIn('bob', 'bob12345')
    const res = await changePwd(current, { id: aliceId, oldPwd: alicePassword, password: newPassword })
    expect(res.statusCode).toBe(200)
    expect(body(res)).toEqual({ code: 0, msg: '密码修改成功', boolResult: true })
    expectRefused(await loginAs('alice', alicePassword), 400, 400, mismatch)
    expect(body(await loginAs('alice', newPassword)).boolResult).toBe(true)
    expectRefused(await info(other), 401, 50012)
    expect(body(await info(current)).code).toBe(0)
    expect(body(await info(bobs)).code).toBe(0)
  })

  it('answers in English on request', async () => {
    const token = await t.signIn('alice', alicePassword)
    const res = await changePwd(token, { id: aliceId, oldPwd: alicePassword, password: newPassword }, { 'accept-language': 'en' })
    expect(body(res)).toEqual({ code: 0, msg: 'Password changed', boolResult: true })
  })

  it('refuses without a session, or with an ended one', async () => {
    const token = await t.signIn('alice', alicePassword)
    const hash = await hashOf(aliceId)
    const payload = { id: aliceId, oldPwd: alicePassword, password: newPassword }
    expectRefused(await t.app.inject({ method: 'POST', url: '/api/admin/user/changePwd', payload }), 401, 50008)
    await logout({ token })
    expectRefused(await changePwd(token, payload), 401, 50012)
    expect(await hashOf(aliceId)).toBe(hash)
  })
})

describe('POST /api/admin/user/changePwd refuses, changing nothing', () => {
  withApp('all')

  const charset = ['密码只能包含数字和字母', 'The password may contain only letters and digits, with at least one of each']
  /** [case, body (ids are read when the test runs), HTTP status, [zh message, en message]] */
  const refusals: [string, () => object, number, string[]][] = [
    [
      'the same password',
      () => ({ id: aliceId, oldPwd: alicePassword, password: alicePassword }),
      400,
      ['新密码不能与旧密码相同', 'The new password must differ from the old one'],
    ],
    [
      'a 5-character password',
      () => ({ id: aliceId, oldPwd: alicePassword, password: 'abc12' }),
      400,
      ['密码长度介于6到16位之间', 'The password must be 6 to 16 characters long'],
    ],
    [
      'letters only',
      () => ({ id: aliceId, oldPwd: alicePassword, password: 'abcdefgh' }),
      400,
      ['密码至少需要包含一个数字', 'The password needs at least one digit'],
    ],
    [
      'digits only',
      () => ({ id: aliceId, oldPwd: alicePassword, password: '12345678' }),
      400,
      ['密码至少需要包含一个字母', 'The password needs at least one letter'],
    ],
    ['symbols', () => ({ id: aliceId, oldPwd: alicePassword, password: 'abc123!@' }), 400, charset],
    ['a space', () => ({ id: aliceId, oldPwd: alicePassword, password: 'abc 1234' }), 400, charset],
    [
      'an empty new password',
      () => ({ id: aliceId, oldPwd: alicePassword, password: '' }),
      400,
      ['请设置新密码', 'Please set a new password'],
    ],
    [
      'an empty old password',
      () => ({ id: aliceId, oldPwd: '', password: newPassword }),
      400,
      ['请输入原密码', 'Please enter the old password'],
    ],
    [
      'a wrong old password',
      () => ({ id: aliceId, oldPwd: 'alice124', password: newPassword }),
      400,
      ['原密码不正确', 'The old password is wrong'],
    ],
    [
      "another user's id",
      () => ({ id: bobId, oldPwd: 'bob12345', password: newPassword }),
      403,
      ['只能操作自己的账号', 'You can only act on your own account'],
    ],
  ]

  describe.each([
    ['zh', 0],
    ['en', 1],
  ] as const)('in %s:', (lang, index) => {
    it.each(refusals)('%s', async (_name, payload, status, messages) => {
      const token = await t.signIn('alice', alicePassword)
      const other = await t.signIn('alice', alicePassword)
      const hashes = [await hashOf(aliceId), await hashOf(bobId)]
      const b = expectRefused(await changePwd(token, payload(), { 'accept-language': lang }), status, status, messages[index])
      expect(b.boolResult).toBe(false)
      expect([await hashOf(aliceId), await hashOf(bobId)]).toEqual(hashes)
      expect(body(await info(other)).code).toBe(0)
      expect(body(await loginAs('alice', alicePassword)).boolResult).toBe(true)
    })
  })

  it.each([
    ['no id', () => ({ oldPwd: alicePassword, password: newPassword }), 'id'],
    ['an id as a string', () => ({ id: String(aliceId), oldPwd: alicePassword, password: newPassword }), 'id'],
    ['a numeric old password', () => ({ id: aliceId, oldPwd: 123456, password: newPassword }), 'oldPwd'],
    ['no new password', () => ({ id: aliceId, oldPwd: alicePassword }), 'password'],
    ['a 10,000-character new password', () => ({ id: aliceId, oldPwd: alicePassword, password: 'a1'.repeat(5_000) }), 'password'],
  ])('with a message naming the field: %s', async (_name, payload, field) => {
    const token = await t.signIn('alice', alicePassword)
    const hash = await hashOf(aliceId)
    expect(expectRefused(await changePwd(token, payload()), 400, 400).msg).toContain(field)
    expect(await hashOf(aliceId)).toBe(hash)
  })
})

describe('lockout of a username after failed sign-ins', () => {
  withApp('each')

  it('locks after 5 failures in 15 minutes, even for the right password, until 15 minutes pass', async () => {
    await failLogins('alice', 5)
    expectRefused(await loginAs('alice', alicePassword), 429, 429, locked)
    expect(await rows('session')).toEqual([])
    t.advance(14 * MINUTE)
    expectRefused(await loginAs('alice', alicePassword), 429, 429)
    t.advance(MINUTE + 1_000)
    expect(body(await loginAs('alice', alicePassword)).boolResult).toBe(true)
  })

  it('answers a locked unknown username exactly as a locked known one', async () => {
    await failLogins('alice', 5)
    await failLogins('ghost', 5)
    const known = await loginAs('alice', alicePassword)
    const unknown = await loginAs('ghost', alicePassword)
    expectRefused(unknown, 429, 429, locked)
    expect(unknown.body).toBe(known.body)
  })

  it('counts failures across the case of the username', async () => {
    for (const name of ['ALICE', 'Alice', 'alice', 'aLiCe', 'alicE']) expectRefused(await loginAs(name, 'wrong999'), 400, 400, mismatch)
    expectRefused(await loginAs('alice', alicePassword), 429, 429, locked)
  })

  it('locks only that username', async () => {
    await failLogins('alice', 5)
    expect(body(await loginAs('bob', 'bob12345')).boolResult).toBe(true)
  })

  it('a success clears the counter', async () => {
    await failLogins('alice', 4)
    await t.signIn('alice', alicePassword)
    await failLogins('alice', 4)
    expect(body(await loginAs('alice', alicePassword)).boolResult).toBe(true)
  })

  it('forgets failures older than 15 minutes', async () => {
    await failLogins('alice', 4)
    t.advance(15 * MINUTE + 1_000)
    await failLogins('alice', 1)
    expect(body(await loginAs('alice', alicePassword)).boolResult).toBe(true)
  })

  it('after a lock ends, a new failure starts a new count, even within the failure window', async () => {
    await restart({ auth: { lockMs: 5 * MINUTE } })
    await failLogins('alice', 5)
    expectRefused(await loginAs('alice', alicePassword), 429, 429, '登录失败次数过多，账号已锁定，请 5 分钟后再试')
    t.advance(5 * MINUTE + 1_000)
    await failLogins('alice', 4)
    expect(body(await loginAs('alice', alicePassword)).boolResult).toBe(true)
  })

  it('answers the lock in English on request', async () => {
    await failLogins('alice', 5)
    const res = await login({ username: 'alice', password: alicePassword }, { 'accept-language': 'en' })
    expectRefused(res, 429, 429, 'Too many failed sign-ins; the account is locked, retry in 15 minutes')
  })
})

describe('per-address flood limit on sign-in', () => {
  afterEach(() => t.close())

  const rateLimited = async () =>
    (await rows('audit_log')).filter((r) => (JSON.parse(r.detail) as { reason?: string }).reason === 'rateLimited')
  const floodApp = (windowMs: number) => start({ loginRateLimit: { max: 3, windowMs } })
  const flood = async (n: number, remoteAddress = '127.0.0.1') => {
    const out: LightMyRequestResponse[] = []
    for (let i = 0; i < n; i++) {
      out.push(await t.app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username: 'alice' }, remoteAddress }))
    }
    return out
  }

  it('refuses past max with 429 and a retry message, writing one audit row and nothing else', async () => {
    await floodApp(60_000)
    const allowed = await flood(3)
    for (const res of allowed) expectRefused(res, 400, 400, /password/)
    for (const res of await flood(20)) {
      expectRefused(res, 429, 429, /^请求过于频繁，请 \d+ 秒后再试$/)
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60)
    }
    const right = await loginAs('alice', alicePassword)
    expectRefused(right, 429, 429)
    expectRefused(
      await login({ username: 'alice', password: alicePassword }, { 'accept-language': 'en' }),
      429,
      429,
      /^Too many requests, please retry in \d+ seconds$/,
    )
    expect(await rateLimited()).toHaveLength(1)
    expect((await rateLimited())[0]).toMatchObject({ action: 'auth.login', outcome: 'denied', ip: '127.0.0.1' })
    expect(await rows('audit_log')).toHaveLength(1)
    expect(await rows('session')).toEqual([])
    expect(await rows('login_throttle')).toEqual([])
  })

  it('limits each address on its own', async () => {
    await floodApp(60_000)
    await flood(10, '10.0.0.1')
    for (const res of await flood(3, '10.0.0.2')) expectRefused(res, 400, 400)
    expectRefused((await flood(1, '10.0.0.2'))[0]!, 429, 429)
  })

  it('lets requests through again in the next window, with one audit row per window', async () => {
    await floodApp(1_000)
    await flood(10)
    expect(await rateLimited()).toHaveLength(1)
    await new Promise((r) => setTimeout(r, 1_100))
    const next = await flood(10)
    expect(next.slice(0, 3).map((r) => r.statusCode)).toEqual([400, 400, 400])
    expect(next.slice(3).every((r) => r.statusCode === 429)).toBe(true)
    expect(await rateLimited()).toHaveLength(2)
  })
})
