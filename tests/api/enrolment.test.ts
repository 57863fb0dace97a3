import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HistoryEntry, ProjectDetail } from '../../contract/projects.ts'
import { indicatorInput } from '../../contract/dictionary.ts'
import type { EnrolledSubject } from '../../contract/subjects.ts'
import { insertIndicator } from '../../server/db/repositories/indicators.ts'
import { apiCalls, type Payload } from '../support/apiCalls.ts'
import { addProjectMember, userSwitch } from '../support/projectMembers.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/**
 * Issue 10 item 2, server side: enrolment into a queue of an active project. Every refusal in
 * zh and en with nothing written, generated numbers, a member limited to center A refused on
 * center B, randomization by the plan's list (blinded callers see no group), concurrent
 * enrolments, and a queue holding a subject that can no longer be deleted; on the database of
 * this run (api-sqlite or api-postgres).
 */

let t: TestApp
const tokens: Record<string, string> = {}
const userIds: Record<string, number> = {}
const { current, by } = userSwitch('ra')
let centers: number[] = []
let serial = 0

const { call, json, data } = apiCalls(
  () => t,
  () => tokens[current()]!,
  '/api',
)

beforeAll(async () => {
  t = await testApp()
  userIds.ra = await t.createUser('ra', 'Research1', { roles: ['researchAdmin'] })
  userIds.auditor = await t.createUser('auditor', 'Research1', { roles: ['researchAdmin'] })
  userIds.limited = await t.createUser('limited', 'Research1', { roles: ['dataEntry'] })
  userIds.blind = await t.createUser('blind', 'Research1', { roles: ['dataEntry'] })
  for (const u of ['ra', 'auditor', 'limited', 'blind']) tokens[u] = await t.signIn(u, 'Research1')
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
})
afterAll(() => t.close())

/** A project made by the wizard's call, then submitted and passed unless `active` is false. */
async function project(over: { planned?: number; active?: boolean } = {}): Promise<ProjectDetail> {
  serial += 1
  const p = data<ProjectDetail>(
    await call('POST', '/projects', {
      scope: 'multi',
      base: {
        type: 'prospective',
        name: `入组研究 ${serial}`,
        number: `EN-${serial}`,
        groupType: 'group',
        plannedQuantity: over.planned ?? 20,
        plannedGroups: 2,
      },
      queues: [
        { name: '队列甲', key: 'A', entryCondition: '年龄 ≥ 18\n\n签署知情同意书\n', excludeCondition: '妊娠' },
        { name: '队列乙', key: 'B' },
      ],
      forms: [],
      centerIds: [centers[0], centers[1]],
    }),
  )
  if (over.active === false) return p
  data(await call('POST', `/projects/${p.id}/submit`))
  data(await by('auditor', () => call('POST', `/projects/${p.id}/pass`)))
  return p
}
const queueId = (p: ProjectDetail, key: string) => p.queues.find((q) => q.key === key)!.id

const eligibleA = { inclusion: [true, true], exclusion: [false] }
const none = { inclusion: [], exclusion: [] }
const enrol = (projectId: number, body: Payload, lang?: 'zh' | 'en') => call('POST', `/projects/${projectId}/subjects`, body, lang)

