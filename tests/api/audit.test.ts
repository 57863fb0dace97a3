import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditRow } from '../../server/db/tables/auditLog.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

const HOUR = 60 * 60 * 1000
const passwords = { alice: 'Alice2024', aliceNew: 'Fresh9876', bob: 'Bobby1234' }

// One server for the file, as in production: each test reads the rows its own calls appended.
let t: TestApp
let aliceId: number
let bobId: number
beforeAll(async () => {
  t = await testApp()
  aliceId = await t.createUser('alice', passwords.alice)
  bobId = await t.createUser('bob', passwords.bob)
})
afterAll(() => t.close())

const allRows = () => t.db.kysely.selectFrom('audit_log').selectAll().orderBy('id').execute()
/** Runs `act` and answers the audit rows it appended. */
async function appended(act: () => Promise<unknown>): Promise<AuditRow[]> {
  const before = (await allRows()).length
  await act()
  return (await allRows()).slice(before)
}
const detail = (row: AuditRow | undefined) => JSON.parse(row?.detail ?? 'null') as Record<string, unknown>

const post = (url: string, payload: object, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload, headers, remoteAddress })
const signIn = (username: string, password: string, remoteAddress?: string) =>
  post('/api/auth/jwt/token', { username, password, platform: 'web' }, { 'x-forwarded-for': '6.6.6.6' }, remoteAddress)
const changePwd = (token: string, id: number, oldPwd: string, password: string) =>
  post('/api/admin/user/changePwd', { id, oldPwd, password }, { 'kr-d-token': token })

describe('audit rows', () => {
  it('a sign-in: who, when (server clock), from which address, what, outcome', async () => {
    t.advance(3 * HOUR)
    const from = Date.now() + 3 * HOUR
    const rows = await appended(() => signIn('alice', passwords.alice, '10.1.2.3'))
    const to = Date.now() + 3 * HOUR
    expect(rows).toHaveLength(1)
    const [row] = rows
    expect(row).toMatchObject({ user_id: aliceId, username: 'alice', ip: '10.1.2.3', action: 'auth.login', outcome: 'ok' })
    expect(detail(row)).toEqual({ platform: 'web' })
    expect(Date.parse(row!.at)).toBeGreaterThanOrEqual(from)
    expect(Date.parse(row!.at)).toBeLessThanOrEqual(to)
  })

  it('a failed sign-in of a known user: denied, reason mismatch', async () => {
    const rows = await appended(() => signIn('alice', 'Wrong1234', '10.1.2.4'))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ user_id: aliceId, username: 'alice', ip: '10.1.2.4', action: 'auth.login', outcome: 'denied' })
    expect(detail(rows[0])).toEqual({ reason: 'mismatch' })
  })

  it('a failed sign-in of an unknown user: denied, reason mismatch, no user id', async () => {
    const rows = await appended(() => signIn('  nobody ', 'Wrong1234'))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ user_id: null, username: 'nobody', action: 'auth.login', outcome: 'denied' })
    expect(detail(rows[0])).toEqual({ reason: 'mismatch' })
  })

  it('a sign-in refused by the lock: denied, reason locked', async () => {
    await t.createUser('carol', 'Carol1234')
    for (let i = 0; i < 5; i++) await signIn('carol', 'Wrong1234')
    const rows = await appended(() => signIn('carol', 'Carol1234'))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ username: 'carol', action: 'auth.login', outcome: 'denied' })
    expect(detail(rows[0])).toEqual({ reason: 'locked' })
  })

  it('a sign-out, and a refused one for another user', async () => {
    const token = await t.signIn('bob', passwords.bob)
    const denied = await appended(() =>
      t.app.inject({ method: 'POST', url: '/api/auth/jwt/logout', query: { token, userId: String(aliceId) }, remoteAddress: '10.9.9.9' }),
    )
    expect(denied).toHaveLength(1)
    expect(denied[0]).toMatchObject({ user_id: bobId, username: 'bob', ip: '10.9.9.9', action: 'auth.logout', outcome: 'denied' })
    expect(detail(denied[0])).toEqual({ reason: 'otherUser', userId: aliceId })
    const ok = await appended(() => t.app.inject({ method: 'POST', url: '/api/auth/jwt/logout', query: { token, userId: String(bobId) } }))
    expect(ok).toHaveLength(1)
    expect(ok[0]).toMatchObject({ user_id: bobId, username: 'bob', ip: '127.0.0.1', action: 'auth.logout', outcome: 'ok' })
  })

  it.each([
    ['sameAsOld', 'bob', passwords.bob, passwords.bob],
    ['length', 'bob', passwords.bob, 'ab1'],
    ['charset', 'bob', passwords.bob, 'Bobby!234'],
    ['required', 'bob', passwords.bob, ''],
    ['oldRequired', 'bob', '', 'Bobby5678'],
    ['oldWrong', 'bob', 'Wrong1234', 'Bobby5678'],
    ['otherUser', 'alice', passwords.alice, 'Bobby5678'],
  ])('a refused password change: denied, reason %s', async (reason, target, oldPwd, password) => {
    const token = await t.signIn('bob', passwords.bob)
    const id = target === 'bob' ? bobId : aliceId
    const rows = await appended(() => changePwd(token, id, oldPwd, password))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ user_id: bobId, username: 'bob', action: 'account.changePassword', outcome: 'denied' })
    expect(detail(rows[0])).toEqual({ reason, targetId: id })
  })

  it('a password change', async () => {
    const token = await t.signIn('alice', passwords.alice)
    const rows = await appended(() => changePwd(token, aliceId, passwords.alice, passwords.aliceNew))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ user_id: aliceId, username: 'alice', ip: '127.0.0.1', action: 'account.changePassword', outcome: 'ok' })
  })

  it('the address is the connection’s, not a forwarded header', async () => {
    const rows = await appended(() => signIn('nobody', 'Wrong1234', '10.7.7.7'))
    expect(rows.map((r) => r.ip)).toEqual(['10.7.7.7'])
  })
})

