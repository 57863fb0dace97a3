import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccountPage, OneTimePassword, UserDetail, UserPage } from '../../contract/users.ts'
import { findBuiltinRole, insertGrants, insertRole } from '../../server/db/repositories/roles.ts'
import { listAudit } from '../../server/db/repositories/audit.ts'
import { saveThrottle, findThrottle } from '../../server/db/repositories/loginThrottle.ts'
import { findAccountByUsername } from '../../server/db/repositories/accounts.ts'
import { insertProject } from '../support/memberProjects.ts'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/**
 * People, accounts and the administrator's actions (issue 8 items 1 and 4, and its Bad input
 * list): every rule is the server's, on SQLite and PostgreSQL alike.
 */

let t: TestApp
let admin: string
let adminId: number
const roleIds: Record<string, number> = {}

type Headers = Record<string, string>
const as = (token: string, lang = 'zh'): Headers => ({ 'kr-d-token': token, 'accept-language': lang })
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown, lang = 'zh') =>
  t.app.inject({ method, url, headers: as(token, lang), ...(payload === undefined ? {} : { payload: payload as object }) })
const qs = (q: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString()

async function createUser(token: string, b: Record<string, unknown>): Promise<OneTimePassword> {
  const res = await call('POST', '/api/admin/users', token, b)
  expect(res.statusCode, res.body).toBe(200)
  return body(res).data as unknown as OneTimePassword
}

async function listPage(q: Record<string, string | number | boolean>, token = admin): Promise<UserPage> {
  const res = await call('GET', `/api/admin/users?${qs(q)}`, token)
  expect(res.statusCode, res.body).toBe(200)
  return body(res).data as unknown as UserPage
}

async function all(q: Record<string, string | number | boolean>): Promise<UserPage['rows']> {
  const rows: UserPage['rows'] = []
  let after: string | null = null
  for (;;) {
    const page: UserPage = await listPage({ ...q, ...(after ? { after } : {}) })
    rows.push(...page.rows)
    if (!page.next) return rows
    after = page.next
  }
}

async function accountOf(username: string) {
  return (await findAccountByUsername(t.db.kysely, username))!
}

/** The first sign-in with a one-time password, then the forced change to `password`. */
async function activate(otp: OneTimePassword, password: string): Promise<string> {
  const token = await t.signIn(otp.username, otp.password)
  const res = await call('POST', '/api/admin/user/changePwd', token, { id: otp.userId, oldPwd: otp.password, password })
  expect(res.statusCode, res.body).toBe(200)
  return token
}

/** A role granting exactly these permissions, made straight in the database. */
async function customRole(name: string, permissions: string[]): Promise<number> {
  const now = new Date().toISOString()
  const id = await insertRole(t.db.kysely, { name_zh: name, name_en: name, builtin: null, created_at: now, updated_at: now })
  await insertGrants(
    t.db.kysely,
    id,
    permissions.map((name) => ({ kind: 'permission', name })),
  )
  return id
}

const deniedRows = async (action: string) => (await listAudit(t.db.kysely, { action })).filter((r) => r.outcome === 'denied')

beforeAll(async () => {
  t = await testApp()
  adminId = await t.createUser('root', 'Root2024')
  admin = await t.signIn('root', 'Root2024')
  for (const key of ['sysAdmin', 'researcher', 'dataEntry', 'monitor'] as const)
    roleIds[key] = (await findBuiltinRole(t.db.kysely, key))!.id
})
afterAll(() => t.close())

describe('create with a one-time password', () => {
  it('answers a password once; it signs in, is forced to change, then works normally', async () => {
    const otp = await createUser(admin, { name: '张三', username: 'zhangsan', roleIds: [roleIds.researcher], mobile: '13800138000' })
    expect(otp.password).toMatch(/^[A-Za-z0-9]{16}$/)
    const account = await accountOf('zhangsan')
    expect(account.must_change_password).toBe(1)
    expect(account.platform).toBe('web')
    expect(account.password_hash).not.toContain(otp.password)
    // Neither the audit log nor any row holds the password in clear.
    const rows = await listAudit(t.db.kysely, { action: 'user.create' })
    expect(rows.at(-1)).toMatchObject({ outcome: 'ok', object_type: 'user', object_id: otp.userId })
    expect(JSON.stringify(rows)).not.toContain(otp.password)

    const token = await t.signIn('zhangsan', otp.password)
    const before = await call('GET', '/api/dictionary/diseases', token)
    expect(before.statusCode).toBe(403)
    expect(body(before).msg).toBe('请先修改管理员设置的初始密码')
    const info = await call('GET', '/api/admin/user/front/info', token)
    expect(body(info).data).toMatchObject({ mustChangePassword: true })

    const weak = await call('POST', '/api/admin/user/changePwd', token, { id: otp.userId, oldPwd: otp.password, password: otp.password })
    expect(weak.statusCode).toBe(400)
    const changed = await call('POST', '/api/admin/user/changePwd', token, { id: otp.userId, oldPwd: otp.password, password: 'Zhang2024' })
    expect(changed.statusCode, changed.body).toBe(200)
    expect((await call('GET', '/api/dictionary/diseases', token)).statusCode).toBe(200)
    expect((await accountOf('zhangsan')).must_change_password).toBe(0)
  })

  it('refuses a username that exists in another case, naming it, and changes nothing', async () => {
    await createUser(admin, { name: 'Alice', username: 'alice' })
    const before = await listPage({ q: 'Alice' })
    for (const [lang, msg] of [
      ['zh', 'ALICE已存在'],
      ['en', 'ALICE already exists'],
    ] as const) {
      const res = await call('POST', '/api/admin/users', admin, { name: 'Alice 2', username: 'ALICE' }, lang)
      expect(res.statusCode).toBe(409)
      expect(body(res).msg).toBe(msg)
    }
    expect((await listPage({ q: 'Alice' })).total).toBe(before.total)
  })

  it('refuses bad input with a message naming the field', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ name: '', username: 'u1' }, 'name'],
      [{ name: 'x'.repeat(65), username: 'u1' }, 'name'],
      [{ name: 'U', username: 'u 1' }, 'username'],
      [{ name: 'U', username: 'u1', mobile: '12345678901' }, 'mobile'],
      [{ name: 'U', username: 'u1', email: 'not-an-email' }, 'email'],
      [{ name: 'U', username: 'u1', description: 'x'.repeat(501) }, 'description'],
    ]
    for (const [payload, field] of bad) {
      const res = await call('POST', '/api/admin/users', admin, payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
      expect(body(res).msg).toContain(field)
    }
    const missing = await call('POST', '/api/admin/users', admin, { name: 'U', username: 'u1', careerId: 999999 }, 'en')
    expect(missing.statusCode).toBe(400)
    expect(body(missing).msg).toBe('No career 999999')
    expect(await findAccountByUsername(t.db.kysely, 'u1')).toBeUndefined()
  })
})

