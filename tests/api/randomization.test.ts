import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { indicatorInput } from '../../contract/dictionary.ts'
import { projectAuthorities, projectBaseInput, type ProjectDetail } from '../../contract/projects.ts'
import type { AllocationPage, AllocationRow, FullPlan, PlanView } from '../../contract/randomization.ts'
import { insertIndicator } from '../../server/db/repositories/indicators.ts'
import { generateStratum } from '../../server/services/randomization/generate.ts'
import { allocateNext, subjectStratum } from '../../server/services/randomization/plan.ts'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/**
 * Issue 9 item 6: the randomization plan and its allocation list — plan rules refused in the
 * caller's language with nothing written, a list reproducible from the stored seed and balanced
 * in every block, blinded members kept from group names and the list, unblinded members who may
 * not set the project up kept from the seed and the list (allocation concealment), the subjects
 * of other centers unnamed in the list, and nothing
 * changing once a subject is randomized.
 */

let t: TestApp
let admin: string
let blind: string
let outsider: string
let sex: number
let age: number
const centers: number[] = []

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
function call(method: Method, url: string, payload?: object, token = admin, lang = 'en') {
  return t.app.inject({ method, url, payload, headers: { 'kr-d-token': token, 'accept-language': lang } })
}
async function okData<T>(method: Method, url: string, payload?: object, token = admin): Promise<T> {
  const res = await call(method, url, payload, token)
  expect(res.statusCode, res.body).toBe(200)
  return body(res).data as T
}
const plan = (p: number, token = admin) => okData<PlanView>('GET', `/api/projects/${p}/randomization`, undefined, token)
const full = async (p: number) => {
  const v = await plan(p)
  if (v.access !== 'full') throw new Error('expected the full plan')
  return v
}
async function wholeList(p: number, stratum?: string): Promise<AllocationRow[]> {
  const rows: AllocationRow[] = []
  let after: string | null = null
  do {
    const q = new URLSearchParams({ limit: '7', ...(stratum === undefined ? {} : { stratum }), ...(after ? { after } : {}) })
    const page: AllocationPage = await okData<AllocationPage>('GET', `/api/projects/${p}/randomization/list?${q}`)
    rows.push(...page.rows)
    after = page.next
  } while (after)
  return rows
}
const auditRows = (action: string, projectId: number) =>
  t.db.kysely
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .where('object_type', '=', 'project')
    .where('object_id', '=', projectId)
    .execute()

