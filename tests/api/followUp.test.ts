import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DuePage, DueRow, ProgressView, SubjectSchedule, VisitPlan } from '../../contract/followUp.ts'
import { addDays } from '../../contract/followUp.ts'
import type { ProjectDetail } from '../../contract/projects.ts'
import type { EnrolledSubject } from '../../contract/subjects.ts'
import { sql } from 'kysely'
import { dueQuery, type DueSlice } from '../../server/db/repositories/followUp.ts'
import { apiCalls, type Method, type Payload } from '../support/apiCalls.ts'
import { explain, type Plan } from '../support/explain.ts'
import { insertSubject } from '../support/memberProjects.ts'
import { testApp, type TestApp } from '../support/testApp.ts'
import { dayIn } from '../../server/services/calendarDay.ts'

/**
 * Issue 10 item 10, server side: the visit schedule (writes by project configurers only, every
 * refusal in zh and en with nothing written), a subject's planned visits and their state, the
 * due and overdue lists (keyset pages, a member of center A never sees center B, not even in the
 * total) and project progress, all in the calendar days of the configured time zone; on the
 * database of this run (api-sqlite or api-postgres).
 */

let t: TestApp
const tokens: Record<string, string> = {}
const userIds: Record<string, number> = {}
let as = 'ra'
let centers: number[] = []

const { call, json, data } = apiCalls(
  () => t,
  () => tokens[as]!,
  '/api',
)
async function by<T>(user: string, fn: () => Promise<T>): Promise<T> {
  const before = as
  as = user
  try {
    return await fn()
  } finally {
    as = before
  }
}

/** The zone this file's server plans in: its days are not UTC days for eight hours of each UTC day. */
const zone = 'Asia/Shanghai'
const today = () => dayIn(new Date(), zone)
const db = () => t.db.kysely