describe('audit_log is append-only', () => {
  beforeAll(() => signIn('nobody', 'Wrong1234'))

  it(`refuses UPDATE`, async () => {
    const before = await allRows()
    await expect(t.db.kysely.updateTable('audit_log').set({ outcome: 'ok' }).execute()).rejects.toThrow(/append-only/)
    await expect(t.db.kysely.updateTable('audit_log').set({ detail: '{}' }).where('id', '=', before[0]!.id).execute()).rejects.toThrow(
      /append-only/,
    )
    expect(await allRows()).toEqual(before)
  })

  it(`refuses DELETE`, async () => {
    const before = await allRows()
    await expect(t.db.kysely.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/)
    await expect(t.db.kysely.deleteFrom('audit_log').where('id', '=', before[0]!.id).execute()).rejects.toThrow(/append-only/)
    expect(await allRows()).toEqual(before)
  })
})

describe('passwords are never stored', () => {
  it('no password typed appears in the audit log, and accounts hold only scrypt hashes', async () => {
    const frankId = await t.createUser('frank', 'Frank1234')
    const token = await t.signIn('frank', 'Frank1234')
    await signIn('frank', 'Typo12345')
    await changePwd(token, frankId, 'Frank1234', 'Other!999')
    await changePwd(token, frankId, 'Typo12345', 'Frank5678')
    await changePwd(token, bobId, passwords.bob, 'Frank5678')
    expect((await changePwd(token, frankId, 'Frank1234', 'Frank5678')).statusCode).toBe(200)
    const typed = ['Frank1234', 'Typo12345', 'Other!999', 'Frank5678']
    const details = (await allRows()).map((r) => r.detail).join('\n')
    const users = await t.db.kysely.selectFrom('account').selectAll().execute()
    expect(users.length).toBeGreaterThanOrEqual(3)
    for (const user of users) {
      expect(user.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]{16,}\$[\w-]{32,}$/)
      for (const p of [...typed, ...Object.values(passwords)]) expect(user.password_hash).not.toContain(p)
    }
    for (const p of [...typed, ...Object.values(passwords)]) expect(details).not.toContain(p)
  })

  it('two accounts with the same password get different hashes (salted)', async () => {
    const a = await t.createUser('dave', 'Same12345')
    const b = await t.createUser('erin', 'Same12345')
    const hashes = await t.db.kysely.selectFrom('account').select('password_hash').where('user_id', 'in', [a, b]).execute()
    expect(new Set(hashes.map((h) => h.password_hash)).size).toBe(2)
  })
})
