import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HistoryEntry, ProjectDetail, ProjectPage } from '../../contract/projects.ts'
import type { Database } from '../../server/db/database.ts'
import { testApp, type TestApp } from '../support/testApp.ts'
import { apiCalls, type Payload } from '../support/apiCalls.ts'

/**
 * Research projects (issue 9, core): the wizard's create in one transaction, the detail within
 * the member's scope, the base tab, the audit flow with its status rules and history, close and
 * delete; on the database of this project (api-sqlite or api-postgres). The list is
 * tests/api/projectsList.test.ts.
 */

let t: TestApp
const tokens: Record<string, string> = {}
let as = 'ra'
const userIds: Record<string, number> = {}
let centers: number[] = []
let published: { templateId: number; versionId: number }
let draftVersion: { templateId: number; versionId: number }

beforeAll(async () => {
  t = await testApp()
  userIds.ra = await t.createUser('ra', 'Research1', { roles: ['researchAdmin'] })
  userIds.auditor = await t.createUser('auditor', 'Research1', { roles: ['researchAdmin'] })
  userIds.res = await t.createUser('res', 'Research1', { roles: ['researcher'] })
  for (const u of ['ra', 'auditor', 'res']) tokens[u] = await t.signIn(u, 'Research1')
  const at = new Date().toISOString()
  centers = (
    await t.db.kysely
      .insertInto('center')
      .values(
        ['BJ01', 'SH02', 'GZ03'].map((code) => ({
          code,
          name_zh: `中心${code}`,
          name_en: `Center ${code}`,
          created_at: at,
          updated_at: at,
        })),
      )
      .returning('id')
      .execute()
  ).map((r) => r.id)
  const tpl = async (name: string, state: string) => {
    const { id } = await t.db.kysely
      .insertInto('template')
      .values({ kind: 'crf', name, description: '', collect_type: '', status: 1, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow()
    const v = await t.db.kysely
      .insertInto('template_version')
      .values({ template_id: id, version: 1, state, sections: '[]', created_at: at, published_at: state === 'published' ? at : null })
      .returning('id')
      .executeTakeFirstOrThrow()
    return { templateId: id, versionId: v.id }
  }
  published = await tpl('基线访视', 'published')
  draftVersion = await tpl('草稿表单', 'draft')
})
afterAll(() => t.close())

const { call, json, data } = apiCalls(
  () => t,
  () => tokens[as]!,
  '/api',
)
const by = async <T>(user: string, fn: () => Promise<T>): Promise<T> => {
  const before = as
  as = user
  try {
    return await fn()
  } finally {
    as = before
  }
}

const base = (over: Payload = {}): Payload => ({
  type: 'prospective',
  name: '肺癌多中心研究',
  number: 'LC-001',
  groupType: 'group',
  plannedQuantity: 200,
  plannedGroups: 2,
  ...over,
})
const wizard = (over: Payload = {}, baseOver: Payload = {}): Payload => ({
  scope: 'multi',
  base: base(baseOver),
  queues: [
    { name: '队列甲', key: 'A', entryCondition: '年龄 ≥ 18' },
    { name: '队列乙', key: 'B' },
  ],
  forms: [published],
  centerIds: [centers[0], centers[1]],
  ...over,
})
const create = async (over: Payload = {}, baseOver: Payload = {}) =>
  data<ProjectDetail>(await call('POST', '/projects', wizard(over, baseOver)))

const projectTables = [
  'project',
  'project_queue',
  'project_form',
  'project_center',
  'project_role',
  'project_role_queue',
  'project_role_center',
  'project_member',
  'project_application',
  'randomization_plan',
  'project_group',
  'allocation',
  'subject',
] as const satisfies readonly (keyof Database)[]

async function rowCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const table of [...projectTables, 'audit_log'] as const) {
    const r = await t.db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow()
    out[table] = Number(r.n)
  }
  return out
}

