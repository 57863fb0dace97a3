import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql, type Kysely } from 'kysely'
import type { FastifyInstance } from 'fastify'
import type { SubjectPage } from '../../contract/subjectList.ts'
import type { RoleDetail } from '../../contract/roles.ts'
import { buildApp } from '../../server/app.ts'
import { connect } from '../../server/db/connect.ts'
import type { Database } from '../../server/db/database.ts'
import { readAccessGeneration } from '../../server/db/repositories/accessGeneration.ts'
import { accessTables } from '../../server/db/migrations/20261204_0025_access_generation.ts'
import { listCacheTables } from '../../server/db/migrations/20261205_0026_list_cache_generation.ts'
import { toJson } from '../../server/db/json.ts'
import { actorForToken } from '../../server/services/actorCache.ts'
import { addProjectMember } from '../support/projectMembers.ts'
import { insertCenter, insertProject, insertSubject, type RowProject } from '../support/memberProjects.ts'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/**
 * The actor cached per session token (server/services/actorCache.ts): every change of what a
 * caller may see takes effect on the very next request, whether made through the API, written
 * straight into the database, or made through another server on the same database; and the
 * clock's checks still run on a cached session. So does every change of what the subject list
 * keeps with the actor: the caller's list columns and the names of centers, queues and groups.
 */

let t: TestApp
let p: RowProject
let c1: number
let c2: number
let s1: number
let s2: number
const pw = 'Secret2024'
let boss: string

beforeAll(async () => {
  t = await testApp()
  const bossId = await t.createUser('boss', pw)
  c1 = await insertCenter(t, 'K1')
  c2 = await insertCenter(t, 'K2')
  p = await insertProject(t, { creatorId: bossId, status: 'active', queues: ['A', 'B'], centerIds: [c1, c2] })
  const subject = (centerId: number, subjectNo: string) =>
    insertSubject(t, { projectId: p.id, queueId: p.queueIds[0]!, centerId, subjectNo })
  s1 = await subject(c1, 'K-1')
  s2 = await subject(c2, 'K-2')
  boss = await t.signIn('boss', pw)
}, 60_000)
afterAll(() => t?.close())

const as = (token: string) => ({ 'kr-d-token': token })
const list = (token: string, app: FastifyInstance = t.app) =>
  app.inject({ method: 'GET', url: `/api/scientific/studyObject/pageList?studyId=${p.id}&limit=50`, headers: as(token) })
const ids = (res: Awaited<ReturnType<typeof list>>) => {
  expect(res.statusCode, res.body).toBe(200)
  return (body(res).data as unknown as SubjectPage).rows.map((r) => r.id).sort((a, b) => a - b)
}
const send = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = boss) => {
  const res = await t.app.inject({ method, url: `/api${url}`, ...(payload ? { payload } : {}), headers: as(token) })
  expect(res.statusCode, res.body).toBe(200)
  return body(res)
}
/** The answer of a request the cache must not let through: its status and envelope code. */
const refusal = (res: Awaited<ReturnType<typeof list>>) => [res.statusCode, body(res).code]

let serial = 0
/** A data-entry user who is a member of the project with every center, signed in. */
async function member(): Promise<{ id: number; token: string; roleId: number; memberId: number; name: string }> {
  const name = `m${++serial}`
  const id = await t.createUser(name, pw, { roles: ['dataEntry'] })
  const roleId = await addProjectMember(t, p.id, id, { authorities: ['enterData'] })
  const { id: memberId } = await t.db.kysely.selectFrom('project_member').select('id').where('user_id', '=', id).executeTakeFirstOrThrow()
  return { id, token: await t.signIn(name, pw), roleId, memberId, name }
}

/** Narrows a member's project role to one center, through the API. */
const narrowTo = (m: { id: number; roleId: number }, centerId: number) =>
  send('PUT', `/projects/${p.id}/roles/${m.roleId}`, {
    name: `role of user ${m.id}`,
    remarks: '',
    authorities: ['enterData'],
    blinded: false,
    allQueues: true,
    queueIds: [],
    allCenters: false,
    centerIds: [centerId],
  })