describe('the user list', () => {
  const names: string[] = []
  let deptA = 0
  let deptA1 = 0
  let careerId = 0

  beforeAll(async () => {
    const now = new Date().toISOString()
    const db = t.db.kysely
    deptA = (
      await db
        .insertInto('department')
        .values({ name: 'A', parent_id: null, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
    deptA1 = (
      await db
        .insertInto('department')
        .values({ name: 'A1', parent_id: deptA, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
    careerId = (
      await db.insertInto('career').values({ name: 'Nurse', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()
    ).id
    for (let i = 0; i < 23; i++) {
      const name = `列表${String(i).padStart(2, '0')}`
      names.push(name)
      await createUser(admin, {
        name,
        username: `List${i}`,
        mobile: `1390000${String(i).padStart(4, '0')}`,
        departmentId: i % 3 === 0 ? deptA : i % 3 === 1 ? deptA1 : null,
        careerId: i % 2 === 0 ? careerId : null,
        roleIds: i % 4 === 0 ? [roleIds.monitor] : [],
        status: i === 5 ? 0 : 1,
      })
    }
  })

  it('keyset-pages through more than two pages, every row once, in name order either way', async () => {
    const rows = await all({ q: '列表', limit: 7 })
    expect(rows.map((r) => r.name)).toEqual(names)
    const desc = await all({ q: '列表', limit: 7, order: 'desc' })
    expect(desc.map((r) => r.name)).toEqual([...names].reverse())
    expect((await listPage({ q: '列表', limit: 7 })).total).toBe(23)
  })

  it('sorts by department, career and creation with every row once', async () => {
    for (const sort of ['department', 'career', 'created']) {
      const rows = await all({ q: '列表', limit: 4, sort })
      expect(new Set(rows.map((r) => r.id)).size).toBe(23)
      if (sort === 'department') {
        const keys = rows.map((r) => r.departmentId ?? 0)
        expect(keys).toEqual([...keys].sort((a, b) => a - b))
      }
    }
  })

  it('filters by username prefix in any case, mobile prefix, department with sub-departments, career, status and role', async () => {
    expect((await all({ q: 'list1' })).map((r) => r.usernames[0])).toEqual(expect.arrayContaining(['List1', 'List10', 'List11', 'List19']))
    expect((await all({ q: 'list1' })).length).toBe(11)
    expect((await all({ q: '1390000000' })).length).toBe(10)
    expect((await all({ q: '列表', departmentId: deptA })).length).toBe(8)
    expect((await all({ q: '列表', departmentId: deptA, subDepartments: true })).length).toBe(16)
    expect((await all({ q: '列表', careerId })).length).toBe(12)
    expect((await all({ q: '列表', status: 0 })).map((r) => r.name)).toEqual(['列表05'])
    const monitors = await all({ q: '列表', roleId: roleIds.monitor! })
    expect(monitors.length).toBe(6)
    expect(monitors[0]!.roles.map((r) => r.builtin)).toEqual(['monitor'])
    const row = (await all({ q: '列表03' }))[0]!
    expect(row).toMatchObject({ department: 'A', career: null, mobile: '13900000003', usernames: ['List3'] })
  })

  it('refuses a forged cursor and a bad filter', async () => {
    expect((await call('GET', '/api/admin/users?after=garbage', admin)).statusCode).toBe(400)
    const cursor = Buffer.from(JSON.stringify(['x', 1])).toString('base64url')
    expect((await call('GET', `/api/admin/users?sort=department&after=${cursor}`, admin)).statusCode).toBe(400)
    expect((await call('GET', '/api/admin/users?status=2', admin)).statusCode).toBe(400)
    expect((await call('GET', '/api/admin/users?limit=1001', admin)).statusCode).toBe(400)
  })

  it('lists accounts with their person, paged by username', async () => {
    const res = await call('GET', `/api/admin/accounts?${qs({ q: 'LIST', limit: 10 })}`, admin)
    const page = body(res).data as unknown as AccountPage
    expect(page.total).toBe(23)
    expect(page.rows[0]).toMatchObject({
      username: 'List0',
      userName: '列表00',
      platform: 'web',
      mustChangePassword: true,
      lockedUntil: null,
    })
    const next = body(await call('GET', `/api/admin/accounts?${qs({ q: 'list', limit: 10, after: page.next! })}`, admin))
      .data as unknown as AccountPage
    expect(next.rows.map((r) => r.username)).not.toContain('List0')
  })

  it('edits a person; a missing one is 404', async () => {
    const id = (await all({ q: '列表07' }))[0]!.id
    const res = await call('PUT', `/api/admin/users/${id}`, admin, { name: '列表07改', email: 'a@b.cn', departmentId: deptA1 })
    expect(res.statusCode, res.body).toBe(200)
    expect(body(res).data).toMatchObject({ name: '列表07改', email: 'a@b.cn', department: 'A1' })
    expect((await call('GET', '/api/admin/users/999999', admin, undefined, 'en')).statusCode).toBe(404)
  })
})

describe('admin actions on accounts', () => {
  it('reset password: a new one-time password, the old sessions end with 50012, a change is forced', async () => {
    const otp = await createUser(admin, { name: 'Reset', username: 'reset1' })
    const token = await activate(otp, 'Reset2024')
    const res = await call('POST', `/api/admin/accounts/${otp.accountId}/reset-password`, admin)
    expect(res.statusCode, res.body).toBe(200)
    const fresh = body(res).data as unknown as OneTimePassword
    expect(fresh.password).not.toBe(otp.password)
    const old = await call('GET', '/api/admin/user/front/info', token)
    expect([old.statusCode, body(old).code]).toEqual([401, 50012])
    const again = await t.signIn('reset1', fresh.password)
    expect(body(await call('GET', '/api/admin/user/front/info', again)).data).toMatchObject({ mustChangePassword: true })
    expect(JSON.stringify(await listAudit(t.db.kysely, { action: 'account.resetPassword' }))).not.toContain(fresh.password)
  })

  it('lock refuses sign-in until unlocked; unlock also clears the failed sign-in count', async () => {
    const otp = await createUser(admin, { name: 'Lock', username: 'lock1' })
    const token = await activate(otp, 'Lock2024')
    const locked = await call('POST', `/api/admin/accounts/${otp.accountId}/lock`, admin, {})
    expect(locked.statusCode, locked.body).toBe(200)
    expect(body(locked).data).toMatchObject({ lockedUntil: '9999-12-31T23:59:59.999Z' })
    expect(body(await call('GET', '/api/admin/user/front/info', token)).code).toBe(50012)
    const signIn = () => t.app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username: 'lock1', password: 'Lock2024' } })
    expect(body(await signIn()).boolResult).toBe(false)
    await saveThrottle(t.db.kysely, {
      username: 'lock1',
      failures: 5,
      first_failure_at: new Date().toISOString(),
      locked_until: '9999-01-01T00:00:00.000Z',
    })
    expect((await call('POST', `/api/admin/accounts/${otp.accountId}/unlock`, admin)).statusCode).toBe(200)
    expect(await findThrottle(t.db.kysely, 'lock1')).toBeUndefined()
    expect(body(await signIn()).boolResult).toBe(true)
    const past = await call('POST', `/api/admin/accounts/${otp.accountId}/lock`, admin, { until: '2000-01-01T00:00:00Z' })
    expect(past.statusCode).toBe(400)
  })

  it("a disabled account's old token answers 50012; a disabled person's every account too", async () => {
    const otp = await createUser(admin, { name: 'Off', username: 'off1' })
    const token = await activate(otp, 'Off12024')
    expect((await call('POST', `/api/admin/accounts/${otp.accountId}/status`, admin, { status: 0 })).statusCode).toBe(200)
    expect(body(await call('GET', '/api/admin/user/front/info', token)).code).toBe(50012)
    expect((await call('POST', `/api/admin/accounts/${otp.accountId}/status`, admin, { status: 1 })).statusCode).toBe(200)

    const token2 = await t.signIn('off1', 'Off12024')
    expect((await call('POST', `/api/admin/users/${otp.userId}/status`, admin, { status: 0 })).statusCode).toBe(200)
    const res = await call('GET', '/api/admin/user/front/info', token2)
    expect([res.statusCode, body(res).code]).toEqual([401, 50012])
    expect(
      body(await t.app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username: 'off1', password: 'Off12024' } }))
        .boolResult,
    ).toBe(false)
    const rows = await listAudit(t.db.kysely, { action: 'user.disable' })
    expect(rows.at(-1)).toMatchObject({ outcome: 'ok', object_type: 'user', object_id: otp.userId })
  })
})

describe('rules that keep the administrators in charge', () => {
  it('nobody disables, locks or deletes the last active system administrator, themselves included', async () => {
    const self = await accountOf('root')
    for (const [method, url, payload, action] of [
      ['POST', `/api/admin/users/${adminId}/status`, { status: 0 }, 'user.disable'],
      ['POST', `/api/admin/accounts/${self.id}/status`, { status: 0 }, 'account.disable'],
      ['POST', `/api/admin/accounts/${self.id}/lock`, {}, 'account.lock'],
      ['DELETE', `/api/admin/users/${adminId}`, undefined, 'user.delete'],
    ] as const) {
      const res = await call(method, url, admin, payload, 'en')
      expect(res.statusCode, url).toBe(409)
      expect(body(res).msg).toBe('The last active system administrator cannot be disabled, locked, demoted or deleted')
      expect((await deniedRows(action)).at(-1)).toMatchObject({ object_type: 'user', object_id: adminId })
    }
    // Nothing changed: the administrator still works.
    expect((await call('GET', '/api/admin/users', admin)).statusCode).toBe(200)
    expect((await accountOf('root')).locked_until).toBeNull()
  })

  it('with a second administrator, one may disable the other, but not the last one left', async () => {
    const otp = await createUser(admin, { name: 'Second', username: 'second', roleIds: [roleIds.sysAdmin] })
    const second = await activate(otp, 'Second2024')
    expect((await call('POST', `/api/admin/users/${otp.userId}/status`, admin, { status: 0 })).statusCode).toBe(200)
    expect((await call('POST', `/api/admin/users/${otp.userId}/status`, admin, { status: 1 })).statusCode).toBe(200)
    const back = await t.signIn('second', 'Second2024')
    expect(second).not.toBe(back)
    // The second demotes the first; now the second is the last and cannot be removed by anyone.
    expect((await call('PUT', `/api/admin/users/${adminId}/roles`, back, { roleIds: [roleIds.researcher] })).statusCode).toBe(200)
    expect((await call('POST', `/api/admin/users/${otp.userId}/status`, back, { status: 0 })).statusCode).toBe(409)
    expect((await call('PUT', `/api/admin/users/${adminId}/roles`, back, { roleIds: [roleIds.sysAdmin] })).statusCode).toBe(200)
  })

  it('nobody changes their own roles', async () => {
    const res = await call('PUT', `/api/admin/users/${adminId}/roles`, admin, { roleIds: [roleIds.sysAdmin, roleIds.monitor] }, 'en')
    expect(res.statusCode).toBe(403)
    expect(body(res).msg).toBe('You cannot change your own roles')
    expect((await deniedRows('user.assignRoles')).at(-1)).toMatchObject({ object_type: 'user', object_id: adminId })
  })

  it('a manager who is not an administrator cannot give more than they hold, nor act on an administrator', async () => {
    const managerRole = await customRole('Manager', ['user.view', 'user.create', 'user.edit', 'user.manage', 'project.view'])
    const otp = await createUser(admin, { name: 'Manager', username: 'manager', roleIds: [managerRole] })
    const manager = await activate(otp, 'Manager2024')
    const target = await createUser(admin, { name: 'Target', username: 'target' })

    const up = await call('PUT', `/api/admin/users/${target.userId}/roles`, manager, { roleIds: [roleIds.sysAdmin] }, 'en')
    expect(up.statusCode).toBe(403)
    expect(body(up).msg).toBe('You cannot assign the role "System administrator": it grants rights you do not hold')
    const sideways = await call('PUT', `/api/admin/users/${target.userId}/roles`, manager, { roleIds: [roleIds.dataEntry] }, 'zh')
    expect(sideways.statusCode).toBe(403)
    expect(body(sideways).msg).toBe('不能分配角色“数据录入员”：它授予了您自己没有的权限')
    const viaCreate = await call('POST', '/api/admin/users', manager, { name: 'Sneaky', username: 'sneaky', roleIds: [roleIds.sysAdmin] })
    expect(viaCreate.statusCode).toBe(403)
    expect(await findAccountByUsername(t.db.kysely, 'sneaky')).toBeUndefined()
    expect((await deniedRows('user.assignRoles')).at(-1)).toMatchObject({ object_type: 'user', object_id: target.userId })

    const within = await customRole('Viewer', ['project.view'])
    expect((await call('PUT', `/api/admin/users/${target.userId}/roles`, manager, { roleIds: [within] })).statusCode).toBe(200)

    const rootAccount = await accountOf('root')
    for (const [url, payload] of [
      [`/api/admin/accounts/${rootAccount.id}/reset-password`, undefined],
      [`/api/admin/accounts/${rootAccount.id}/lock`, {}],
      [`/api/admin/accounts/${rootAccount.id}/status`, { status: 0 }],
      [`/api/admin/users/${adminId}/status`, { status: 0 }],
    ] as const) {
      const res = await call('POST', url, manager, payload, 'en')
      expect(res.statusCode, url).toBe(403)
      expect(body(res).msg).toBe('Only a system administrator can do this to a system administrator')
    }
    expect((await accountOf('root')).status).toBe(1)
  })

  it('changePwd with a forged user id is refused and audited', async () => {
    const otp = await createUser(admin, { name: 'Forger', username: 'forger' })
    const token = await activate(otp, 'Forge2024')
    const res = await call('POST', '/api/admin/user/changePwd', token, { id: adminId, oldPwd: 'Forge2024', password: 'Other2024' })
    expect(res.statusCode).toBe(403)
    expect(body(res).boolResult).toBe(false)
    expect(await t.signIn('root', 'Root2024')).toBeTruthy()
  })

  it('a data-entry user gets 403 from every users route', async () => {
    const otp = await createUser(admin, { name: 'Entry', username: 'entry', roleIds: [roleIds.dataEntry] })
    const token = await activate(otp, 'Entry2024')
    const account = await accountOf('root')
    const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown][] = [
      ['GET', '/api/admin/users', undefined],
      ['GET', `/api/admin/users/${adminId}`, undefined],
      ['POST', '/api/admin/users', { name: 'X', username: 'x1' }],
      ['PUT', `/api/admin/users/${adminId}`, { name: 'X' }],
      ['DELETE', `/api/admin/users/${adminId}`, undefined],
      ['POST', `/api/admin/users/${adminId}/status`, { status: 0 }],
      ['PUT', `/api/admin/users/${adminId}/roles`, { roleIds: [] }],
      ['GET', '/api/admin/accounts', undefined],
      ['POST', `/api/admin/accounts/${account.id}/reset-password`, undefined],
      ['POST', `/api/admin/accounts/${account.id}/lock`, {}],
      ['POST', `/api/admin/accounts/${account.id}/unlock`, undefined],
      ['POST', `/api/admin/accounts/${account.id}/status`, { status: 0 }],
      ['POST', '/api/admin/picture/delete', { type: 3, objectId: adminId }],
    ]
    for (const [method, url, payload] of routes) {
      const res = await call(method, url, token, payload, 'en')
      expect(res.statusCode, `${method} ${url}`).toBe(403)
      expect(body(res).msg).toBe('You are not allowed to do this')
    }
  })

  it('delete removes the person and accounts; the audit log keeps its rows', async () => {
    const otp = await createUser(admin, { name: 'Gone', username: 'gone' })
    await activate(otp, 'Gone2024')
    const res = await call('DELETE', `/api/admin/users/${otp.userId}`, admin)
    expect(res.statusCode, res.body).toBe(200)
    expect(await findAccountByUsername(t.db.kysely, 'gone')).toBeUndefined()
    expect((await call('GET', `/api/admin/users/${otp.userId}`, admin)).statusCode).toBe(404)
    const rows = await listAudit(t.db.kysely, { username: 'gone' })
    expect(rows.length).toBeGreaterThan(0)
    expect((await listAudit(t.db.kysely, { action: 'user.delete' })).at(-1)).toMatchObject({ object_id: otp.userId, outcome: 'ok' })
  })
})

describe('a person who has taken part in studies', () => {
  it('is not deleted but may be disabled: a project creator, and one whose data changes remain after leaving', async () => {
    const creator = await createUser(admin, { name: 'Creator', username: 'creator1' })
    const project = await insertProject(t, { creatorId: creator.userId })
    const entered = await createUser(admin, { name: 'Entered', username: 'entered1' })
    // Nothing else ties this one to a study: only a change in the data audit trail (they left the project since).
    await t.db.kysely
      .insertInto('data_audit')
      .values({
        at: new Date().toISOString(),
        user_id: entered.userId,
        username: 'entered1',
        ip: '',
        project_id: project.id,
        subject_id: 1,
        field: '1',
        action: 'update',
        reason: 'typo',
      })
      .execute()
    for (const [who, name] of [
      [creator, 'Creator'],
      [entered, 'Entered'],
    ] as const) {
      for (const lang of ['zh', 'en'] as const) {
        const res = await call('DELETE', `/api/admin/users/${who.userId}`, admin, undefined, lang)
        expect(res.statusCode, res.body).toBe(409)
        expect(body(res).msg).toBe(
          lang === 'zh'
            ? `${name}已参与研究（项目成员、创建者或申请人，或录入过研究数据），不能删除；请改为停用`
            : `${name} has taken part in studies (a project member, creator or applicant, or has entered study data) and cannot be deleted: disable them instead`,
        )
      }
      expect((await call('GET', `/api/admin/users/${who.userId}`, admin)).statusCode).toBe(200)
      const off = await call('POST', `/api/admin/users/${who.userId}/status`, admin, { status: 0 })
      expect(off.statusCode, off.body).toBe(200)
    }
  })
})

describe('edit and the role picker', () => {
  it('an editor without user.manage cannot change a status through the edit', async () => {
    const editorRole = await customRole('Editor', ['user.view', 'user.edit'])
    const otp = await createUser(admin, { name: 'Editor', username: 'editor', roleIds: [editorRole] })
    const editor = await activate(otp, 'Editor2024')
    const target = await createUser(admin, { name: 'Edited', username: 'edited' })
    const off = await call('PUT', `/api/admin/users/${target.userId}`, editor, { name: 'Edited', status: 0 }, 'en')
    expect(off.statusCode).toBe(403)
    expect((await deniedRows('user.update')).at(-1)).toMatchObject({ object_type: 'user', object_id: target.userId })
    const renamed = await call('PUT', `/api/admin/users/${target.userId}`, editor, { name: 'Renamed' })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect(body(renamed).data).toMatchObject({ name: 'Renamed', status: 1 })
    // The role list (the role picker) needs role.view or user.manage.
    expect((await call('GET', '/api/admin/roles', editor)).statusCode).toBe(403)
  })
})

describe('the detail', () => {
  it('answers roles in the caller language and the usernames', async () => {
    const res = await call('GET', `/api/admin/users/${adminId}`, admin, undefined, 'en')
    const d = body(res).data as unknown as UserDetail
    expect(d.usernames).toEqual(['root'])
    expect(d.roles.map((r) => r.name)).toContain('System administrator')
  })
})