async function subject(projectId: number, queueId: number, centerId: number, no: string) {
  const at = new Date().toISOString()
  const r = await t.db.kysely
    .insertInto('subject')
    .values({
      project_id: projectId,
      queue_id: queueId,
      center_id: centerId,
      subject_no: no,
      created_by: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return r.id
}

describe('the wizard refuses bad input and writes nothing (runs first, on empty tables)', () => {
  const refusals: { name: string; input: () => Payload; status: number; zh: () => string; en: () => string }[] = [
    {
      name: 'a center not in the directory',
      input: () => wizard({ centerIds: [centers[0], 424242] }),
      status: 400,
      zh: () => '中心 424242 不在中心目录中',
      en: () => 'Center 424242 is not in the center directory',
    },
    {
      name: 'an unpublished version',
      input: () => wizard({ forms: [published, draftVersion] }),
      status: 400,
      zh: () => `模板 ${draftVersion.templateId} 的版本 ${draftVersion.versionId} 不是已发布版本`,
      en: () => `Version ${draftVersion.versionId} of template ${draftVersion.templateId} is not a published version`,
    },
    {
      name: 'a queue key used twice (any case)',
      input: () =>
        wizard({
          queues: [
            { name: '甲', key: 'Arm' },
            { name: '乙', key: 'ARM' },
          ],
        }),
      status: 400,
      zh: () => '队列标识 ARM 重复',
      en: () => 'Queue key ARM is used twice',
    },
    {
      name: 'a planned quantity of 0',
      input: () => wizard({}, { plannedQuantity: 0 }),
      status: 400,
      zh: () => 'base.plannedQuantity 不能小于 1',
      en: () => 'base.plannedQuantity must be at least 1',
    },
    {
      name: 'a negative planned quantity',
      input: () => wizard({}, { plannedQuantity: -5 }),
      status: 400,
      zh: () => 'base.plannedQuantity 不能小于 1',
      en: () => 'base.plannedQuantity must be at least 1',
    },
    {
      name: 'a one-armed test with 2 groups',
      input: () => wizard({}, { groupType: 'single', plannedGroups: 2 }),
      status: 400,
      zh: () => '单臂试验的计划分组数必须为 1',
      en: () => 'A one-armed test plans exactly 1 group',
    },
    {
      name: 'two centers for a single-center project',
      input: () => wizard({ scope: 'single' }),
      status: 400,
      zh: () => '单中心项目只能选择一个中心',
      en: () => 'A single-center project has exactly one center',
    },
    {
      name: 'no queue',
      input: () => wizard({ queues: [] }),
      status: 400,
      zh: () => 'queues 不能少于 1 项',
      en: () => 'queues must have at least 1 item',
    },
  ]

  for (const r of refusals) {
    it(`${r.name}: refused in zh and en, every project table still empty`, async () => {
      const before = await rowCounts()
      expect(
        Object.values(before)
          .slice(0, projectTables.length)
          .every((n) => n === 0),
      ).toBe(true)
      const zh = await call('POST', '/projects', r.input())
      expect(zh.statusCode, zh.body).toBe(r.status)
      expect(json(zh).code).toBe(r.status)
      expect(json(zh).msg).toBe(r.zh())
      const en = await call('POST', '/projects', r.input(), 'en')
      expect(en.statusCode).toBe(r.status)
      expect(json(en).msg).toBe(r.en())
      expect(await rowCounts()).toEqual(before)
    })
  }

  it('a used number (any case): refused with 409, nothing of the second project written', async () => {
    const first = await create({}, { number: 'DUP-1' })
    const before = await rowCounts()
    const res = await call('POST', '/projects', wizard({}, { name: '另一个', number: 'dup-1' }))
    expect(res.statusCode).toBe(409)
    expect(json(res).msg).toBe('项目编号 dup-1 已存在')
    expect(json(await call('POST', '/projects', wizard({}, { number: 'Dup-1' }), 'en')).msg).toBe('Project number Dup-1 already exists')
    expect(await rowCounts()).toEqual(before)
    expect(await t.db.kysely.selectFrom('project').select('id').execute()).toEqual([{ id: first.id }])
    expect((await call('DELETE', `/projects/${first.id}`)).statusCode).toBe(200)
  })
})

describe('create', () => {
  it('writes the project, queues, pins, centers, a manager role and the creator as its member', async () => {
    const p = await create({}, { number: 'NEW-1', diseaseId: 1, testStage: 'II', therapyTime: '12 周' })
    expect(p).toMatchObject({
      scope: 'multi',
      name: '肺癌多中心研究',
      number: 'NEW-1',
      status: 'draft',
      testStage: 'II',
      diseaseId: 1,
      diseaseName: '阿尔茨海默病',
      therapyTime: '12 周',
      blinded: 'open',
      randomMethod: 'none',
      subjectCount: 0,
      creatorName: 'ra',
      myRole: '项目管理员',
      statusReason: '',
    })
    expect(p.queues.map((q) => [q.key, q.name, q.sort, q.subjectCount])).toEqual([
      ['A', '队列甲', 0, 0],
      ['B', '队列乙', 1, 0],
    ])
    expect(p.queues[0]!.entryCondition).toBe('年龄 ≥ 18')
    expect(p.centers.map((c) => c.code)).toEqual(['BJ01', 'SH02'])
    expect(p.forms).toEqual([
      expect.objectContaining({ templateId: published.templateId, versionId: published.versionId, version: 1, latestVersionId: null }),
    ])
    expect(p.me).toMatchObject({ roleName: '项目管理员', blinded: false, queueIds: null, centerIds: null })
    expect(p.me!.authorities).toContain('configure')
    const role = await t.db.kysely.selectFrom('project_role').selectAll().where('project_id', '=', p.id).executeTakeFirstOrThrow()
    expect(role).toMatchObject({ builtin: 'manager', all_queues: 1, all_centers: 1, blinded: 0 })
    const members = await t.db.kysely.selectFrom('project_member').selectAll().where('project_id', '=', p.id).execute()
    expect(members.map((m) => [m.user_id, m.role_id])).toEqual([[userIds.ra, role.id]])
    const log = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'project.create')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect([log.object_type, log.object_id]).toEqual(['project', p.id])
  })

  it('needs project.create: a researcher is refused', async () => {
    const res = await by('res', () => call('POST', '/projects', wizard({}, { number: 'NOPE' })))
    expect(res.statusCode).toBe(403)
  })
})

describe('detail', () => {
  it('shows a limited member only their queues and centers, and counts only their subjects', async () => {
    const p = await create({ centerIds: [centers[0], centers[1], centers[2]] }, { number: 'SCOPE-1' })
    const [qa, qb] = p.queues.map((q) => q.id) as [number, number]
    const at = new Date().toISOString()
    const role = await t.db.kysely
      .insertInto('project_role')
      .values({
        project_id: p.id,
        name: '乙中心录入',
        authorities: '["enrol"]',
        all_queues: 0,
        all_centers: 0,
        builtin: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db.kysely.insertInto('project_role_queue').values({ role_id: role.id, queue_id: qa }).execute()
    await t.db.kysely.insertInto('project_role_center').values({ role_id: role.id, center_id: centers[1]! }).execute()
    await t.db.kysely
      .insertInto('project_member')
      .values({ project_id: p.id, user_id: userIds.res!, role_id: role.id, created_at: at })
      .execute()
    await subject(p.id, qa, centers[0]!, 'S1')
    await subject(p.id, qa, centers[1]!, 'S2')
    await subject(p.id, qb, centers[1]!, 'S3')

    const seen = await by('res', async () => data<ProjectDetail>(await call('GET', `/projects/${p.id}`)))
    expect(seen.queues.map((q) => [q.id, q.subjectCount])).toEqual([[qa, 1]])
    expect(seen.centers.map((c) => [c.id, c.subjectCount])).toEqual([[centers[1], 1]])
    expect(seen.me).toMatchObject({ roleName: '乙中心录入', authorities: ['enrol'], queueIds: [qa], centerIds: [centers[1]] })
    expect(seen.myRole).toBe('乙中心录入')
    expect(seen.subjectCount).toBe(1)
    // The list row counts for them the same way: nothing of center A or queue B.
    await t.db.kysely.updateTable('project').set({ subject_count: 3 }).where('id', '=', p.id).execute()
    const listed = await by('res', async () => data<ProjectPage>(await call('GET', `/projects?scope=multi&q=SCOPE-1`)))
    expect(listed.rows.map((r) => [r.number, r.subjectCount])).toEqual([['SCOPE-1', 1]])

    const all = data<ProjectDetail>(await call('GET', `/projects/${p.id}`))
    expect(all.subjectCount).toBe(3)
    const listedAll = data<ProjectPage>(await call('GET', `/projects?scope=multi&q=SCOPE-1`))
    expect(listedAll.rows.map((r) => r.subjectCount)).toEqual([3])
    expect(all.queues.map((q) => [q.id, q.subjectCount])).toEqual([
      [qa, 2],
      [qb, 1],
    ])
    expect(all.centers.map((c) => c.subjectCount)).toEqual([1, 2, 0])
    await t.db.kysely.deleteFrom('subject').where('project_id', '=', p.id).execute()
  })

  it('a non-member without audit rights gets 403; an auditor sees it once submitted, not as a draft', async () => {
    const p = await create({}, { number: 'SEE-1' })
    const other = await t.createUser('outsider', 'Research1', { roles: ['researcher'] })
    expect(other).toBeGreaterThan(0)
    tokens.outsider = await t.signIn('outsider', 'Research1')
    expect((await by('outsider', () => call('GET', `/projects/${p.id}`))).statusCode).toBe(403)
    expect((await by('outsider', () => call('GET', `/projects/${p.id}/history`))).statusCode).toBe(403)
    const draft = await by('auditor', () => call('GET', `/projects/${p.id}`, undefined, 'en'))
    expect(draft.statusCode).toBe(404)
    expect(json(draft).msg).toBe(`Project ${p.id} does not exist`)
    data(await call('POST', `/projects/${p.id}/submit`))
    const audited = await by('auditor', async () => data<ProjectDetail>(await call('GET', `/projects/${p.id}`)))
    expect(audited).toMatchObject({ status: 'auditing', me: null, myRole: null })
    expect(audited.queues).toHaveLength(2)
  })

  it('an unknown project is 404 in both languages', async () => {
    const zh = await call('GET', '/projects/424242')
    expect(zh.statusCode).toBe(404)
    expect(json(zh).msg).toBe('项目 424242 不存在')
    expect(json(await call('GET', '/projects/424242', undefined, 'en')).msg).toBe('Project 424242 does not exist')
  })
})

describe('base tab', () => {
  it('saves every base field; the number stays unique whatever its case; bad input changes nothing', async () => {
    const p = await create({}, { number: 'BASE-1' })
    await create({}, { number: 'BASE-2' })
    const next = base({
      name: '改名后的研究',
      number: 'base-1',
      blinded: 'double',
      randomMethod: 'simple',
      manageBiomaterial: true,
      followUpTime: '2 年',
    })
    const saved = data<ProjectDetail>(await call('PUT', `/projects/${p.id}/base`, next))
    expect(saved).toMatchObject({
      name: '改名后的研究',
      number: 'base-1',
      blinded: 'double',
      randomMethod: 'simple',
      manageBiomaterial: true,
      followUpTime: '2 年',
    })
    const row = () => t.db.kysely.selectFrom('project').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow()
    const before = await row()
    const taken = await call('PUT', `/projects/${p.id}/base`, { ...next, number: 'Base-2' })
    expect(taken.statusCode).toBe(409)
    expect(json(taken).msg).toBe('项目编号 Base-2 已存在')
    const oneArm = await call('PUT', `/projects/${p.id}/base`, { ...next, groupType: 'single', plannedGroups: 1 }, 'en')
    expect(oneArm.statusCode).toBe(400)
    expect(json(oneArm).msg).toBe('A one-armed test has no random method')
    const disease = await call('PUT', `/projects/${p.id}/base`, { ...next, diseaseId: 999999 })
    expect(json(disease).msg).toBe('病种 999999 不存在')
    expect((await call('PUT', `/projects/${p.id}/base`, { ...next, plannedQuantity: -1 })).statusCode).toBe(400)
    expect(await row()).toEqual(before)
    const log = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'project.update')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect([log.object_type, log.object_id]).toEqual(['project', p.id])
    expect(JSON.parse(log.detail)).toMatchObject({ changed: expect.arrayContaining(['name', 'number', 'blinded']) })
  })

  it('a researcher member without the configure authority is refused', async () => {
    const p = await create({}, { number: 'BASE-3' })
    const role = await t.db.kysely.selectFrom('project_role').select('id').where('project_id', '=', p.id).executeTakeFirstOrThrow()
    await t.db.kysely
      .insertInto('project_member')
      .values({ project_id: p.id, user_id: userIds.res!, role_id: role.id, created_at: new Date().toISOString() })
      .execute()
    // The manager role, but no project.edit permission: both are needed.
    expect((await by('res', () => call('PUT', `/projects/${p.id}/base`, base({ number: 'BASE-3' })))).statusCode).toBe(403)
  })
})

describe('audit flow', () => {
  it('draft → auditing → (unpass) draft → auditing → active → closed, each only from its status, each in the history', async () => {
    const p = await create({ centerIds: [] }, { number: 'FLOW-1' })
    const post = (what: string, payload?: Payload, lang?: 'zh' | 'en') => call('POST', `/projects/${p.id}/${what}`, payload, lang)

    // Multi-center without a center, then without a queue either.
    const noCenter = await post('submit')
    expect(noCenter.statusCode).toBe(400)
    expect(json(noCenter).msg).toBe('提交审核前请先完善：至少一个中心')
    await t.db.kysely.deleteFrom('project_queue').where('project_id', '=', p.id).execute()
    expect(json(await post('submit', undefined, 'en')).msg).toBe(
      'Before submitting to audit, complete: at least one queue, at least one center',
    )
    expect(json(await post('submit')).msg).toBe('提交审核前请先完善：至少一个队列、至少一个中心')
    await t.db.kysely.insertInto('project_queue').values({ project_id: p.id, name: '队列', key: 'Q' }).execute()
    await t.db.kysely.insertInto('project_center').values({ project_id: p.id, center_id: centers[2]! }).execute()

    for (const what of ['pass', 'unpass'] as const) {
      const res = await by('auditor', () => post(what, what === 'unpass' ? { reason: '不全' } : undefined))
      expect(res.statusCode).toBe(409)
      expect(json(res).msg).toBe('项目当前状态为“草稿”，不能执行此操作')
    }
    expect(json(await post('close', {}, 'en')).msg).toBe('The project is "draft": this cannot be done now')

    expect(data<ProjectDetail>(await post('submit')).status).toBe('auditing')
    expect(json(await post('submit')).msg).toBe('项目当前状态为“审核中”，不能执行此操作')
    // Passing is an auditor's grant: a researcher member cannot.
    expect((await by('res', () => post('pass'))).statusCode).toBe(403)

    for (const reason of [{}, { reason: '' }, { reason: '   ' }]) {
      const res = await by('auditor', () => post('unpass', reason))
      expect(res.statusCode).toBe(400)
      expect(json(res).msg).toBe('请输入不通过的原因')
    }
    expect(json(await by('auditor', () => post('unpass', { reason: ' ' }, 'en'))).msg).toBe('Please input the reason for not passing')
    expect((await post('unpass')).statusCode).toBe(400)
    expect((await t.db.kysely.selectFrom('project').select('status').where('id', '=', p.id).executeTakeFirstOrThrow()).status).toBe(
      'auditing',
    )

    const back = await by('auditor', async () => data<ProjectDetail>(await post('unpass', { reason: '缺少纳入标准' })))
    expect(back).toMatchObject({ status: 'draft', statusReason: '缺少纳入标准' })
    expect(data<ProjectDetail>(await call('GET', `/projects/${p.id}`)).statusReason).toBe('缺少纳入标准')

    expect(data<ProjectDetail>(await post('submit'))).toMatchObject({ status: 'auditing', statusReason: '' })
    expect(await by('auditor', async () => data<ProjectDetail>(await post('pass')))).toMatchObject({ status: 'active' })
    expect(json(await by('auditor', () => post('pass'))).msg).toBe('项目当前状态为“进行中”，不能执行此操作')
    expect(data<ProjectDetail>(await post('close', { reason: '研究结束' }))).toMatchObject({ status: 'closed', statusReason: '研究结束' })
    expect(json(await post('close', { reason: '' }, 'en')).msg).toBe('The project is "closed": this cannot be done now')
    const locked = await call('PUT', `/projects/${p.id}/base`, base({ number: 'FLOW-1' }))
    expect(locked.statusCode).toBe(409)
    expect(json(locked).msg).toBe('项目已关闭，不能修改')

    const history = data<HistoryEntry[]>(await call('GET', `/projects/${p.id}/history`))
    expect(history.map((h) => [h.action, h.username])).toEqual([
      ['project.create', 'ra'],
      ['project.submit', 'ra'],
      ['project.unpass', 'auditor'],
      ['project.submit', 'ra'],
      ['project.pass', 'auditor'],
      ['project.close', 'ra'],
    ])
    expect(JSON.parse(history[2]!.detail!)).toMatchObject({ from: 'auditing', to: 'draft', reason: '缺少纳入标准' })
    expect(JSON.parse(history[5]!.detail!)).toMatchObject({ from: 'active', to: 'closed', reason: '研究结束' })
    // The auditor reads it too, as it was submitted once.
    expect(await by('auditor', async () => data<HistoryEntry[]>(await call('GET', `/projects/${p.id}/history`)))).toHaveLength(6)
    const rows = await t.db.kysely
      .selectFrom('audit_log')
      .select(['object_type', 'object_id'])
      .where('action', 'in', ['project.submit', 'project.pass', 'project.unpass', 'project.close'])
      .execute()
    expect(rows.filter((r) => r.object_id === p.id).every((r) => r.object_type === 'project')).toBe(true)
  })
})

describe('delete', () => {
  it('refused with 409 while the project has subjects: nothing deleted', async () => {
    const p = await create({}, { number: 'DEL-1' })
    await subject(p.id, p.queues[0]!.id, centers[0]!, 'S-1')
    await subject(p.id, p.queues[1]!.id, centers[1]!, 'S-2')
    const before = await rowCounts()
    const res = await call('DELETE', `/projects/${p.id}`)
    expect(res.statusCode).toBe(409)
    expect(json(res)).toEqual({ code: 409, msg: '项目下已有 2 个研究对象，不能删除，只能结题关闭', boolResult: false })
    expect(json(await call('DELETE', `/projects/${p.id}`, undefined, 'en')).msg).toBe(
      'The project has 2 research objects: it cannot be deleted, only closed',
    )
    expect(await rowCounts()).toEqual(before)
  })

  it('without subjects every row of the project goes, and the deletion is logged', async () => {
    const p = await create({}, { number: 'DEL-2' })
    const keep = await create({}, { number: 'DEL-KEEP' })
    const at = new Date().toISOString()
    const role = await t.db.kysely
      .insertInto('project_role')
      .values({ project_id: p.id, name: '监查', builtin: null, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db.kysely.insertInto('project_role_queue').values({ role_id: role.id, queue_id: p.queues[0]!.id }).execute()
    await t.db.kysely.insertInto('project_role_center').values({ role_id: role.id, center_id: centers[0]! }).execute()
    await t.db.kysely
      .insertInto('project_member')
      .values({ project_id: p.id, user_id: userIds.res!, role_id: role.id, created_at: at })
      .execute()
    await t.db.kysely
      .insertInto('project_application')
      .values({ project_id: p.id, user_id: userIds.auditor!, role_id: role.id, reason: '想加入', status: 'pending', created_at: at })
      .execute()
    await t.db.kysely.insertInto('randomization_plan').values({ project_id: p.id, method: 'simple', seed: 'abc', updated_at: at }).execute()
    const group = await t.db.kysely
      .insertInto('project_group')
      .values({ project_id: p.id, code: 'T', name: '试验组', ratio: 1 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db.kysely
      .insertInto('allocation')
      .values({ project_id: p.id, stratum: '', seq: 1, block: 0, block_size: 1, group_id: group.id })
      .execute()

    const res = await call('DELETE', `/projects/${p.id}`)
    expect(res.statusCode).toBe(200)
    expect(json(res)).toMatchObject({ code: 0, boolResult: true })
    for (const table of projectTables) {
      if (table === 'project_role_queue' || table === 'project_role_center') continue
      const column = table === 'project' ? 'id' : 'project_id'
      const left = await t.db.kysely.selectFrom(table).select(column).where(column, '=', p.id).execute()
      expect(left, table).toEqual([])
    }
    expect(await t.db.kysely.selectFrom('project_role_queue').selectAll().where('role_id', '=', role.id).execute()).toEqual([])
    expect(await t.db.kysely.selectFrom('project_role_center').selectAll().where('role_id', '=', role.id).execute()).toEqual([])
    expect((await call('GET', `/projects/${p.id}`)).statusCode).toBe(404)
    // The other project is untouched.
    expect(data<ProjectDetail>(await call('GET', `/projects/${keep.id}`)).queues).toHaveLength(2)
    const log = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'project.delete')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect([log.object_type, log.object_id]).toEqual(['project', p.id])
  })

  it('needs the project.delete permission and the configure authority', async () => {
    const p = await create({}, { number: 'DEL-3' })
    expect((await by('res', () => call('DELETE', `/projects/${p.id}`))).statusCode).toBe(403)
    expect((await by('auditor', () => call('DELETE', `/projects/${p.id}`))).statusCode).toBe(403)
    expect((await call('GET', `/projects/${p.id}`)).statusCode).toBe(200)
  })
})