describe('a change of access is seen by the next request', () => {
  it('hands out the cached actor while nothing changed, a fresh one after any access write', async () => {
    const m = await member()
    const first = await actorForToken(t.app.ctx, m.token)
    expect(await actorForToken(t.app.ctx, m.token)).toBe(first)
    await t.db.kysely.updateTable('app_user').set({ description: 'changed' }).where('id', '=', m.id).execute()
    const second = await actorForToken(t.app.ctx, m.token)
    expect(second).not.toBe(first)
    expect(second.user.description).toBe('changed')
  })

  it("narrowing a member's centers hides the other center's subject on the next page", async () => {
    const m = await member()
    expect(ids(await list(m.token))).toEqual([s1, s2])
    expect(ids(await list(m.token))).toEqual([s1, s2])
    await narrowTo(m, c1)
    expect(ids(await list(m.token))).toEqual([s1])
  })

  it('a removed membership is refused on the next request', async () => {
    const m = await member()
    expect(ids(await list(m.token))).toEqual([s1, s2])
    await send('DELETE', `/projects/${p.id}/members/${m.memberId}`)
    expect(refusal(await list(m.token))).toEqual([403, 403])
  })

  it("a system role's grants and a person's role assignment take effect on the next request", async () => {
    const m = await member()
    const role = (await send('POST', '/admin/roles', { nameZh: `查看者${m.id}`, permissions: ['project.view', 'subject.view'] }))
      .data as unknown as RoleDetail
    await send('PUT', `/admin/users/${m.id}/roles`, { roleIds: [role.id] })
    expect(ids(await list(m.token))).toEqual([s1, s2])
    await send('PUT', `/admin/roles/${role.id}`, { nameZh: `查看者${m.id}`, permissions: ['project.view'] })
    expect(refusal(await list(m.token))).toEqual([403, 403])
    await send('PUT', `/admin/roles/${role.id}`, { nameZh: `查看者${m.id}`, permissions: ['project.view', 'subject.view'] })
    expect(ids(await list(m.token))).toEqual([s1, s2])
    await send('PUT', `/admin/users/${m.id}/roles`, { roleIds: [] })
    expect(refusal(await list(m.token))).toEqual([403, 403])
  })

  it('a disabled person and a locked account are signed out on the next request', async () => {
    const m = await member()
    expect(ids(await list(m.token))).toEqual([s1, s2])
    await send('POST', `/admin/users/${m.id}/status`, { status: 0 })
    expect(refusal(await list(m.token))).toEqual([401, 50012])

    const n = await member()
    expect(ids(await list(n.token))).toEqual([s1, s2])
    const { id: accountId } = await t.db.kysely.selectFrom('account').select('id').where('user_id', '=', n.id).executeTakeFirstOrThrow()
    await send('POST', `/admin/accounts/${accountId}/lock`, {})
    expect(refusal(await list(n.token))).toEqual([401, 50012])
  })

  it('sign-out ends the token on the next request', async () => {
    const m = await member()
    expect(ids(await list(m.token))).toEqual([s1, s2])
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/jwt/logout', query: { token: m.token } })
    expect(out.statusCode, out.body).toBe(200)
    expect(refusal(await list(m.token))).toEqual([401, 50012])
  })

  it("a password change ends the account's other sessions on their next request and keeps this one", async () => {
    const m = await member()
    const other = await t.signIn(m.name, pw)
    expect(ids(await list(other))).toEqual([s1, s2])
    expect(ids(await list(m.token))).toEqual([s1, s2])
    await send('POST', '/admin/user/changePwd', { id: m.id, oldPwd: pw, password: 'Changed2025' }, m.token)
    expect(refusal(await list(other))).toEqual([401, 50012])
    expect(ids(await list(m.token))).toEqual([s1, s2])
    // The cached account must carry the new password: the old one no longer verifies.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/user/changePwd',
      payload: { id: m.id, oldPwd: pw, password: 'Changed2026' },
      headers: as(m.token),
    })
    expect(again.statusCode).toBe(400)
  })

  it('a change written straight into the database, by no service, is seen too', async () => {
    const m = await member()
    expect(ids(await list(m.token))).toEqual([s1, s2])
    await t.db.kysely.updateTable('project_role').set({ all_centers: 0 }).where('id', '=', m.roleId).execute()
    await t.db.kysely.insertInto('project_role_center').values({ role_id: m.roleId, center_id: c2 }).execute()
    expect(ids(await list(m.token))).toEqual([s2])
    await t.db.kysely.updateTable('account').set({ status: 0 }).where('user_id', '=', m.id).execute()
    expect(refusal(await list(m.token))).toEqual([401, 50012])
  })

  it('a change made through another server on the same database is seen by this one', async () => {
    // PostgreSQL: a second pool, as another process has; SQLite in memory has one connection,
    // so the second server gets its own Kysely object over it (the cache is per Kysely object).
    let second: Kysely<Database>
    let close = async () => {}
    if (t.db.dialect === 'postgres') {
      const { name } = (await sql<{ name: string }>`SELECT current_database() AS name`.execute(t.db.kysely)).rows[0]!
      const url = new URL(process.env.TEST_DATABASE_URL!)
      url.pathname = `/${name}`
      const db = connect(url.toString())
      second = db.kysely
      close = () => db.close()
    } else second = t.db.kysely.withoutPlugins()
    expect(second).not.toBe(t.db.kysely)
    const other = await buildApp({ db: { kysely: second, dialect: t.db.dialect, close }, now: () => new Date() })
    try {
      await other.ready()
      const m = await member()
      expect(ids(await list(m.token, other))).toEqual([s1, s2])
      expect(ids(await list(m.token))).toEqual([s1, s2])
      await narrowTo(m, c2)
      expect(ids(await list(m.token, other))).toEqual([s2])
      await send('DELETE', `/projects/${p.id}/members/${m.memberId}`)
      expect(refusal(await list(m.token, other))).toEqual([403, 403])
    } finally {
      await other.close()
      await close()
    }
  })

  it('every table an actor or its list is made of bumps the generation; other writes do not', async () => {
    const m = await member()
    const k = t.db.kysely
    await k.insertInto('project_role_queue').values({ role_id: m.roleId, queue_id: p.queueIds[0]! }).execute()
    await k.insertInto('subject_list_field').values({ project_id: p.id, user_id: m.id, indicator_id: 1, sort: 0 }).execute()
    await k.insertInto('project_group').values({ project_id: p.id, code: 'G', name: 'G', ratio: 1, sort: 0 }).execute()
    // A write that changes nothing still counts: the column is set to itself on every row.
    const column: Record<(typeof accessTables)[number] | (typeof listCacheTables)[number], string> = {
      session: 'id',
      account: 'id',
      app_user: 'id',
      role: 'id',
      role_grant: 'role_id',
      user_role: 'user_id',
      project_member: 'id',
      project_role: 'id',
      project_role_queue: 'role_id',
      project_role_center: 'role_id',
      subject_list_field: 'sort',
      center: 'id',
      project_queue: 'id',
      project_group: 'id',
    }
    for (const table of [...accessTables, ...listCacheTables]) {
      const before = await readAccessGeneration(k)
      await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column[table])} = ${sql.ref(column[table])}`.execute(k)
      expect(await readAccessGeneration(k), table).toBeGreaterThan(before)
    }
    const before = await readAccessGeneration(k)
    await k.updateTable('subject').set({ updated_at: new Date().toISOString() }).where('id', '=', s1).execute()
    expect(ids(await list(m.token))).toEqual([s1, s2])
    expect(await readAccessGeneration(k)).toBe(before)
  })

  it("a member's list columns, chosen or dropped straight in the database, are on the next page", async () => {
    const m = await member()
    const k = t.db.kysely
    const values = async () => {
      const res = await list(m.token)
      expect(res.statusCode, res.body).toBe(200)
      return (body(res).data as unknown as SubjectPage).rows.map((r) => [r.id, r.values])
    }
    await k
      .updateTable('subject')
      .set({ summary: toJson({ f901: 'one', f902: 'two' }) })
      .where('id', '=', s1)
      .execute()
    expect(await values()).toEqual([
      [s1, {}],
      [s2, {}],
    ])
    await k.insertInto('subject_list_field').values({ project_id: p.id, user_id: m.id, indicator_id: 901, sort: 0 }).execute()
    expect(await values()).toEqual([
      [s1, { f901: 'one' }],
      [s2, {}],
    ])
    await k.updateTable('subject_list_field').set({ indicator_id: 902 }).where('user_id', '=', m.id).execute()
    expect(await values()).toEqual([
      [s1, { f902: 'two' }],
      [s2, {}],
    ])
    await k.deleteFrom('subject_list_field').where('user_id', '=', m.id).execute()
    expect(await values()).toEqual([
      [s1, {}],
      [s2, {}],
    ])
  })

  it('a renamed center, queue and group show on the next page, through the API or straight in the database', async () => {
    const m = await member()
    const k = t.db.kysely
    const { id: groupId } = await k
      .insertInto('project_group')
      .values({ project_id: p.id, code: 'T', name: '试验组', ratio: 1, sort: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await k.updateTable('subject').set({ group_id: groupId }).where('id', '=', s1).execute()
    const names = async () => {
      const res = await list(m.token)
      expect(res.statusCode, res.body).toBe(200)
      const [row] = (body(res).data as unknown as SubjectPage).rows
      return [row!.centerName, row!.queueName, row!.group]
    }
    const [centerName, queueName] = await names()
    expect(await names()).toEqual([centerName, queueName, '试验组'])
    await send('PUT', `/centers/${c1}`, { code: 'K1', nameZh: '改名中心', nameEn: 'Renamed center', region: '' })
    expect(await names()).toEqual(['改名中心', queueName, '试验组'])
    await k.updateTable('project_queue').set({ name: '改名队列' }).where('id', '=', p.queueIds[0]!).execute()
    expect(await names()).toEqual(['改名中心', '改名队列', '试验组'])
    await k.updateTable('project_group').set({ name: '对照组' }).where('id', '=', groupId).execute()
    expect(await names()).toEqual(['改名中心', '改名队列', '对照组'])
  })

  it('a cached session still expires on time (kept last: it moves the clock)', async () => {
    const m = await member()
    expect(ids(await list(m.token))).toEqual([s1, s2])
    t.advance(12 * 60 * 60 * 1000)
    expect(refusal(await list(m.token))).toEqual([401, 50014])
  })
})
