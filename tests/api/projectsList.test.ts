import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { projectSortKeys, type OpenProject, type ProjectPage, type ProjectRow } from '../../contract/projects.ts'
import { projectPageQuery, projectSortColumns } from '../../server/db/repositories/projects.ts'
import type { ListScope } from '../../server/db/scope.ts'
import type { Project } from '../../server/db/tables/project.ts'
import { seedReferenceData } from '../../server/services/seed.ts'
import { explain, type Plan } from '../support/explain.ts'
import { freshDb } from '../support/testDb.ts'
import { testApp, type TestApp } from '../support/testApp.ts'
import { apiCalls } from '../support/apiCalls.ts'

/**
 * The project list (issue 9 Deliver 1): keyset pages in every sort and order, the filters, the
 * name / number prefix search, and who sees what — members their projects, auditors also the
 * submitted ones, system administrators all; then the plans of the list's SQL.
 */

let t: TestApp
const tokens: Record<string, string> = {}
let as = 'boss'
const ids: Record<string, number> = {}

const types = ['prospective', 'retrospective', 'database'] as const
const stages = [null, 'I', 'II', 'III', 'IV', 'BE'] as const
const statuses = ['draft', 'auditing', 'active', 'closed'] as const
const methods = ['none', 'simple', 'stratified'] as const

/** Member projects by user: every 4th project is res's, every 3rd ra's. */
const memberOf = (user: 'res' | 'ra', i: number) => (user === 'res' ? i % 4 === 1 : i % 3 === 0)

