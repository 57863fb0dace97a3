/**
 * Migration 20261128_0012 (people and accounts, roles, catalog) on a database holding accounts,
 * sessions and audit rows of the old shape: nobody loses their sign-in, their open session, their
 * history or, since every user was effectively an administrator before (SPEC §6), their rights.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { migrateTo } from '../../server/db/migrate.ts'
import { seedAccessData } from '../../server/services/accessSeed.ts'
import { hashPassword } from '../../server/services/passwordHash.ts'
import { freshDb } from '../support/testDb.ts'

let db: Awaited<ReturnType<typeof freshDb>>
beforeAll(async () => {
  db = await freshDb('20261127_0011_version_snapshot')
})
afterAll(() => db.drop())

const now = '2026-11-01T00:00:00.000Z'
const later = '2099-01-01T00:00:00.000Z'

describe('accounts of the old shape', () => {
  it('become a person with an account, keep their ids, sessions, passwords and audit rows, and administer the system', async () => {
    const k = db.kysely
    const hash = await hashPassword('Alice123')
    await sql`INSERT INTO app_user (username, name, password_hash, image, description, status, created_at, updated_at)
      VALUES ('alice', 'Alice 王', ${hash}, '/a.png', 'PI', 1, ${now}, ${now}), ('bob', 'Bob', ${hash}, '', '', 0, ${now}, ${now})`.execute(
      k,
    )
    await sql`INSERT INTO session (token_hash, user_id, created_at, expires_at, ip) VALUES ('h1', 1, ${now}, ${later}, '10.0.0.1')`.execute(
      k,
    )
    await sql`INSERT INTO audit_log (at, user_id, username, ip, action, outcome, detail) VALUES (${now}, 1, 'alice', '10.0.0.1', 'auth.login', 'ok', '{}')`.execute(
      k,
    )

    await migrateTo(db)

    const people = await k.selectFrom('app_user').selectAll().orderBy('id').execute()
    expect(people.map((p) => [p.id, p.name, p.image, p.description, p.status])).toEqual([
      [1, 'Alice 王', '/a.png', 'PI', 1],
      [2, 'Bob', '', '', 1],
    ])
    const accounts = await k.selectFrom('account').selectAll().orderBy('id').execute()
    expect(accounts.map((a) => [a.id, a.user_id, a.username, a.status, a.must_change_password, a.platform])).toEqual([
      [1, 1, 'alice', 1, 0, 'web'],
      // A disabled account stays disabled: the flag moved with the account.
      [2, 2, 'bob', 0, 0, 'web'],
    ])
    expect(accounts[0]?.password_hash).toBe(hash)
    expect(await k.selectFrom('session').select(['account_id', 'token_hash']).execute()).toEqual([{ account_id: 1, token_hash: 'h1' }])
    expect(await k.selectFrom('audit_log').select(['user_id', 'username']).execute()).toEqual([{ user_id: 1, username: 'alice' }])
    const roles = await k
      .selectFrom('user_role')
      .innerJoin('role', 'role.id', 'user_role.role_id')
      .select(['user_role.user_id', 'role.builtin'])
      .orderBy('user_role.user_id')
      .execute()
    expect(roles).toEqual([
      { user_id: 1, builtin: 'sysAdmin' },
      { user_id: 2, builtin: 'sysAdmin' },
    ])

    // New people and accounts take ids after the carried ones (PostgreSQL's sequence moved on).
    const person = await k
      .insertInto('app_user')
      .values({ name: 'Carol', department_id: null, career_id: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect(person.id).toBe(3)
    // Usernames are unique whatever their case.
    await expect(
      k
        .insertInto('account')
        .values({
          user_id: person.id,
          username: 'ALICE',
          password_hash: hash,
          locked_until: null,
          last_login_at: null,
          last_login_ip: null,
          created_at: now,
          updated_at: now,
        })
        .execute(),
    ).rejects.toThrow()

    // The migrated administrator signs in with the old password and holds every screen.
    await seedAccessData(k, new Date())
    const app = await buildApp({ db, staticRoot: null })
    try {
      const signIn = await app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username: 'alice', password: 'Alice123' } })
      const token = (signIn.json() as { data: { token: string } }).data.token
      const list = await app.inject({ method: 'GET', url: '/api/admin/user/front/permissions', headers: { 'kr-d-token': token } })
      const data = (list.json() as { data: { screens: string[]; permissions: string[] } }).data
      expect(data.screens).toContain('user')
      expect(data.permissions).toContain('user.manage')
    } finally {
      await app.close()
    }
  })

  it('migrates down to the old shape and up again', async () => {
    await migrateTo(db, '20261127_0011_version_snapshot')
    const rows = await sql<{ username: string; name: string }>`SELECT username, name FROM app_user ORDER BY id`.execute(db.kysely)
    expect(rows.rows.slice(0, 2)).toEqual([
      { username: 'alice', name: 'Alice 王' },
      { username: 'bob', name: 'Bob' },
    ])
    await migrateTo(db)
    expect((await db.kysely.selectFrom('account').select('username').orderBy('id').execute()).map((a) => a.username)).toEqual([
      'alice',
      'bob',
    ])
  })
})