/** What an enrolment writes; a refusal leaves all of it as it was. */
async function snapshot(projectId: number) {
  const count = async (table: 'subject' | 'allocation' | 'audit_log' | 'subject_sequence') =>
    Number(
      (
        await t.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const taken = await t.db.kysely
    .selectFrom('allocation')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('subject_id', 'is not', null)
    .executeTakeFirstOrThrow()
  const p = await t.db.kysely.selectFrom('project').select('subject_count').where('id', '=', projectId).executeTakeFirstOrThrow()
  return {
    subjects: await count('subject'),
    allocations: await count('allocation'),
    taken: Number(taken.n),
    audit: await count('audit_log'),
    sequences: await count('subject_sequence'),
    subjectCount: p.subject_count,
  }
}

/** Refused with `status` and the message in each language, nothing written. */
async function refused(projectId: number, send: (lang: 'zh' | 'en') => ReturnType<typeof call>, status: number, zh: string, en: string) {
  const before = await snapshot(projectId)
  for (const [lang, msg] of [
    ['zh', zh],
    ['en', en],
  ] as const) {
    const res = await send(lang)
    expect(res.statusCode, res.body).toBe(status)
    expect(json(res).msg).toBe(msg)
  }
  expect(await snapshot(projectId)).toEqual(before)
}

describe('enrolment', () => {
  it('enrols with a generated number per center, records the checklist, counts and audits it on the project', async () => {
    const p = await project()
    const first = data<EnrolledSubject>(await enrol(p.id, { queueId: queueId(p, 'A'), centerId: centers[0], checklist: eligibleA }))
    expect(first).toMatchObject({ subjectNo: 'BJ01-0001', queueId: queueId(p, 'A'), centerId: centers[0], status: 'enrolled', group: null })
    const second = data<EnrolledSubject>(
      await enrol(p.id, { queueId: queueId(p, 'B'), centerId: centers[0], subjectNo: '  ', checklist: none }),
    )
    expect(second.subjectNo).toBe('BJ01-0002')
    expect(data<EnrolledSubject>(await enrol(p.id, { queueId: queueId(p, 'B'), centerId: centers[1], checklist: none })).subjectNo).toBe(
      'SH02-0001',
    )
    // A number typed in by hand that the sequence would give next is skipped, not repeated.
    expect(
      data<EnrolledSubject>(await enrol(p.id, { queueId: queueId(p, 'B'), centerId: centers[0], subjectNo: 'bj01-0003', checklist: none }))
        .subjectNo,
    ).toBe('bj01-0003')
    expect(data<EnrolledSubject>(await enrol(p.id, { queueId: queueId(p, 'B'), centerId: centers[0], checklist: none })).subjectNo).toBe(
      'BJ01-0004',
    )

    const row = await t.db.kysely.selectFrom('subject').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'enrolled', enrolled_by: userIds.ra, enrolled_at: first.enrolledAt, group_id: null })
    expect(JSON.parse(row.checklist)).toEqual(eligibleA)
    const proj = await t.db.kysely.selectFrom('project').select('subject_count').where('id', '=', p.id).executeTakeFirstOrThrow()
    expect(proj.subject_count).toBe(5)
    const logged = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'subject.enrol')
      .where('object_type', '=', 'project')
      .where('object_id', '=', p.id)
      .orderBy('id')
      .execute()
    expect(logged).toHaveLength(5)
    expect(JSON.parse(logged[0]!.detail!)).toMatchObject({
      subjectId: first.id,
      subjectNo: 'BJ01-0001',
      queueId: queueId(p, 'A'),
      centerId: centers[0],
    })
    // The project's own history leaves them out: they name subjects of every center, and grow with the study.
    const history = data<HistoryEntry[]>(await call('GET', `/projects/${p.id}/history`))
    expect(history.map((h) => h.action)).toEqual(['project.create', 'project.submit', 'project.pass'])
  })

  it('refuses every bad enrolment in zh and en with nothing written', async () => {
    const p = await project({ planned: 3 })
    const draft = await project({ active: false })
    const other = await project()
    const A = queueId(p, 'A')
    const ok = { queueId: A, centerId: centers[0], checklist: eligibleA }
    const closed = await project()
    data(await call('POST', `/projects/${closed.id}/close`, { reason: '研究结束' }))
    for (const shut of [draft, closed]) {
      await refused(
        shut.id,
        (lang) => enrol(shut.id, { ...ok, queueId: queueId(shut, 'A') }, lang),
        409,
        '项目未处于进行中状态，不能入组',
        'The project is not active: subjects cannot be enrolled',
      )
    }
    const foreign = queueId(other, 'A')
    await refused(
      p.id,
      (lang) => enrol(p.id, { ...ok, queueId: foreign }, lang),
      400,
      `队列 ${foreign} 不属于本项目，或不在你有权入组的队列中`,
      `Queue ${foreign} is not a queue of this project you may enrol in`,
    )
    await refused(
      p.id,
      (lang) => enrol(p.id, { ...ok, centerId: centers[2] }, lang),
      400,
      `中心 ${centers[2]} 不属于本项目，或不在你有权入组的中心中`,
      `Center ${centers[2]} is not a center of this project you may enrol at`,
    )
    for (const checklist of [none, { inclusion: [true, true], exclusion: [] }, { inclusion: [true, true, true], exclusion: [false] }]) {
      await refused(
        p.id,
        (lang) => enrol(p.id, { ...ok, checklist }, lang),
        400,
        '请逐条回答入组条件：纳入标准 2 条，排除标准 1 条',
        'Answer every entry condition: 2 inclusion and 1 exclusion criteria',
      )
    }
    await refused(
      p.id,
      (lang) => enrol(p.id, { ...ok, checklist: { inclusion: [true, false], exclusion: [false] } }, lang),
      400,
      '不符合纳入标准，不能入组：签署知情同意书',
      'Not eligible: inclusion criteria not met: 签署知情同意书',
    )
    // Every unmet criterion is named, not only the first.
    await refused(
      p.id,
      (lang) => enrol(p.id, { ...ok, checklist: { inclusion: [false, false], exclusion: [false] } }, lang),
      400,
      '不符合纳入标准，不能入组：年龄 ≥ 18; 签署知情同意书',
      'Not eligible: inclusion criteria not met: 年龄 ≥ 18; 签署知情同意书',
    )
    await refused(
      p.id,
      (lang) => enrol(p.id, { ...ok, checklist: { inclusion: [true, true], exclusion: [true] } }, lang),
      400,
      '符合排除标准，不能入组：妊娠',
      'Not eligible: exclusion criteria apply: 妊娠',
    )
    expect(json(await enrol(p.id, { ...ok, subjectNo: 'Pt-1' })).code).toBe(0)
    await refused(
      p.id,
      (lang) => enrol(p.id, { ...ok, subjectNo: 'PT-1' }, lang),
      409,
      '研究对象编号 PT-1 已存在',
      'Subject number PT-1 already exists',
    )
    // Typed by a Chinese input method in full-width mode: the same number.
    await refused(
      p.id,
      (lang) => enrol(p.id, { ...ok, subjectNo: 'ＰＴ－１' }, lang),
      409,
      '研究对象编号 PT-1 已存在',
      'Subject number PT-1 already exists',
    )
    for (const subjectNo of ['PT-2\u200b', 'PT\n2', 'PT-2\u0007']) {
      await refused(
        p.id,
        (lang) => enrol(p.id, { ...ok, subjectNo }, lang),
        400,
        '研究对象编号 含有不可见字符或控制字符（如换行、零宽空格），请删除后重试',
        'subject number contains an invisible or control character (such as a line break or a zero-width space); remove it and try again',
      )
    }
    // Fields are named by their label in the caller's language, not as the contract spells them.
    await refused(
      p.id,
      (lang) => enrol(p.id, { ...ok, subjectNo: 'P'.repeat(51) }, lang),
      400,
      '研究对象编号 长度不能超过 50 个字符',
      'subject number must be at most 50 characters',
    )
    await refused(
      p.id,
      (lang) => enrol(p.id, { ...ok, checklist: { inclusion: [true, true] } }, lang),
      400,
      '请输入 排除标准的回答',
      'Please input answers to the exclusion criteria',
    )
    // A letter SQLite's lower() does not fold: the second is refused as taken, never a failure.
    expect(json(await enrol(p.id, { ...ok, subjectNo: 'É-01' })).code).toBe(0)
    await refused(
      p.id,
      (lang) => enrol(p.id, { ...ok, subjectNo: 'É-01' }, lang),
      409,
      '研究对象编号 É-01 已存在',
      'Subject number É-01 already exists',
    )
    expect(json(await enrol(p.id, ok)).code).toBe(0)
    await refused(
      p.id,
      (lang) => enrol(p.id, ok, lang),
      409,
      '已达到计划入组数 3，不能继续入组',
      'The planned quantity of 3 subjects is reached: no more can be enrolled',
    )
  })

  it('a member limited to center A and queue A is refused on center B and queue B as on ones the project lacks; a member without the enrol authority gets 403', async () => {
    const p = await project()
    await addProjectMember(t, p.id, userIds.limited!, { authorities: ['enrol'], centers: [centers[0]!], queues: [queueId(p, 'A')] })
    const ok = { queueId: queueId(p, 'A'), centerId: centers[0], checklist: eligibleA }
    // Center B and queue B are answered word for word as a center and a queue that do not exist.
    for (const centerId of [centers[1]!, 999_999])
      await by('limited', () =>
        refused(
          p.id,
          (lang) => enrol(p.id, { ...ok, centerId }, lang),
          400,
          `中心 ${centerId} 不属于本项目，或不在你有权入组的中心中`,
          `Center ${centerId} is not a center of this project you may enrol at`,
        ),
      )
    for (const queue of [queueId(p, 'B'), 999_999])
      await by('limited', () =>
        refused(
          p.id,
          (lang) => enrol(p.id, { ...ok, queueId: queue, checklist: none }, lang),
          400,
          `队列 ${queue} 不属于本项目，或不在你有权入组的队列中`,
          `Queue ${queue} is not a queue of this project you may enrol in`,
        ),
      )
    expect(data<EnrolledSubject>(await by('limited', () => enrol(p.id, ok))).subjectNo).toBe('BJ01-0001')
    // Not a member of this other project at all.
    const q = await project()
    const res = await by('limited', () => enrol(q.id, { ...ok, queueId: queueId(q, 'A') }))
    expect(res.statusCode).toBe(403)
  })

  async function randomized(perStratum: number, factorIds: number[] = []) {
    const p = await project()
    data(
      await call('PUT', `/projects/${p.id}/randomization`, {
        method: 'stratified',
        groups: [
          { code: 'T', name: '试验组', ratio: 1 },
          { code: 'C', name: '对照组', ratio: 1 },
        ],
        blockSizes: [2],
        strataByCenter: factorIds.length === 0,
        factorIds,
        listSize: perStratum,
      }),
    )
    data(await call('POST', `/projects/${p.id}/randomization/generate`))
    return p
  }
  const entryOf = (subjectId: number) =>
    t.db.kysely
      .selectFrom('allocation as a')
      .innerJoin('project_group as g', 'g.id', 'a.group_id')
      .select(['a.id', 'a.stratum', 'a.seq', 'a.group_id', 'g.code', 'g.name'])
      .where('a.subject_id', '=', subjectId)
      .executeTakeFirstOrThrow()

  it('randomizes by the list: the next entry of the subject’s stratum, the group hidden from blinded members, none once the stratum is used up', async () => {
    const p = await randomized(2)
    await addProjectMember(t, p.id, userIds.blind!, { authorities: ['enrol'], blinded: true })
    const body = (centerId: number) => ({ queueId: queueId(p, 'B'), centerId, checklist: none })
    const open = data<EnrolledSubject>(await enrol(p.id, body(centers[1]!)))
    const e1 = await entryOf(open.id)
    expect(e1).toMatchObject({ stratum: `c${centers[1]}`, seq: 1 })
    expect(open.group).toEqual({ code: e1.code, name: e1.name })
    const s1 = await t.db.kysely.selectFrom('subject').select('group_id').where('id', '=', open.id).executeTakeFirstOrThrow()
    expect(s1.group_id).toBe(e1.group_id)

    const hidden = data<EnrolledSubject>(await by('blind', () => enrol(p.id, body(centers[1]!))))
    expect(hidden.group).toBeNull()
    expect(await entryOf(hidden.id)).toMatchObject({ stratum: `c${centers[1]}`, seq: 2 })
    const logged = await t.db.kysely
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'subject.enrol')
      .where('object_id', '=', p.id)
      .execute()
    for (const l of logged) expect(l.detail).not.toMatch(/试验组|对照组|"group/)

    // Center BJ01's stratum is untouched by SH02's subjects.
    expect(await entryOf(data<EnrolledSubject>(await enrol(p.id, body(centers[0]!))).id)).toMatchObject({
      stratum: `c${centers[0]}`,
      seq: 1,
    })

    await refused(
      p.id,
      (lang) => enrol(p.id, body(centers[1]!), lang),
      409,
      `分层 c${centers[1]} 的随机表已用完或不存在`,
      `The allocation list of stratum c${centers[1]} is used up or missing`,
    )
  })

  it('stratifies by the subject’s own factor answers; a missing or unknown answer is refused with nothing written', async () => {
    const sex = await insertIndicator(
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
      new Date().toISOString(),
    )
    const p = await randomized(2, [sex])
    const body = { queueId: queueId(p, 'B'), centerId: centers[0], checklist: none }
    for (const factors of [undefined, [], [{ indicatorId: sex, code: '9' }]]) {
      await refused(
        p.id,
        (lang) => enrol(p.id, { ...body, ...(factors ? { factors } : {}) }, lang),
        400,
        '请选择分层因素 sex 的取值',
        'Choose a value for the stratification factor sex',
      )
    }
    const s = data<EnrolledSubject>(await enrol(p.id, { ...body, factors: [{ indicatorId: sex, code: '2' }] }))
    expect(await entryOf(s.id)).toMatchObject({ stratum: 'sex=2', seq: 1 })
  })

  it('two enrolments at once get distinct numbers and distinct entries', async () => {
    const p = await randomized(4)
    const body = { queueId: queueId(p, 'B'), centerId: centers[0], checklist: none }
    const [a, b] = (await Promise.all([enrol(p.id, body), enrol(p.id, body)])).map((r) => data<EnrolledSubject>(r))
    expect(new Set([a!.subjectNo, b!.subjectNo])).toEqual(new Set(['BJ01-0001', 'BJ01-0002']))
    const [ea, eb] = [await entryOf(a!.id), await entryOf(b!.id)]
    expect(new Set([ea.seq, eb.seq])).toEqual(new Set([1, 2]))
    const proj = await t.db.kysely.selectFrom('project').select('subject_count').where('id', '=', p.id).executeTakeFirstOrThrow()
    expect(proj.subject_count).toBe(2)
  })

  it('a queue holding an enrolled subject cannot be deleted', async () => {
    const p = await project()
    data(await enrol(p.id, { queueId: queueId(p, 'B'), centerId: centers[0], checklist: none }))
    for (const [lang, msg] of [
      ['zh', '当前队列下存在研究对象，删除失败'],
      ['en', 'There are research objects under the current queue, deletion failed'],
    ] as const) {
      const res = await call('DELETE', `/projects/${p.id}/queues/${queueId(p, 'B')}`, undefined, lang)
      expect(res.statusCode).toBe(409)
      expect(json(res).msg).toBe(msg)
    }
  })
})