/** A published CRF of the collect type; answers its id and version id. */
async function template(name: string, collectType: string) {
  const at = new Date().toISOString()
  const tpl = await db()
    .insertInto('template')
    .values({ kind: 'crf', name, description: '', collect_type: collectType, status: 1, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  const v = await db()
    .insertInto('template_version')
    .values({ template_id: tpl.id, version: 1, state: 'published', sections: '[]', created_at: at, published_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { templateId: tpl.id, versionId: v.id }
}

let p: ProjectDetail
let visitCrf: { templateId: number; versionId: number }
let labCrf: { templateId: number; versionId: number }
let baseCrf: { templateId: number; versionId: number }
let sampleCrf: { templateId: number; versionId: number }

beforeAll(async () => {
  t = await testApp({ timeZone: zone })
  userIds.ra = await t.createUser('ra', 'Research1', { roles: ['researchAdmin'] })
  userIds.auditor = await t.createUser('auditor', 'Research1', { roles: ['researchAdmin'] })
  userIds.limited = await t.createUser('limited', 'Research1', { roles: ['dataEntry'] })
  userIds.outsider = await t.createUser('outsider', 'Research1', { roles: ['dataEntry'] })
  for (const u of ['ra', 'auditor', 'limited', 'outsider']) tokens[u] = await t.signIn(u, 'Research1')
  const at = new Date().toISOString()
  centers = (
    await db()
      .insertInto('center')
      .values(['BJ01', 'SH02'].map((code) => ({ code, name_zh: `中心${code}`, name_en: `Center ${code}`, created_at: at, updated_at: at })))
      .returning('id')
      .execute()
  ).map((r) => r.id)
  visitCrf = await template('随访表', 'followUp')
  labCrf = await template('化验表', 'followUp')
  baseCrf = await template('基线表', 'object')
  sampleCrf = await template('样本表', 'biomaterial')
  p = data<ProjectDetail>(
    await call('POST', '/projects', {
      scope: 'multi',
      base: { type: 'prospective', name: '随访研究', number: 'FU-1', groupType: 'group', plannedQuantity: 40, plannedGroups: 2 },
      queues: [
        { name: '队列甲', key: 'A' },
        { name: '队列乙', key: 'B' },
      ],
      forms: [baseCrf, visitCrf, labCrf, sampleCrf],
      centerIds: centers,
    }),
  )
  data(await call('POST', `/projects/${p.id}/submit`))
  data(await by('auditor', () => call('POST', `/projects/${p.id}/pass`)))
  // A member limited to center A (BJ01), with no configure authority.
  const role = await db()
    .insertInto('project_role')
    .values({
      project_id: p.id,
      name: 'limited role',
      authorities: JSON.stringify(['enterData']),
      all_queues: 1,
      all_centers: 0,
      blinded: 0,
      builtin: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db().insertInto('project_role_center').values({ role_id: role.id, center_id: centers[0]! }).execute()
  await db()
    .insertInto('project_member')
    .values({ project_id: p.id, user_id: userIds.limited!, role_id: role.id, created_at: at })
    .execute()
})
afterAll(() => t.close())

const visitsUrl = () => `/projects/${p.id}/visits`
const visitCount = async () =>
  Number(
    (
      await db()
        .selectFrom('visit')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

async function refused(method: Method, url: string, body: Payload | undefined, status: number, zh: string, en: string) {
  const before = JSON.stringify([
    await db().selectFrom('visit').selectAll().orderBy('id').execute(),
    await db().selectFrom('visit_form').selectAll().execute(),
  ])
  for (const [lang, text] of [
    ['zh', zh],
    ['en', en],
  ] as const) {
    const res = await call(method, url, body, lang)
    expect(res.statusCode, res.body).toBe(status)
    expect(json(res).msg).toContain(text)
  }
  const after = JSON.stringify([
    await db().selectFrom('visit').selectAll().orderBy('id').execute(),
    await db().selectFrom('visit_form').selectAll().execute(),
  ])
  expect(after).toBe(before)
}

/** Enrols a subject through the API, then moves its enrolment day `daysAgo` into the past (a fixture: enrolment always stamps now). */
async function subject(center: number, daysAgo: number): Promise<EnrolledSubject> {
  const s = data<EnrolledSubject>(
    await call('POST', `/projects/${p.id}/subjects`, {
      queueId: p.queues[0]!.id,
      centerId: center,
      checklist: { inclusion: [], exclusion: [] },
    }),
  )
  const enrolledAt = `${addDays(today(), -daysAgo)}T08:00:00.000Z`
  await db().updateTable('subject').set({ enrolled_at: enrolledAt }).where('id', '=', s.id).execute()
  return { ...s, enrolledAt }
}

/** A visit record as the entry screen writes it (slot 'v<visitId>'). */
async function record(s: EnrolledSubject, crf: { templateId: number; versionId: number }, visitId: number, status = 'saved') {
  const at = new Date().toISOString()
  await db()
    .insertInto('form_record')
    .values({
      project_id: p.id,
      subject_id: s.id,
      center_id: s.centerId,
      queue_id: s.queueId,
      template_id: crf.templateId,
      version_id: crf.versionId,
      slot: `v${visitId}`,
      visit_id: visitId,
      status,
      created_at: at,
      updated_at: at,
    })
    .execute()
}

let v1: number
let v2: number

describe('visit schedule', () => {
  it('adds, changes and lists visits in day order; offers only pinned follow-up CRFs; logs each change', async () => {
    const empty = data<VisitPlan>(await call('GET', visitsUrl()))
    expect(empty.visits).toEqual([])
    expect(empty.followUpForms.map((f) => f.templateId)).toEqual([visitCrf.templateId, labCrf.templateId])

    let plan = data<VisitPlan>(
      await call('POST', visitsUrl(), {
        name: '第 4 周',
        dayOffset: 28,
        windowBefore: 3,
        windowAfter: 3,
        templateIds: [visitCrf.templateId, labCrf.templateId],
      }),
    )
    plan = data<VisitPlan>(
      await call('POST', visitsUrl(), {
        name: '第 1 周',
        dayOffset: 7,
        windowBefore: 2,
        windowAfter: 2,
        templateIds: [visitCrf.templateId],
      }),
    )
    expect(plan.visits.map((v) => [v.name, v.dayOffset, v.forms.map((f) => f.name)])).toEqual([
      ['第 1 周', 7, ['随访表']],
      ['第 4 周', 28, ['随访表', '化验表']],
    ])
    v1 = plan.visits[0]!.id
    v2 = plan.visits[1]!.id
    plan = data<VisitPlan>(
      await call('PUT', `${visitsUrl()}/${v1}`, {
        name: 'Week 1',
        dayOffset: 7,
        windowBefore: 1,
        windowAfter: 2,
        templateIds: [visitCrf.templateId],
      }),
    )
    expect(plan.visits[0]).toMatchObject({ id: v1, name: 'Week 1', windowBefore: 1, windowAfter: 2, records: 0 })
    const logged = await db().selectFrom('audit_log').select(['action']).where('action', 'like', 'project.visit.%').execute()
    expect(logged.map((l) => l.action)).toEqual(['project.visit.create', 'project.visit.create', 'project.visit.update'])
  })

  it('bad input is refused in the caller’s language and writes nothing', async () => {
    const good = { name: 'Week 8', dayOffset: 56, windowBefore: 3, windowAfter: 3, templateIds: [visitCrf.templateId] }
    await refused(
      'POST',
      visitsUrl(),
      { ...good, templateIds: [baseCrf.templateId] },
      400,
      `CRF ${baseCrf.templateId} 不是`,
      'is not a follow-up CRF',
    )
    await refused('POST', visitsUrl(), { ...good, templateIds: [999999] }, 400, 'CRF 999999', 'CRF 999999')
    await refused('POST', visitsUrl(), { ...good, templateIds: [visitCrf.templateId, visitCrf.templateId] }, 400, '只能选一次', 'only once')
    await refused('POST', visitsUrl(), { ...good, name: 'WEEK 1' }, 409, '已存在', 'already exists')
    await refused('PUT', `${visitsUrl()}/${v2}`, { ...good, name: 'week 1' }, 409, '已存在', 'already exists')
    await refused('POST', visitsUrl(), { ...good, dayOffset: -1 }, 400, 'dayOffset', 'dayOffset')
    await refused('POST', visitsUrl(), { ...good, windowAfter: 366 }, 400, 'windowAfter', 'windowAfter')
    await refused('POST', visitsUrl(), { ...good, templateIds: [] }, 400, '表单ID 不能少于 1 项', 'form ids must have at least 1 item')
    await refused('POST', visitsUrl(), { ...good, name: '  ' }, 400, 'name', 'name')
    await refused('POST', visitsUrl(), { ...good, dayOffset: '7' }, 400, 'dayOffset', 'dayOffset')
    await refused('PUT', `${visitsUrl()}/999999`, good, 404, '访视 999999 不存在', 'Visit 999999 does not exist')
    await refused('DELETE', `${visitsUrl()}/999999`, undefined, 404, '访视 999999', 'Visit 999999')
    expect(await visitCount()).toBe(2)
  })

  it('members read the schedule; only configurers change it; non-members neither', async () => {
    expect(data<VisitPlan>(await by('limited', () => call('GET', visitsUrl()))).visits).toHaveLength(2)
    const body = { name: 'X', dayOffset: 1, windowBefore: 0, windowAfter: 0, templateIds: [visitCrf.templateId] }
    expect((await by('limited', () => call('POST', visitsUrl(), body))).statusCode).toBe(403)
    expect((await by('limited', () => call('DELETE', `${visitsUrl()}/${v1}`))).statusCode).toBe(403)
    expect((await by('outsider', () => call('GET', visitsUrl()))).statusCode).toBe(403)
    expect(await visitCount()).toBe(2)
  })
})

describe('a draft project with a schedule', () => {
  it('is scheduled before it is active, and deleting it takes its visits along', async () => {
    const draft = data<ProjectDetail>(
      await call('POST', '/projects', {
        scope: 'multi',
        base: { type: 'prospective', name: '草稿随访', number: 'FU-D', groupType: 'group', plannedQuantity: 5, plannedGroups: 2 },
        queues: [{ name: '队列', key: 'A' }],
        forms: [visitCrf],
        centerIds: [centers[0]],
      }),
    )
    const url = `/projects/${draft.id}/visits`
    data(await call('POST', url, { name: 'W1', dayOffset: 7, windowBefore: 1, windowAfter: 1, templateIds: [visitCrf.templateId] }))
    const visitIds = (await db().selectFrom('visit').select('id').where('project_id', '=', draft.id).execute()).map((v) => v.id)
    expect(visitIds).toHaveLength(1)
    data(await call('DELETE', `/projects/${draft.id}`))
    expect(await db().selectFrom('visit').select('id').where('project_id', '=', draft.id).execute()).toEqual([])
    expect(await db().selectFrom('visit_form').select('visit_id').where('visit_id', 'in', visitIds).execute()).toEqual([])
  })
})

describe('planned visits, due and overdue lists', () => {
  const s: Record<string, EnrolledSubject> = {}

  beforeAll(async () => {
    // Week 1 (day 7, window -1/+2), week 4 (day 28, ±3). Center A: a0..a4; center B: b0, b1.
    s.a0 = await subject(centers[0]!, 0) // week 1 upcoming
    s.a1 = await subject(centers[0]!, 6) // week 1 due (window opens day 6)
    s.a2 = await subject(centers[0]!, 9) // week 1 due (window closes day 9)
    s.a3 = await subject(centers[0]!, 10) // week 1 overdue; done below
    s.a4 = await subject(centers[0]!, 40) // week 1 overdue, week 4 overdue (half done)
    s.b0 = await subject(centers[1]!, 7) // week 1 due
    s.b1 = await subject(centers[1]!, 30) // week 1 overdue, week 4 due
    await record(s.a3, visitCrf, v1)
    await record(s.a4, visitCrf, v2, 'signed')
  })

  async function page(user: string, query: string): Promise<DuePage> {
    return data<DuePage>(await by(user, () => call('GET', `/projects/${p.id}/follow-up?${query}`)))
  }
  /** Every row, walking pages of `limit`. */
  async function walk(user: string, query: string, limit: number): Promise<{ rows: DueRow[]; pages: number; total: number }> {
    const rows: DueRow[] = []
    let after: string | null = null
    let pages = 0
    let total = 0
    do {
      const r = await page(user, `${query}&limit=${limit}${after ? `&after=${after}` : ''}`)
      rows.push(...r.rows)
      total = r.total
      after = r.next
      pages += 1
    } while (after && pages < 20)
    return { rows, pages, total }
  }
  const keys = (rows: DueRow[]) => rows.map((r) => `${r.visitName}:${r.subjectNo}`)

  it("a subject's planned dates, windows and states", async () => {
    const sched = data<SubjectSchedule>(await call('GET', `/projects/${p.id}/subjects/${s.a4!.id}/visits`))
    const enrolled = addDays(today(), -40)
    expect(sched.today).toBe(today())
    expect(sched.visits.map((v) => [v.name, v.plannedDate, v.windowStart, v.windowEnd, v.state])).toEqual([
      ['Week 1', addDays(enrolled, 7), addDays(enrolled, 6), addDays(enrolled, 9), 'overdue'],
      ['第 4 周', addDays(enrolled, 28), addDays(enrolled, 25), addDays(enrolled, 31), 'overdue'],
    ])
    expect(sched.visits[1]!.forms.map((f) => [f.name, f.status])).toEqual([
      ['随访表', 'signed'],
      ['化验表', null],
    ])
    const states = async (x: EnrolledSubject) =>
      data<SubjectSchedule>(await call('GET', `/projects/${p.id}/subjects/${x.id}/visits`)).visits.map((v) => v.state)
    expect(await states(s.a0!)).toEqual(['upcoming', 'upcoming'])
    expect(await states(s.a1!)).toEqual(['due', 'upcoming'])
    expect(await states(s.a3!)).toEqual(['done', 'upcoming'])
    expect(await states(s.b1!)).toEqual(['overdue', 'due'])
  })

  it('another center’s subject is not found for a member of center A, exactly like an unknown one', async () => {
    const other = await by('limited', () => call('GET', `/projects/${p.id}/subjects/${s.b0!.id}/visits`, undefined, 'en'))
    const unknown = await by('limited', () => call('GET', `/projects/${p.id}/subjects/999999/visits`, undefined, 'en'))
    expect([other.statusCode, unknown.statusCode]).toEqual([404, 404])
    expect(json(other).msg).toContain(`Research object ${s.b0!.id} does not exist`)
    expect((await by('limited', () => call('GET', `/projects/${p.id}/subjects/${s.a1!.id}/visits`))).statusCode).toBe(200)
    expect((await by('outsider', () => call('GET', `/projects/${p.id}/subjects/${s.a1!.id}/visits`))).statusCode).toBe(403)
  })

  it('due and overdue lists: visit order then enrolment order, every page alike, totals right', async () => {
    const d = await walk('ra', 'state=due', 1)
    expect(keys(d.rows)).toEqual([
      `Week 1:${s.a2!.subjectNo}`,
      `Week 1:${s.b0!.subjectNo}`,
      `Week 1:${s.a1!.subjectNo}`,
      `第 4 周:${s.b1!.subjectNo}`,
    ])
    expect(d.total).toBe(4)
    expect(d.pages).toBe(4)
    const o = await walk('ra', 'state=overdue', 2)
    expect(keys(o.rows)).toEqual([`Week 1:${s.a4!.subjectNo}`, `Week 1:${s.b1!.subjectNo}`, `第 4 周:${s.a4!.subjectNo}`])
    expect(o.total).toBe(3)
    const row = o.rows[2]!
    expect(row).toMatchObject({ missing: 1, centerCode: 'BJ01', queueName: '队列甲', plannedDate: addDays(today(), -40 + 28) })
    // One page holding everything has no next page.
    const all = await page('ra', 'state=overdue&limit=3')
    expect([all.rows.length, all.next]).toEqual([3, null])
  })

  it('a member of center A sees only center A in rows and totals; filters by center, queue and visit', async () => {
    const d = await walk('limited', 'state=due', 1)
    expect(keys(d.rows)).toEqual([`Week 1:${s.a2!.subjectNo}`, `Week 1:${s.a1!.subjectNo}`])
    expect(d.total).toBe(2)
    const asksB = await page('limited', `state=overdue&centerId=${centers[1]}`)
    expect([asksB.rows, asksB.total]).toEqual([[], 0])
    const b = await page('ra', `state=due&centerId=${centers[1]}`)
    expect(keys(b.rows)).toEqual([`Week 1:${s.b0!.subjectNo}`, `第 4 周:${s.b1!.subjectNo}`])
    const w4 = await page('ra', `state=due&visitId=${v2}`)
    expect(keys(w4.rows)).toEqual([`第 4 周:${s.b1!.subjectNo}`])
    const q2 = await page('ra', `state=due&queueId=${p.queues[1]!.id}`)
    expect(q2.total).toBe(0)
    expect((await by('outsider', () => call('GET', `/projects/${p.id}/follow-up`))).statusCode).toBe(403)
  })

  it('a forged cursor or a bad state is refused', async () => {
    for (const [q, field] of [
      ['after=bm90LWEtY3Vyc29y', 'page position is not valid'],
      [`after=${Buffer.from(JSON.stringify([1, 'x', 99999999999])).toString('base64url')}`, 'page position is not valid'],
      ['state=late', 'state'],
      ['limit=0', 'page size must be at least 1'],
    ] as const) {
      const res = await call('GET', `/projects/${p.id}/follow-up?${q}`, undefined, 'en')
      expect(res.statusCode, q).toBe(400)
      expect(json(res).msg).toContain(field)
    }
  })

  it('a visit with records cannot be deleted; one without can', async () => {
    await refused('DELETE', `${visitsUrl()}/${v1}`, undefined, 409, '已录入 1 份表单', 'has 1 form entered')
    const extra = data<VisitPlan>(
      await call('POST', visitsUrl(), {
        name: 'Week 12',
        dayOffset: 84,
        windowBefore: 7,
        windowAfter: 7,
        templateIds: [labCrf.templateId],
      }),
    )
    const id = extra.visits.find((v) => v.name === 'Week 12')!.id
    const after = data<VisitPlan>(await call('DELETE', `${visitsUrl()}/${id}`))
    expect(after.visits.map((v) => v.name)).toEqual(['Week 1', '第 4 周'])
    expect(after.visits.map((v) => v.records)).toEqual([1, 1])
  })

  it('un-pinning a CRF a visit collects, or one holding entered forms, is refused in both languages; nothing changes', async () => {
    const pins = async () =>
      JSON.stringify(await db().selectFrom('project_form').selectAll().where('project_id', '=', p.id).orderBy('sort').execute())
    const before = await pins()
    const without = (crf: { templateId: number }) => ({ forms: [baseCrf, visitCrf, labCrf, sampleCrf].filter((f) => f !== crf) })
    for (const [lang, text] of [
      ['zh', '访视“Week 1”采集模板“随访表”，请先从访视中移除'],
      ['en', 'Visit "Week 1" collects template "随访表": remove it from the visit first'],
    ] as const) {
      const res = await call('PUT', `/projects/${p.id}/forms`, without(visitCrf), lang)
      expect(res.statusCode, res.body).toBe(409)
      expect(json(res).msg).toBe(text)
    }
    // The baseline CRF: no visit collects it, but a subject's form holds data.
    const at = new Date().toISOString()
    const held = await db()
      .insertInto('form_record')
      .values({
        project_id: p.id,
        subject_id: s.a0!.id,
        center_id: s.a0!.centerId,
        queue_id: s.a0!.queueId,
        template_id: baseCrf.templateId,
        version_id: baseCrf.versionId,
        slot: '',
        status: 'saved',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const [lang, text] of [
      ['zh', '模板“基线表”已有 1 份录入数据，不能移除'],
      ['en', 'Template "基线表" holds 1 entered forms and cannot be removed'],
    ] as const) {
      const res = await call('PUT', `/projects/${p.id}/forms`, without(baseCrf), lang)
      expect(res.statusCode, res.body).toBe(409)
      expect(json(res).msg).toBe(text)
    }
    expect(await pins()).toBe(before)
    // The progress below counts the baseline CRF as empty.
    await db().deleteFrom('form_record').where('id', '=', held.id).execute()
  })

  it('progress: enrolment by month, center and queue against plan, CRF completion; a member of center A counts center A only', async () => {
    const all = data<ProgressView>(await call('GET', `/projects/${p.id}/progress`))
    expect([all.plannedQuantity, all.wholeProject, all.enrolled]).toEqual([40, true, 7])
    expect(all.enrolment.reduce((n, e) => n + e.count, 0)).toBe(7)
    const month = addDays(today(), -40).slice(0, 7)
    expect(all.enrolment.find((e) => e.month === month && e.centerId === centers[0])?.count).toBeGreaterThanOrEqual(1)
    expect(all.enrolment.map((e) => e.month)).toEqual([...all.enrolment.map((e) => e.month)].sort())
    expect(all.today).toBe(today())
    // A follow-up CRF is expected at the visits whose window has opened by today: week 1 (opening
    // on day 6) for all but a0 (a1 opens today), week 4 (day 25) for a4 and b1; the baseline once per subject.
    const byForm = Object.fromEntries(all.forms.map((f) => [f.name, [f.basis, f.expected, f.saved, f.signed]]))
    expect(byForm).toEqual({
      基线表: ['subjects', 7, 0, 0],
      随访表: ['dueVisits', 6 + 2, 1, 1],
      化验表: ['dueVisits', 2, 0, 0],
      样本表: ['samples', null, 0, 0],
    })

    const mine = data<ProgressView>(await by('limited', () => call('GET', `/projects/${p.id}/progress`)))
    // The plan is the project's (it has no per-center targets): said to be so, not center A's.
    expect([mine.plannedQuantity, mine.wholeProject, mine.enrolled]).toEqual([40, false, 5])
    expect(mine.centers.map((c) => c.code)).toEqual(['BJ01'])
    expect(mine.enrolment.every((e) => e.centerId === centers[0])).toBe(true)
    expect(mine.forms.find((f) => f.name === '随访表')).toMatchObject({ expected: 4 + 1, saved: 1, signed: 1 })
    // A role naming every center of the project sees the whole project.
    const roleId = (await db().selectFrom('project_role_center').select('role_id').executeTakeFirstOrThrow()).role_id
    await db().insertInto('project_role_center').values({ role_id: roleId, center_id: centers[1]! }).execute()
    try {
      const everyCenter = data<ProgressView>(await by('limited', () => call('GET', `/projects/${p.id}/progress`)))
      expect([everyCenter.wholeProject, everyCenter.enrolled]).toEqual([true, 7])
    } finally {
      await db().deleteFrom('project_role_center').where('role_id', '=', roleId).where('center_id', '=', centers[1]!).execute()
    }
  })

  it('progress: a visit entered before its window opens counts neither as expected nor as entered', async () => {
    await record(s.a0!, visitCrf, v1)
    try {
      const { forms } = data<ProgressView>(await call('GET', `/projects/${p.id}/progress`))
      expect(forms.find((f) => f.name === '随访表')).toMatchObject({ expected: 8, saved: 1, signed: 1 })
    } finally {
      await db().deleteFrom('form_record').where('subject_id', '=', s.a0!.id).execute()
    }
    expect((await by('outsider', () => call('GET', `/projects/${p.id}/progress`))).statusCode).toBe(403)
  })

  it('progress months are months of the zone: 23:00 UTC on 31 January is 1 February in Shanghai', async () => {
    const at = '2021-01-31T23:00:00.000Z'
    const id = await insertSubject(t, { projectId: p.id, queueId: p.queues[0]!.id, centerId: centers[1]!, subjectNo: 'ZONE-1', at })
    try {
      const { enrolment } = data<ProgressView>(await call('GET', `/projects/${p.id}/progress`))
      const early = enrolment.filter((e) => e.month === '2021-01' || e.month === '2021-02')
      expect(early).toEqual([{ month: '2021-02', centerId: centers[1], queueId: p.queues[0]!.id, count: 1 }])
    } finally {
      await db().deleteFrom('subject').where('id', '=', id).execute()
    }
  })

  it('a closed project keeps its schedule', async () => {
    await db().updateTable('project').set({ status: 'closed' }).where('id', '=', p.id).execute()
    try {
      await refused(
        'POST',
        visitsUrl(),
        { name: 'Late', dayOffset: 1, windowBefore: 0, windowAfter: 0, templateIds: [visitCrf.templateId] },
        409,
        '项目已关闭',
        'The project is closed',
      )
    } finally {
      await db().updateTable('project').set({ status: 'active' }).where('id', '=', p.id).execute()
    }
  })
})

describe('calendar days of the configured time zone', () => {
  it('a subject enrolled at 07:00 in Beijing, 23:00 UTC the day before, has its visits planned from the Beijing day', async () => {
    const plan = data<VisitPlan>(await call('GET', visitsUrl()))
    const week1 = plan.visits.find((v) => v.name === 'Week 1')!
    // The Beijing day whose week-1 window closes today: due today by Beijing days, overdue by UTC days.
    const enrolledDay = addDays(today(), -week1.dayOffset - week1.windowAfter)
    const instant = Date.parse(`${addDays(enrolledDay, -1)}T23:00:00.000Z`)
    const shift = instant - Date.now()
    t.advance(shift)
    let s: EnrolledSubject
    try {
      s = data<EnrolledSubject>(
        await call('POST', `/projects/${p.id}/subjects`, {
          queueId: p.queues[0]!.id,
          centerId: centers[0]!,
          checklist: { inclusion: [], exclusion: [] },
        }),
      )
    } finally {
      t.advance(-shift)
    }
    expect(s.enrolledAt).toMatch(new RegExp(`^${addDays(enrolledDay, -1)}T23:00`))
    const sched = data<SubjectSchedule>(await call('GET', `/projects/${p.id}/subjects/${s.id}/visits`))
    // The day it shows as enrolled is the one its visits count from, not the UTC day of the instant.
    expect(sched.enrolledDay).toBe(enrolledDay)
    expect(sched.visits.map((v) => v.plannedDate)).toEqual(plan.visits.map((v) => addDays(enrolledDay, v.dayOffset)))
    expect(sched.visits[0]!.state).toBe('due')
    const listed = async (state: string) =>
      data<DuePage>(await call('GET', `/projects/${p.id}/follow-up?state=${state}&visitId=${week1.id}&limit=100`)).rows.map((r) => [
        r.subjectId,
        r.plannedDate,
      ])
    expect(await listed('due')).toContainEqual([s.id, addDays(enrolledDay, week1.dayOffset)])
    expect((await listed('overdue')).map(([id]) => id)).not.toContain(s.id)
  })
})

describe('the due list plan', () => {
  beforeAll(async () => {
    // 3,000 subjects enrolled over the last 300 days in both centers, none with records.
    const at = new Date().toISOString()
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      project_id: p.id,
      queue_id: p.queues[i % 2]!.id,
      center_id: centers[i % 2]!,
      subject_no: `BULK-${i}`,
      enrolled_at: `${addDays(today(), -(i % 300))}T0${i % 10}:00:00.000Z`,
      created_at: at,
      updated_at: at,
    }))
    for (let i = 0; i < rows.length; i += 500)
      await db()
        .insertInto('subject')
        .values(rows.slice(i, i + 500))
        .execute()
    await sql`ANALYZE`.execute(db())
  }, 60_000)

  const show = (plan: Plan) => plan.lines.join(' | ')
  const slice = (centerIds: number[] | null): DueSlice => ({
    projectId: p.id,
    scope: { kind: 'project', projectId: p.id, queueIds: null, centerIds },
    visitId: v2,
    from: addDays(today(), -200),
    before: addDays(today(), -20),
  })

  it('first and deep pages of a visit read subject_enrolled_idx in order, without a sort, also for a center-scoped member', async () => {
    for (const centerIds of [null, [centers[0]!]]) {
      for (const after of [null, [`${addDays(today(), -60)}T05:00:00.000Z`, 2000] as const]) {
        const plan = await explain(t.db, dueQuery(db(), slice(centerIds), after, 101).compile(), { sortFreeIfAny: true })
        expect(plan.sorts, show(plan)).toEqual([])
        if (t.db.dialect === 'sqlite') expect(plan.indexes, show(plan)).toContain('subject_enrolled_idx')
      }
    }
  })
})