let projectNo = 0
/** A project as the wizard makes it, written directly (the create call is another helper's): manager role and member, two centers. */
async function newProject(managerId: number, over: { groupType?: string; status?: string; planned?: number } = {}) {
  const now = new Date().toISOString()
  const db = t.db.kysely
  const { id } = await db
    .insertInto('project')
    .values({
      scope: 'multi',
      type: 'prospective',
      name: `Trial ${++projectNo}`,
      number: `R-${projectNo}`,
      test_stage: 'III',
      group_type: over.groupType ?? 'group',
      blinded: 'double',
      random_method: 'none',
      planned_quantity: over.planned ?? 10,
      planned_groups: 2,
      status: over.status ?? 'draft',
      creator_id: managerId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.insertInto('project_queue').values({ project_id: id, name: 'Main', key: 'main' }).execute()
  await db
    .insertInto('project_center')
    .values(centers.map((c, sort) => ({ project_id: id, center_id: c, sort })))
    .execute()
  const role = await db
    .insertInto('project_role')
    .values({
      project_id: id,
      name: '项目管理员',
      authorities: JSON.stringify(projectAuthorities),
      all_queues: 1,
      all_centers: 1,
      blinded: 0,
      builtin: 'manager',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.insertInto('project_member').values({ project_id: id, user_id: managerId, role_id: role.id, created_at: now }).execute()
  return id
}

/** A member whose role is blinded, or unblinded and holding the given authorities (not configure). */
async function addMember(projectId: number, userId: number, role: { blinded: boolean; authorities?: string[] }) {
  const now = new Date().toISOString()
  const { id: roleId } = await t.db.kysely
    .insertInto('project_role')
    .values({
      project_id: projectId,
      name: role.blinded ? 'Blinded' : 'Enrolling',
      authorities: JSON.stringify(role.authorities ?? []),
      all_queues: 1,
      all_centers: 1,
      blinded: role.blinded ? 1 : 0,
      builtin: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await t.db.kysely
    .insertInto('project_member')
    .values({ project_id: projectId, user_id: userId, role_id: roleId, created_at: now })
    .execute()
}

async function newSubject(projectId: number, no: string) {
  const now = new Date().toISOString()
  const queue = await t.db.kysely.selectFrom('project_queue').where('project_id', '=', projectId).select('id').executeTakeFirstOrThrow()
  const row = await t.db.kysely
    .insertInto('subject')
    .values({ project_id: projectId, queue_id: queue.id, center_id: centers[0]!, subject_no: no, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

const groups = [
  { code: 'A', name: 'Active drug', ratio: 1 },
  { code: 'P', name: 'Placebo arm', ratio: 1 },
]
let managerId: number
let blindId: number
let enroller: string
let enrollerId: number

beforeAll(async () => {
  t = await testApp()
  managerId = await t.createUser('rand-admin', 'Admin2024', { roles: ['researchAdmin'] })
  blindId = await t.createUser('rand-blind', 'Blind2024', { roles: ['researcher'] })
  await t.createUser('rand-out', 'Out2024x', { roles: ['researcher'] })
  admin = await t.signIn('rand-admin', 'Admin2024')
  blind = await t.signIn('rand-blind', 'Blind2024')
  outsider = await t.signIn('rand-out', 'Out2024x')
  enrollerId = await t.createUser('rand-enrol', 'Enrol2024', { roles: ['researcher'] })
  enroller = await t.signIn('rand-enrol', 'Enrol2024')
  const now = new Date().toISOString()
  for (const code of ['R01', 'R02']) {
    const c = await t.db.kysely
      .insertInto('center')
      .values({ code, name_zh: `中心${code}`, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    centers.push(c.id)
  }
  sex = await insertIndicator(
    t.db.kysely,
    indicatorInput.parse({
      code: 'sex',
      nameZh: '性别',
      type: 'single',
      display: 'radio',
      options: [
        { code: '1', labelZh: '男', labelEn: 'Male' },
        { code: '2', labelZh: '女', labelEn: 'Female' },
      ],
    }),
    now,
  )
  age = await insertIndicator(t.db.kysely, indicatorInput.parse({ code: 'age', nameZh: '年龄', type: 'blank', display: 'input' }), now)
})
afterAll(() => t.close())

describe('the plan', () => {
  it('starts unsaved with the project method', async () => {
    const p = await newProject(managerId)
    expect(await plan(p)).toMatchObject({ access: 'full', method: 'none', saved: false, groups: [], strata: [] })
  })

  it('refuses a bad plan in the caller language, with nothing written', async () => {
    const p = await newProject(managerId)
    const url = `/api/projects/${p}/randomization`
    const cases: [object, string, string][] = [
      [{ method: 'simple', groups: groups.slice(0, 1) }, '随机分组至少需要 2 个组', 'Randomization needs at least 2 groups'],
      [
        { method: 'simple', groups: [groups[0], { ...groups[1], ratio: 0 }] },
        '组 P 的分配比例应为 1 到 20 的整数',
        'The allocation ratio of group P must be a whole number from 1 to 20',
      ],
      [
        { method: 'stratified', groups, blockSizes: [3] },
        '区组大小 3 必须是分配比例之和 2 的倍数',
        'Block size 3 must be a multiple of the ratio sum 2',
      ],
      [
        { method: 'stratified', groups, blockSizes: [] },
        '分层区组随机至少需要一个区组大小',
        'Stratified block randomization needs at least one block size',
      ],
      [
        { method: 'stratified', groups, blockSizes: [2], factorIds: [age] },
        '分层因素 age 不是带选项的单选指标',
        'Stratification factor age is not a single choice indicator with choices',
      ],
      [
        { method: 'stratified', groups, blockSizes: [2], factorIds: [999999] },
        '分层因素 999999 不存在',
        'Stratification factor 999999 does not exist',
      ],
    ]
    for (const [payload, zh, en] of cases) {
      for (const [lang, msg] of [
        ['zh', zh],
        ['en', en],
      ] as const) {
        const res = await call('PUT', url, payload, admin, lang)
        expect(res.statusCode, res.body).toBe(400)
        expect(body(res).msg).toBe(msg)
      }
    }
    const missing = await call('PUT', url, { method: 'simple', groups: [{ code: 'A', ratio: 1 }, groups[1]] }, admin, 'en')
    expect(missing.statusCode).toBe(400)
    expect(body(missing).msg).toContain('groups.0.name')
    expect(await plan(p)).toMatchObject({ saved: false, method: 'none', groups: [] })
    expect(await auditRows('project.randomizationPlan', p)).toEqual([])
    const project = await t.db.kysely.selectFrom('project').where('id', '=', p).select('random_method').executeTakeFirstOrThrow()
    expect(project.random_method).toBe('none')
  })

  it('refuses randomizing a one-armed test and any change to a closed project', async () => {
    const single = await newProject(managerId, { groupType: 'single' })
    const r1 = await call('PUT', `/api/projects/${single}/randomization`, { method: 'simple', groups }, admin, 'zh')
    expect(r1.statusCode).toBe(400)
    expect(body(r1).msg).toBe('单臂试验不能设置随机方法')
    const closed = await newProject(managerId, { status: 'closed' })
    const r2 = await call('PUT', `/api/projects/${closed}/randomization`, { method: 'simple', groups }, admin, 'en')
    expect(r2.statusCode).toBe(409)
    expect(body(r2).msg).toBe('The project is closed and cannot be changed')
  })

  it('saves a stratified plan: strata are centers × factor choices, the project method follows, audited without names or seed', async () => {
    const p = await newProject(managerId)
    const saved = await okData<FullPlan>('PUT', `/api/projects/${p}/randomization`, {
      method: 'stratified',
      groups,
      blockSizes: [2, 4],
      strataByCenter: true,
      factorIds: [sex],
      listSize: 9,
    })
    expect(saved).toMatchObject({
      method: 'stratified',
      blockSizes: [2, 4],
      strataByCenter: true,
      listSize: 9,
      saved: true,
      generatedAt: null,
    })
    expect(saved.seed).toMatch(/^[\w-]{16}$/)
    expect(saved.factors).toEqual([
      {
        indicatorId: sex,
        code: 'sex',
        nameZh: '性别',
        nameEn: '',
        choices: [
          { code: '1', labelZh: '男', labelEn: 'Male' },
          { code: '2', labelZh: '女', labelEn: 'Female' },
        ],
      },
    ])
    expect(saved.strata.map((s) => s.key)).toEqual([
      `c${centers[0]}|sex=1`,
      `c${centers[0]}|sex=2`,
      `c${centers[1]}|sex=1`,
      `c${centers[1]}|sex=2`,
    ])
    const project = await t.db.kysely.selectFrom('project').where('id', '=', p).select('random_method').executeTakeFirstOrThrow()
    expect(project.random_method).toBe('stratified')
    const [row] = await auditRows('project.randomizationPlan', p)
    expect(row?.detail).not.toContain('Placebo')
    expect(row?.detail).not.toContain(saved.seed)
    expect(JSON.parse(row!.detail!)).not.toHaveProperty('blockSizes')
    // The seed is kept when the next save gives none.
    const again = await okData<FullPlan>('PUT', `/api/projects/${p}/randomization`, { method: 'simple', groups })
    expect(again.seed).toBe(saved.seed)
    expect(again.strata.map((s) => s.key)).toEqual([''])
    // With a plan saved, the base tab cannot move the method away from it.
    const detail = await okData<ProjectDetail>('GET', `/api/projects/${p}`)
    const base = { ...detail, randomMethod: 'none' }
    const fields = Object.keys(projectBaseInput.shape)
    const refused = await call('PUT', `/api/projects/${p}/base`, Object.fromEntries(fields.map((k) => [k, base[k as keyof typeof base]])))
    expect(refused.statusCode).toBe(409)
    expect(body(refused).msg).toBe('A randomization plan is saved: change the random method in the config tab')
    const kept = await t.db.kysely.selectFrom('project').where('id', '=', p).select('random_method').executeTakeFirstOrThrow()
    expect(kept.random_method).toBe('simple')
  })
})

describe('the list', () => {
  let p: number
  let first: AllocationRow[]
  beforeAll(async () => {
    p = await newProject(managerId)
    await addMember(p, blindId, { blinded: true })
    await addMember(p, enrollerId, { blinded: false, authorities: ['enrol', 'enterData', 'editData', 'export', 'sign', 'unblind'] })
    await okData('PUT', `/api/projects/${p}/randomization`, {
      method: 'stratified',
      groups: [
        { code: 'A', name: 'Active drug', ratio: 1 },
        { code: 'P', name: 'Placebo arm', ratio: 2 },
      ],
      blockSizes: [3, 6],
      strataByCenter: true,
      factorIds: [sex],
      seed: 'fixed-seed',
      listSize: 10,
    })
    await okData('POST', `/api/projects/${p}/randomization/generate`)
    first = await wholeList(p)
  })

  it('is generated per stratum in whole blocks, each block in the ratio, and paged by keyset', async () => {
    const v = await full(p)
    expect(v.generatedAt).not.toBeNull()
    expect(v.strata).toHaveLength(4)
    const page = await okData<AllocationPage>('GET', `/api/projects/${p}/randomization/list?limit=5`)
    expect(page.total).toBe(first.length)
    expect(v.strata.reduce((n, s) => n + s.entries, 0)).toBe(first.length)
    for (const s of v.strata) {
      const rows = first.filter((r) => r.stratum === s.key)
      expect(rows.length).toBeGreaterThanOrEqual(10)
      expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1))
      const blocks = new Map<number, AllocationRow[]>()
      for (const r of rows) blocks.set(r.block, [...(blocks.get(r.block) ?? []), r])
      for (const b of blocks.values()) {
        const size = b[0]!.blockSize
        expect([3, 6]).toContain(size)
        expect(b).toHaveLength(size)
        expect(b.filter((r) => r.groupCode === 'P')).toHaveLength((size * 2) / 3)
      }
    }
    const one = await wholeList(p, v.strata[1]!.key)
    expect(one).toEqual(first.filter((r) => r.stratum === v.strata[1]!.key))
  })

  it('is reproducible: generated again, or by the generator from the stored seed, it is the same', async () => {
    await okData('POST', `/api/projects/${p}/randomization/generate`)
    const second = await wholeList(p)
    const shape = (rows: AllocationRow[]) => rows.map((r) => [r.stratum, r.seq, r.block, r.blockSize, r.groupCode])
    expect(shape(second)).toEqual(shape(first))
    const v = await full(p)
    for (const s of v.strata) {
      const expected = generateStratum(s.key, { method: 'stratified', ratios: [1, 2], blockSizes: [3, 6], listSize: 10, seed: v.seed })
      expect(second.filter((r) => r.stratum === s.key).map((r) => (r.groupCode === 'A' ? 0 : 1))).toEqual(expected.map((e) => e.group))
    }
    expect(await auditRows('project.randomizationGenerate', p)).toHaveLength(2)
  })

  it('shows a blinded member the method and the questions enrolment asks, no groups and no list; a non-member nothing', async () => {
    const res = await call('GET', `/api/projects/${p}/randomization`, undefined, blind)
    expect(res.statusCode).toBe(200)
    const v = await full(p)
    expect(v.factors).toHaveLength(1)
    expect(body(res).data).toEqual({ access: 'blinded', method: 'stratified', factors: v.factors, listReady: true })
    expect(res.body).not.toContain('Placebo')
    expect(res.body).not.toContain(v.seed)
    const list = await call('GET', `/api/projects/${p}/randomization/list`, undefined, blind, 'zh')
    expect(list.statusCode).toBe(403)
    expect(body(list).msg).toBe('盲态角色不能查看随机表')
    expect(list.body).not.toContain('Placebo')
    const put = await call('PUT', `/api/projects/${p}/randomization`, { method: 'none' }, blind)
    expect(put.statusCode).toBe(403)
    for (const url of [`/api/projects/${p}/randomization`, `/api/projects/${p}/randomization/list`]) {
      const r = await call('GET', url, undefined, outsider)
      expect(r.statusCode).toBe(403)
      expect(r.body).not.toContain('Placebo')
    }
  })

  it('conceals the seed, the blocks and the list from an unblinded member who enrols but may not set the project up', async () => {
    const v = await full(p)
    const res = await call('GET', `/api/projects/${p}/randomization`, undefined, enroller)
    expect(res.statusCode).toBe(200)
    expect(body(res).data).toEqual({ access: 'concealed', method: 'stratified', factors: v.factors, listReady: true })
    expect(res.body).not.toContain(v.seed)
    expect(res.body).not.toContain('Placebo')
    for (const lang of ['en', 'zh'] as const) {
      const list = await call('GET', `/api/projects/${p}/randomization/list`, undefined, enroller, lang)
      expect(list.statusCode).toBe(403)
      expect(body(list).msg).toBe(
        lang === 'en'
          ? 'The allocation list is concealed from those who enrol: only members who set the project up may see it'
          : '随机表对入组人员隐藏，只有负责配置项目的成员可以查看',
      )
      expect(list.body).not.toContain('Placebo')
    }
    const put = await call('PUT', `/api/projects/${p}/randomization`, { method: 'none' }, enroller)
    expect(put.statusCode).toBe(403)
  })

  it('allocates the next free entry of a stratum, then fixes the plan and the list', async () => {
    const stratum = await subjectStratum(t.db.kysely, p, centers[0]!, new Map([[sex, '2']]))
    expect(stratum).toBe(`c${centers[0]}|sex=2`)
    const expected = first.filter((r) => r.stratum === stratum)
    const s1 = await newSubject(p, 'S-001')
    const s2 = await newSubject(p, 'S-002')
    const now = new Date()
    const a1 = await t.db.kysely.transaction().execute((tx) => allocateNext(tx, p, stratum, s1, now))
    const a2 = await t.db.kysely.transaction().execute((tx) => allocateNext(tx, p, stratum, s2, now))
    const rows = await wholeList(p, stratum)
    expect(rows[0]).toMatchObject({ seq: 1, subjectId: s1, subjectNo: 'S-001', groupCode: expected[0]!.groupCode })
    expect(rows[1]).toMatchObject({ seq: 2, subjectId: s2, subjectNo: 'S-002' })
    expect(a1.allocationId).toBe(rows[0]!.id)
    expect(a2.allocationId).toBe(rows[1]!.id)
    expect((await full(p)).allocated).toBe(2)

    const before = await wholeList(p)
    for (const [lang, msg] of [
      ['zh', '已有 2 个研究对象完成随机，随机方案和随机表不能再修改'],
      ['en', '2 research objects are randomized: the plan and the list can no longer change'],
    ] as const) {
      const put = await call('PUT', `/api/projects/${p}/randomization`, { method: 'simple', groups }, admin, lang)
      expect(put.statusCode).toBe(409)
      expect(body(put).msg).toBe(msg)
      const gen = await call('POST', `/api/projects/${p}/randomization/generate`, undefined, admin, lang)
      expect(gen.statusCode).toBe(409)
      expect(body(gen).msg).toBe(msg)
    }
    expect(await wholeList(p)).toEqual(before)
    expect((await full(p)).method).toBe('stratified')
  })

  it('names who took an entry only to a member whose centers hold that subject', async () => {
    // A member who sets the project up at the second center only: the entries S-001 and S-002 (first center) took stay unnamed.
    const userId = await t.createUser('rand-config2', 'Config2024', { roles: ['researchAdmin'] })
    const now = new Date().toISOString()
    const role = await t.db.kysely
      .insertInto('project_role')
      .values({
        project_id: p,
        name: 'Second center set-up',
        authorities: JSON.stringify(['configure']),
        all_queues: 1,
        all_centers: 0,
        blinded: 0,
        builtin: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db.kysely.insertInto('project_role_center').values({ role_id: role.id, center_id: centers[1]! }).execute()
    await t.db.kysely.insertInto('project_member').values({ project_id: p, user_id: userId, role_id: role.id, created_at: now }).execute()
    const token = await t.signIn('rand-config2', 'Config2024')
    const mine = await okData<AllocationPage>('GET', `/api/projects/${p}/randomization/list?limit=500`, undefined, token)
    const all = await wholeList(p)
    expect(mine.rows.length).toBe(all.length)
    const taken = all.filter((r) => r.subjectId !== null)
    expect(taken.map((r) => r.subjectNo).sort()).toEqual(['S-001', 'S-002'])
    for (const r of taken) expect(mine.rows.find((x) => x.id === r.id)).toEqual({ ...r, subjectId: null, subjectNo: null })
    expect(JSON.stringify(mine)).not.toContain('S-00')
  })

  it('gives concurrent enrolments distinct entries, in sequence order', async () => {
    const q = await newProject(managerId, { planned: 8 })
    await okData('PUT', `/api/projects/${q}/randomization`, { method: 'stratified', groups, blockSizes: [2, 4] })
    await okData('POST', `/api/projects/${q}/randomization/generate`)
    const subjects = await Promise.all(['K-1', 'K-2', 'K-3', 'K-4', 'K-5'].map((no) => newSubject(q, no)))
    const now = new Date()
    const taken = await Promise.all(subjects.map((s) => t.db.kysely.transaction().execute((tx) => allocateNext(tx, q, '', s, now))))
    expect(new Set(taken.map((a) => a.allocationId)).size).toBe(5)
    const rows = await wholeList(q)
    expect(rows.slice(0, 5).every((r) => r.subjectId !== null)).toBe(true)
    expect(rows.slice(5).every((r) => r.subjectId === null)).toBe(true)
  })

  it('refuses a forged cursor and a subject whose answers fit no stratum', async () => {
    const res = await call('GET', `/api/projects/${p}/randomization/list?after=nope`, undefined, admin, 'en')
    expect(res.statusCode).toBe(400)
    await expect(subjectStratum(t.db.kysely, p, centers[0]!, new Map([[sex, '9']]))).rejects.toMatchObject({ key: 'randomization.noEntry' })
  })

  it('refuses an allocation when the stratum has no entry left', async () => {
    const q = await newProject(managerId, { planned: 2 })
    await okData('PUT', `/api/projects/${q}/randomization`, { method: 'simple', groups })
    await okData('POST', `/api/projects/${q}/randomization/generate`)
    const now = new Date()
    for (const no of ['X-1', 'X-2']) {
      const s = await newSubject(q, no)
      await t.db.kysely.transaction().execute((tx) => allocateNext(tx, q, '', s, now))
    }
    const s3 = await newSubject(q, 'X-3')
    await expect(t.db.kysely.transaction().execute((tx) => allocateNext(tx, q, '', s3, now))).rejects.toMatchObject({
      key: 'randomization.noEntry',
    })
  })
})

describe('generation refusals', () => {
  it('needs a saved randomized plan', async () => {
    const p = await newProject(managerId)
    const r1 = await call('POST', `/api/projects/${p}/randomization/generate`, undefined, admin, 'zh')
    expect(r1.statusCode).toBe(400)
    expect(body(r1).msg).toBe('请先保存随机方案')
    await okData('PUT', `/api/projects/${p}/randomization`, { method: 'none' })
    const r2 = await call('POST', `/api/projects/${p}/randomization/generate`, undefined, admin, 'en')
    expect(r2.statusCode).toBe(400)
    expect(body(r2).msg).toBe('The project has no random method: there is no list to generate')
  })

  it('refuses a list past the size limit', async () => {
    const p = await newProject(managerId, { planned: 100_000 })
    await okData('PUT', `/api/projects/${p}/randomization`, {
      method: 'stratified',
      groups,
      blockSizes: [2],
      strataByCenter: true,
      factorIds: [sex],
    })
    const r = await call('POST', `/api/projects/${p}/randomization/generate`, undefined, admin, 'en')
    expect(r.statusCode).toBe(400)
    expect(body(r).msg).toContain('more than the limit of 200000')
    expect((await full(p)).generatedAt).toBeNull()
  })
})