beforeAll(async () => {
  t = await testApp()
  ids.boss = await t.createUser('boss', 'Research1')
  ids.ra = await t.createUser('ra', 'Research1', { roles: ['researchAdmin'] })
  ids.auditor = await t.createUser('auditor', 'Research1', { roles: ['researchAdmin'] })
  ids.res = await t.createUser('res', 'Research1', { roles: ['researcher'] })
  ids.nobody = await t.createUser('nobody', 'Research1', { roles: ['researcher'] })
  for (const u of ['boss', 'ra', 'auditor', 'res', 'nobody']) tokens[u] = await t.signIn(u, 'Research1')
  const diseases = (await t.db.kysely.selectFrom('disease').select('id').orderBy('id').execute()).map((r) => r.id)
  for (let i = 0; i < 40; i++) {
    const scope = i % 5 === 4 ? 'single' : 'multi'
    const at = new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % 40) * 3_600_000).toISOString()
    const { id } = await t.db.kysely
      .insertInto('project')
      .values({
        scope,
        type: types[i % 3]!,
        // Repeated names and counts: ties are broken by id.
        name: i % 2 === 0 ? `肺癌研究${i % 7}` : `Diabetes cohort ${i % 6}`,
        number: `${i % 2 === 0 ? 'LC' : 'dm'}-${String(i).padStart(3, '0')}`,
        test_stage: stages[i % stages.length]!,
        group_type: 'group',
        disease_id: i % 4 === 3 ? null : diseases[i % 3]!,
        blinded: 'open',
        random_method: methods[i % 3]!,
        planned_quantity: 100,
        planned_groups: 2,
        status: statuses[i % 4]!,
        subject_count: (i * 13) % 5,
        creator_id: ids.ra,
        created_at: at,
        updated_at: new Date(Date.UTC(2026, 1, 1) + ((i * 31) % 17) * 60_000).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const role = await t.db.kysely
      .insertInto('project_role')
      .values({ project_id: id, name: '项目管理员', builtin: 'manager', all_queues: 1, all_centers: 1, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow()
    const other = await t.db.kysely
      .insertInto('project_role')
      .values({ project_id: id, name: '录入员', builtin: null, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (memberOf('ra', i))
      await t.db.kysely.insertInto('project_member').values({ project_id: id, user_id: ids.ra, role_id: role.id, created_at: at }).execute()
    if (memberOf('res', i))
      await t.db.kysely
        .insertInto('project_member')
        .values({ project_id: id, user_id: ids.res, role_id: other.id, created_at: at })
        .execute()
  }
})
afterAll(() => t.close())

const { call, json, data } = apiCalls(
  () => t,
  () => tokens[as]!,
  '/api',
)

const all = () => t.db.kysely.selectFrom('project').selectAll().execute()

/** Every page of one query as `user`, following `next`; the totals of every page agree. */
async function pages(user: string, query: Record<string, string | number>): Promise<{ rows: ProjectRow[]; total: number; count: number }> {
  as = user
  const rows: ProjectRow[] = []
  let after: string | null = null
  let total = -1
  let count = 0
  for (;;) {
    const qs = new URLSearchParams(Object.entries({ ...query, ...(after ? { after } : {}) }).map(([k, v]) => [k, String(v)]))
    const page: ProjectPage = data<ProjectPage>(await call('GET', `/projects?${qs}`))
    count++
    if (total >= 0) expect(page.total).toBe(total)
    total = page.total
    rows.push(...page.rows)
    if (!page.next) break
    after = page.next
  }
  return { rows, total, count }
}

describe('keyset pages', () => {
  for (const sort of projectSortKeys) {
    for (const order of ['asc', 'desc'] as const) {
      it(`sort ${sort} ${order}: every row once over several pages, in the order of a plain ORDER BY`, async () => {
        const col = projectSortColumns[sort]
        const expected = await t.db.kysely
          .selectFrom('project')
          .select('id')
          .where('scope', '=', 'multi')
          .orderBy(col, order)
          .orderBy('id', order)
          .execute()
        const got = await pages('boss', { scope: 'multi', sort, order, limit: 4 })
        expect(got.count).toBeGreaterThan(5)
        expect(got.rows.map((r) => r.id)).toEqual(expected.map((r) => r.id))
        expect(got.total).toBe(expected.length)
      })
    }
  }

  it('the default is updated, newest first; single-center projects list apart', async () => {
    const rows = await all()
    const single = rows.filter((r) => r.scope === 'single')
    const got = await pages('boss', { scope: 'single', limit: 3 })
    const sorted = [...single].sort((a, b) => (a.updated_at === b.updated_at ? b.id - a.id : a.updated_at < b.updated_at ? 1 : -1))
    expect(got.rows.map((r) => r.id)).toEqual(sorted.map((r) => r.id))
  })

  it('a row shows subjects against planned, its disease, creator and the caller’s role', async () => {
    const first = (await pages('res', { scope: 'multi', sort: 'number', order: 'asc' })).rows[0]!
    expect(first).toMatchObject({ plannedQuantity: 100, creatorName: 'ra', myRole: '录入员' })
    expect(typeof first.subjectCount).toBe('number')
    const withDisease = (await pages('boss', { scope: 'multi', sort: 'number', order: 'asc' })).rows.find((r) => r.diseaseId !== null)!
    expect(withDisease.diseaseName).toBeTruthy()
    expect(withDisease.myRole).toBeNull()
  })

  it('a cursor that is not ours is a 400; so is an unknown sort', async () => {
    as = 'boss'
    for (const q of ['after=nonsense', 'after=' + Buffer.from('["x",0]').toString('base64url'), 'sort=colour']) {
      const res = await call('GET', `/projects?scope=multi&${q}`)
      expect(res.statusCode, q).toBe(400)
    }
    const subjects = await call(
      'GET',
      `/projects?scope=multi&sort=subjects&after=${Buffer.from('["x",5]').toString('base64url')}`,
      undefined,
      'en',
    )
    expect(json(subjects).msg).toBe('page position is not valid')
  })
})

describe('filters and search', () => {
  const cases: { query: Record<string, string | number>; keep: (r: Project) => boolean }[] = [
    { query: { type: 'retrospective' }, keep: (r) => r.type === 'retrospective' },
    { query: { testStage: 'II' }, keep: (r) => r.test_stage === 'II' },
    { query: { status: 'active' }, keep: (r) => r.status === 'active' },
    { query: { randomMethod: 'stratified' }, keep: (r) => r.random_method === 'stratified' },
    { query: { type: 'prospective', status: 'draft' }, keep: (r) => r.type === 'prospective' && r.status === 'draft' },
    // By number prefix, any case; by name prefix; never inside.
    { query: { q: 'lc-01' }, keep: (r) => r.number.toLowerCase().startsWith('lc-01') },
    { query: { q: 'DM-' }, keep: (r) => r.number.startsWith('dm-') },
    { query: { q: '肺癌研究3' }, keep: (r) => r.name.startsWith('肺癌研究3') },
    { query: { q: 'diabetes COHORT 3' }, keep: (r) => r.name.startsWith('Diabetes cohort 3') },
    { query: { q: 'cohort' }, keep: () => false },
    { query: { q: '-01' }, keep: () => false },
  ]
  for (const { query, keep } of cases) {
    it(JSON.stringify(query), async () => {
      const expected = (await all())
        .filter((r) => r.scope === 'multi' && keep(r))
        .sort((a, b) => a.id - b.id)
        .map((r) => r.id)
      const got = await pages('boss', { scope: 'multi', sort: 'created', order: 'asc', limit: 3, ...query })
      expect(got.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(expected)
      expect(got.total).toBe(expected.length)
      if (!String(query.q ?? '').startsWith('c') && !String(query.q ?? '').startsWith('-')) expect(expected.length).toBeGreaterThan(0)
    })
  }

  it('by disease', async () => {
    const one = (await all()).find((r) => r.disease_id !== null)!
    const expected = (await all()).filter((r) => r.scope === 'multi' && r.disease_id === one.disease_id).map((r) => r.id)
    const got = await pages('boss', { scope: 'multi', diseaseId: one.disease_id!, limit: 5 })
    expect(got.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b))
  })

  it('a bad filter value is a 400 in the caller’s language', async () => {
    as = 'boss'
    const res = await call('GET', '/projects?scope=multi&status=lost', undefined, 'en')
    expect(res.statusCode).toBe(400)
    expect(json(res).msg).toContain('status')
    expect((await call('GET', '/projects?scope=both')).statusCode).toBe(400)
  })
})

describe('who sees which projects', () => {
  const listed = async (user: string, scope: 'multi' | 'single') =>
    (await pages(user, { scope, limit: 7 })).rows.map((r) => r.id).sort((a, b) => a - b)
  const expectedFor = async (scope: string, keep: (r: Project, i: number) => boolean) =>
    (await t.db.kysely.selectFrom('project').selectAll().orderBy('id').execute())
      .map((r, i) => [r, i] as const)
      .filter(([r, i]) => r.scope === scope && keep(r, i))
      .map(([r]) => r.id)

  for (const scope of ['multi', 'single'] as const) {
    it(`${scope}: a member sees only their projects, with their role`, async () => {
      const got = await listed('res', scope)
      expect(got).toEqual(await expectedFor(scope, (_, i) => memberOf('res', i)))
      expect(got.length).toBeGreaterThan(0)
      expect((await pages('res', { scope })).rows.every((r) => r.myRole === '录入员')).toBe(true)
    })

    it(`${scope}: a user of no project sees nothing`, async () => {
      const got = await pages('nobody', { scope })
      expect(got.rows).toEqual([])
      expect(got.total).toBe(0)
    })

    it(`${scope}: an auditor sees every submitted project, no draft of others`, async () => {
      expect(await listed('auditor', scope)).toEqual(await expectedFor(scope, (r) => r.status !== 'draft'))
    })

    it(`${scope}: an auditor who is also a member sees their drafts too`, async () => {
      expect(await listed('ra', scope)).toEqual(await expectedFor(scope, (r, i) => r.status !== 'draft' || memberOf('ra', i)))
    })

    it(`${scope}: the system administrator sees all`, async () => {
      expect(await listed('boss', scope)).toEqual(await expectedFor(scope, () => true))
    })
  }

  it('a member’s filter and search stay within their projects', async () => {
    const got = await pages('res', { scope: 'multi', q: 'dm' })
    expect(got.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(
      await expectedFor('multi', (r, i) => memberOf('res', i) && r.number.startsWith('dm')),
    )
  })
})

describe('open projects (multi-apply)', () => {
  it('active projects the caller is not a member of, with the roles to wish for and a pending application', async () => {
    const rows = await t.db.kysely.selectFrom('project').selectAll().orderBy('id').execute()
    const expected = rows.filter((r, i) => r.status === 'active' && !memberOf('res', i)).map((r) => r.id)
    const target = expected[0]!
    const role = await t.db.kysely
      .selectFrom('project_role')
      .select('id')
      .where('project_id', '=', target)
      .where('builtin', 'is', null)
      .executeTakeFirstOrThrow()
    const { id: appId } = await t.db.kysely
      .insertInto('project_application')
      .values({
        project_id: target,
        user_id: ids.res!,
        role_id: role.id,
        reason: '加入',
        status: 'pending',
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    as = 'res'
    const open = data<OpenProject[]>(await call('GET', '/projects/open'))
    expect(open.map((o) => o.id).sort((a, b) => a - b)).toEqual(expected)
    const mine = open.find((o) => o.id === target)!
    expect(mine.roles).toEqual([{ id: role.id, name: '录入员' }])
    expect(mine.pendingApplicationId).toBe(appId)
    expect(open.filter((o) => o.id !== target).every((o) => o.pendingApplicationId === null)).toBe(true)
    const searched = data<OpenProject[]>(await call('GET', '/projects/open?q=LC'))
    expect(searched.map((o) => o.id).sort((a, b) => a - b)).toEqual(
      rows.filter((r, i) => r.status === 'active' && !memberOf('res', i) && r.number.startsWith('LC')).map((r) => r.id),
    )
  })
})

describe('plans of the list SQL', () => {
  const size = 3000
  let db: Awaited<ReturnType<typeof freshDb>>
  let userId: number

  beforeAll(async () => {
    db = await freshDb()
    await seedReferenceData(db.kysely, new Date())
    const at = new Date().toISOString()
    userId = (
      await db.kysely
        .insertInto('app_user')
        .values({ name: 'member', department_id: null, career_id: null, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
    for (let start = 0; start < size; start += 500) {
      await db.kysely
        .insertInto('project')
        .values(
          Array.from({ length: 500 }, (_, k) => {
            const i = start + k
            const h = (i * 2654435761) >>> 0
            return {
              scope: i % 4 === 0 ? 'single' : 'multi',
              type: types[h % 3]!,
              name: `项目${h % 997}`,
              number: `N${String(h).padStart(10, '0')}`,
              group_type: 'group',
              blinded: 'open',
              random_method: methods[h % 3]!,
              planned_quantity: 10,
              planned_groups: 2,
              status: statuses[h % 4]!,
              subject_count: h % 300,
              creator_id: null,
              created_at: new Date(Date.UTC(2025, 0, 1) + (h % 1e6) * 60_000).toISOString(),
              updated_at: new Date(Date.UTC(2025, 0, 1) + ((h >>> 3) % 1e6) * 60_000).toISOString(),
            }
          }),
        )
        .execute()
    }
    // The member belongs to every 10th project.
    const some = await db.kysely
      .selectFrom('project')
      .select('id')
      .where(sql<boolean>`id % 10 = 0`)
      .execute()
    for (const p of some) {
      const role = await db.kysely
        .insertInto('project_role')
        .values({ project_id: p.id, name: '项目管理员', builtin: 'manager', created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
      await db.kysely.insertInto('project_member').values({ project_id: p.id, user_id: userId, role_id: role.id, created_at: at }).execute()
    }
    await sql.raw(db.dialect === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE').execute(db.kysely)
  }, 120_000)
  afterAll(() => db?.drop())

  const show = (p: Plan) => p.lines.join(' | ')
  const scopes: Record<string, () => ListScope> = {
    administrator: () => ({ kind: 'all' }),
    auditor: () => ({ kind: 'memberOf', userId, statuses: ['auditing', 'active', 'closed'] }),
  }
  const defaultPage = (visible: ListScope, after: readonly [string, number] | null) =>
    projectPageQuery(db.kysely, { scope: 'multi', filter: {}, visible, sort: 'updated_at', order: 'desc', after, limit: 51 }).compile()

  for (const [who, scope] of Object.entries(scopes)) {
    it(`default sort (updated, newest first), ${who}: first and deep pages read project_updated_idx in order, no sort`, async () => {
      for (const after of [null, ['2025-06-01T00:00:00.000Z', 1500] as const]) {
        const plan = await explain(db, defaultPage(scope(), after))
        expect(plan.sorts, show(plan)).toEqual([])
        expect(plan.indexes, show(plan)).toContain('project_updated_idx')
      }
    })
  }

  // A member's projects are a bounded set: SQLite reads just them through the member index and
  // orders those few; PostgreSQL chooses by its costs, and a plan without a sort exists for it.
  it('default sort, member without audit rights: their projects through project_member, or the sort index in order', async () => {
    const q = defaultPage({ kind: 'memberOf', userId, statuses: [] }, null)
    const plan = await explain(db, q, { sortFreeIfAny: true })
    if (db.dialect === 'sqlite') expect(plan.indexes, show(plan)).toContain('project_member_user_idx')
    else expect(plan.sorts, show(plan)).toEqual([])
  })

  for (const sort of projectSortKeys) {
    for (const order of ['asc', 'desc'] as const) {
      it(`sort ${sort} ${order}, administrator: read from its (scope, sort, id) index, no sort`, async () => {
        const col = projectSortColumns[sort]
        const plan = await explain(
          db,
          projectPageQuery(db.kysely, {
            scope: 'multi',
            filter: {},
            visible: { kind: 'all' },
            sort: col,
            order,
            after: null,
            limit: 51,
          }).compile(),
        )
        expect(plan.sorts, show(plan)).toEqual([])
        expect(plan.indexes, show(plan)).toContain(`project_${sort}_idx`)
      })
    }
  }
})
