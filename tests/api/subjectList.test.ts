import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KyselyPlugin } from 'kysely'
import { templatePaths, type Template, type VersionInfo } from '../../contract/crf.ts'
import { dictionaryPaths, type Indicator } from '../../contract/dictionary.ts'
import type { ProjectDetail } from '../../contract/projects.ts'
import type { ButtonAuthority } from '../../contract/studyObject.ts'
import type { DisplayField, DisplayFieldInfo, HeaderColumn, Neighbours, SubjectPage, SubjectRow } from '../../contract/subjectList.ts'
import type { EnrolledSubject } from '../../contract/subjects.ts'
import { buildApp } from '../../server/app.ts'
import { toJson } from '../../server/db/json.ts'
import { apiCalls, type Payload } from '../support/apiCalls.ts'
import { addProjectMember, userSwitch } from '../support/projectMembers.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/**
 * Issue 10 item 1, server side: the research-object list. Columns (fixed + chosen indicators),
 * keyset pages in every sort order, filters per column, totals from the counters, the caller's
 * centers only (rows, totals, neighbours), blinded callers without groups, the button authority
 * from the project role, and bad input refused in zh and en with nothing changed.
 */

let t: TestApp
const tokens: Record<string, string> = {}
const userIds: Record<string, number> = {}
const { current, by } = userSwitch('ra')
let centers: number[] = []
let p: ProjectDetail
let age: Indicator
let sex: Indicator
let visitNote: Indicator
const subjects: EnrolledSubject[] = []

const { call, json, data } = apiCalls(
  () => t,
  () => tokens[current()]!,
  '/api',
)

const base = 'scientific/studyObject'
const page = async (query: Record<string, string | number>) =>
  data<SubjectPage>(await call('GET', `/${base}/pageList?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`))
const filter = (...f: { column: string; op: string; value?: string }[]) => JSON.stringify(f)

/** Every row of the list, page by page, and the totals each page gave. */
async function walk(query: Record<string, string | number>) {
  const ids: number[] = []
  const totals: number[] = []
  let after: string | null = null
  for (;;) {
    const r: SubjectPage = await page({ ...query, limit: 3, ...(after ? { after } : {}) })
    ids.push(...r.rows.map((x) => x.id))
    totals.push(r.total)
    if (!r.next) break
    after = r.next
  }
  return { ids, totals }
}

async function publishedCrf(name: string, collectType: string, sections: { key: string; ids: number[]; repeating?: boolean }[]) {
  const crf = data<Template>(await call('POST', '/templates', { kind: 'crf', name, collectType }))
  data(
    await call('PUT', `/${templatePaths.layout(crf.id).slice(4)}`, {
      sections: sections.map((s) => ({
        key: s.key,
        title: s.key,
        repeating: s.repeating ?? false,
        items: s.ids.map((indicatorId) => ({ indicatorId, required: false })),
      })),
    }),
  )
  data(await call('POST', `/${templatePaths.publishCrf.slice(4)}?id=${crf.id}`))
  const versions = data<VersionInfo[]>(await call('GET', `/${templatePaths.versions(crf.id).slice(4)}`))
  return { templateId: crf.id, versionId: versions.find((v) => v.state === 'published')!.id }
}

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
      .values(['BJ01', 'SH02'].map((code) => ({ code, name_zh: `中心${code}`, name_en: `Center ${code}`, created_at: at, updated_at: at })))
      .returning('id')
      .execute()
  ).map((r) => r.id)

  const indicator = async (payload: Payload) => data<Indicator>(await call('POST', `/${dictionaryPaths.indicators.slice(4)}`, payload))
  age = await indicator({ code: 'L_AGE', nameZh: '年龄', nameEn: 'Age', type: 'blank', display: 'input' })
  sex = await indicator({
    code: 'L_SEX',
    nameZh: '性别',
    nameEn: 'Sex',
    type: 'multiple',
    display: 'checkbox',
    options: [
      { code: 'm', labelZh: '男', labelEn: 'Male' },
      { code: 'f', labelZh: '女', labelEn: 'Female' },
    ],
  })
  const drug = await indicator({ code: 'L_DRUG', nameZh: '用药', nameEn: 'Drug', type: 'blank', display: 'input' })
  visitNote = await indicator({ code: 'L_VISIT', nameZh: '随访说明', nameEn: 'Visit note', type: 'blank', display: 'input' })
  const baseline = await publishedCrf('列表基线', 'object', [
    { key: 'main', ids: [age.id, sex.id] },
    { key: 'drugs', ids: [drug.id], repeating: true },
  ])
  const visit = await publishedCrf('列表随访', 'followUp', [{ key: 'main', ids: [visitNote.id] }])

  p = data<ProjectDetail>(
    await call('POST', '/projects', {
      scope: 'multi',
      base: { type: 'prospective', name: '列表研究', number: 'LS-1', groupType: 'group', plannedQuantity: 100, plannedGroups: 2 },
      queues: [
        { name: '队列甲', key: 'A' },
        { name: '队列乙', key: 'B' },
      ],
      forms: [baseline, visit],
      centerIds: centers,
    }),
  )
  data(await call('POST', `/projects/${p.id}/submit`))
  data(await by('auditor', () => call('POST', `/projects/${p.id}/pass`)))
  await addProjectMember(t, p.id, userIds.limited!, { authorities: ['enterData'], centers: [centers[0]!] })
  await addProjectMember(t, p.id, userIds.blind!, { authorities: ['enterData'], blinded: true })

  // 12 subjects over two centers and two queues, with summary values as the entry service keeps them.
  for (let i = 0; i < 12; i++) {
    const queueId = p.queues[i % 2]!.id
    const s = data<EnrolledSubject>(
      await call('POST', `/projects/${p.id}/subjects`, {
        queueId,
        centerId: centers[i % 3 === 0 ? 1 : 0],
        checklist: { inclusion: [], exclusion: [] },
      }),
    )
    subjects.push(s)
    const summary: Record<string, string> = { [`f${age.id}`]: String(20 + ((i * 7) % 12)) }
    if (i % 4 !== 0) summary[`f${sex.id}`] = i % 2 ? 'm' : 'f|m'
    await t.db.kysely
      .updateTable('subject')
      .set({ summary: toJson(summary) })
      .where('id', '=', s.id)
      .execute()
  }
  // One randomized group, set directly (randomization is another area's).
  const g = await t.db.kysely
    .insertInto('project_group')
    .values({ project_id: p.id, code: 'T', name: '试验组', ratio: 1, sort: 0 })
    .returning('id')
    .executeTakeFirstOrThrow()
  await t.db.kysely.updateTable('subject').set({ group_id: g.id }).where('id', '=', subjects[1]!.id).execute()
}, 60_000)
afterAll(() => t.close())

const byNo = (a: SubjectRow | EnrolledSubject, b: SubjectRow | EnrolledSubject) =>
  a.subjectNo < b.subjectNo ? -1 : a.subjectNo > b.subjectNo ? 1 : a.id - b.id
const inCenter = (c: number) => subjects.filter((s) => s.centerId === c)

describe('columns', () => {
  it('the fixed columns, then the chosen indicators of single-instance CRFs (plain sections only); the sort index is made', async () => {
    const fixed = data<HeaderColumn[]>(await call('GET', `/${base}/getHeaderList?studyId=${p.id}`)).map((c) => c.key)
    expect(fixed).toEqual(['subjectNo', 'center', 'queue', 'status', 'group', 'enrolledAt', 'updatedAt'])
    const fields = data<DisplayField[]>(await call('GET', `/scientific/form/getDisplayFieldList?studyId=${p.id}`))
    expect(fields.map((f) => [f.code, f.position])).toEqual([
      ['L_AGE', null],
      ['L_SEX', null],
    ])
    const saved = data<DisplayFieldInfo>(
      await call('POST', '/scientific/form/saveDisplayFieldInfo', { studyId: p.id, indicatorIds: [sex.id, age.id] }),
    )
    expect(saved.indicatorIds).toEqual([sex.id, age.id])
    expect(data<DisplayFieldInfo>(await call('GET', `/${base}/getDisplayFieldInfo?studyId=${p.id}`)).indicatorIds).toEqual([sex.id, age.id])
    const header = data<HeaderColumn[]>(await call('GET', `/${base}/getHeaderList?studyId=${p.id}`))
    expect(header.slice(-2)).toEqual([
      expect.objectContaining({
        key: `f${sex.id}`,
        titleZh: '性别',
        titleEn: 'Sex',
        type: 'multiple',
        choices: [expect.objectContaining({ code: 'm' }), expect.objectContaining({ code: 'f' })],
      }),
      expect.objectContaining({ key: `f${age.id}`, titleZh: '年龄', titleEn: 'Age', indicatorId: age.id }),
    ])
    const indexes =
      t.db.dialect === 'sqlite'
        ? await t.db.kysely
            .selectFrom('sqlite_master' as never)
            .select('name' as never)
            .where('type' as never, '=', 'index' as never)
            .execute()
        : await t.db.kysely
            .selectFrom('pg_indexes' as never)
            .select('indexname as name' as never)
            .execute()
    const names = (indexes as { name: string }[]).map((r) => r.name)
    expect(names).toEqual(expect.arrayContaining([`subject_f${sex.id}_idx`, `subject_f${age.id}_idx`]))
    // Columns are per user: the others still have none.
    expect(
      data<DisplayFieldInfo>(await by('limited', () => call('GET', `/${base}/getDisplayFieldInfo?studyId=${p.id}`))).indicatorIds,
    ).toEqual([])
  })

  it('refuses a visit form field, a sub-form field, a repeat and too many, in zh and en, keeping the columns', async () => {
    for (const [ids, zh, en] of [
      [
        [visitNote.id],
        `指标 ${visitNote.id} 不在本项目单次填写的 CRF 中，不能作为列表列`,
        `Indicator ${visitNote.id} is not on a single-instance CRF of this project and cannot be a list column`,
      ],
      [[age.id, age.id], `指标 ${age.id} 重复选择了`, `Indicator ${age.id} is chosen twice`],
    ] as const) {
      for (const [lang, msg] of [
        ['zh', zh],
        ['en', en],
      ] as const) {
        const res = await call('POST', '/scientific/form/saveDisplayFieldInfo', { studyId: p.id, indicatorIds: ids }, lang)
        expect([res.statusCode, json(res).msg]).toEqual([400, msg])
      }
    }
    for (const [lang, msg] of [
      ['zh', 'indicatorIds 不能超过 30 项'],
      ['en', 'indicatorIds must have at most 30 items'],
    ] as const) {
      const many = await call(
        'POST',
        '/scientific/form/saveDisplayFieldInfo',
        { studyId: p.id, indicatorIds: Array.from({ length: 31 }, (_, i) => i + 1) },
        lang,
      )
      expect([many.statusCode, json(many).msg]).toEqual([400, msg])
    }
    expect(data<DisplayFieldInfo>(await call('GET', `/${base}/getDisplayFieldInfo?studyId=${p.id}`)).indicatorIds).toEqual([sex.id, age.id])
  })
})

describe('pages', () => {
  it('every subject once in subject number order, both ways, with the total on every page from the counters', async () => {
    const asc = await walk({ studyId: p.id })
    expect(asc.ids).toEqual([...subjects].sort(byNo).map((s) => s.id))
    expect(new Set(asc.totals)).toEqual(new Set([12]))
    const desc = await walk({ studyId: p.id, order: 'desc' })
    expect(desc.ids).toEqual(asc.ids.toReversed())
    const tally = await t.db.kysely.selectFrom('subject_tally').selectAll().where('project_id', '=', p.id).execute()
    expect(tally.reduce((n, r) => n + r.n, 0)).toBe(12)
  })

  it('sorts by an indicator column and by each fixed column, id breaking ties, in keyset pages', async () => {
    const rows = (await page({ studyId: p.id, limit: 200 })).rows
    const valueOf = (r: SubjectRow) => r.values[`f${age.id}`] ?? ''
    const expected = [...rows].sort((a, b) => (valueOf(a) < valueOf(b) ? -1 : valueOf(a) > valueOf(b) ? 1 : a.id - b.id)).map((r) => r.id)
    expect((await walk({ studyId: p.id, sort: `f${age.id}` })).ids).toEqual(expected)
    expect((await walk({ studyId: p.id, sort: `f${age.id}`, order: 'desc' })).ids).toEqual(expected.toReversed())
    for (const sort of ['center', 'queue', 'status', 'group', 'enrolledAt', 'updatedAt']) {
      const got = (await walk({ studyId: p.id, sort })).ids
      expect(
        got.toSorted((a, b) => a - b),
        sort,
      ).toEqual(subjects.map((s) => s.id).toSorted((a, b) => a - b))
    }
    const byCenter = (await walk({ studyId: p.id, sort: 'center' })).ids
    expect(byCenter).toEqual([...subjects].sort((a, b) => a.centerId - b.centerId || a.id - b.id).map((s) => s.id))
  })

  it('filters per column, with the total of the filter', async () => {
    const all = (await page({ studyId: p.id, limit: 200 })).rows
    const check = async (f: string, keep: (r: SubjectRow) => boolean) => {
      const r = await walk({ studyId: p.id, filter: f })
      const expected = all.filter(keep).map((x) => x.id)
      expect(r.ids.toSorted(), f).toEqual(expected.toSorted())
      expect(new Set(r.totals), f).toEqual(new Set([expected.length]))
    }
    const ageOf = (r: SubjectRow) => r.values[`f${age.id}`] ?? ''
    const sexOf = (r: SubjectRow) => r.values[`f${sex.id}`] ?? ''
    await check(filter({ column: `f${sex.id}`, op: 'has', value: 'f' }), (r) => sexOf(r).split('|').includes('f'))
    await check(filter({ column: `f${sex.id}`, op: 'eq', value: 'm' }), (r) => sexOf(r) === 'm')
    await check(filter({ column: `f${sex.id}`, op: 'empty' }), (r) => sexOf(r) === '')
    await check(
      filter({ column: `f${age.id}`, op: 'gte', value: '25' }, { column: `f${age.id}`, op: 'lte', value: '29' }),
      (r) => ageOf(r) >= '25' && ageOf(r) <= '29',
    )
    await check(filter({ column: 'center', op: 'eq', value: String(centers[1]) }), (r) => r.centerId === centers[1])
    await check(filter({ column: 'subjectNo', op: 'prefix', value: 'SH02' }), (r) => r.subjectNo.startsWith('SH02'))
    // A time column takes a day as date entry reads one: 2026/6/1 is 2026-06-01, not text after every
    // ISO time; up to a day keeps that day.
    const times = all.map((r) => r.enrolledAt).toSorted()
    const middle = times[Math.floor(times.length / 2)]!
    const [y, m, d] = middle.slice(0, 10).split('-').map(Number)
    const minute = middle.slice(0, 16).replace('T', ' ')
    await check(filter({ column: 'enrolledAt', op: 'gte', value: `${y}/${m}/${d}` }), (r) => (r.enrolledAt ?? '') >= middle.slice(0, 10))
    await check(
      filter({ column: 'enrolledAt', op: 'lte', value: `${y}/${m}/${d}` }),
      (r) => (r.enrolledAt ?? '').slice(0, 10) <= middle.slice(0, 10),
    )
    await check(filter({ column: 'enrolledAt', op: 'gte', value: minute }), (r) => (r.enrolledAt ?? '') >= middle.slice(0, 16))
    await check(filter({ column: 'updatedAt', op: 'prefix', value: `${y}` }), (r) => r.updatedAt.startsWith(`${y}`))
    for (const [f, zh, en] of [
      [
        { column: 'enrolledAt', op: 'gte', value: 'yesterday' },
        '列 enrolledAt 的筛选值 yesterday 不合法',
        'The filter value yesterday of column enrolledAt is not valid',
      ],
      [
        { column: 'subjectNo', op: 'has', value: 'SH02' },
        '列 subjectNo 不支持筛选方式 has',
        'Column subjectNo cannot be filtered with has',
      ],
      [
        { column: 'enrolledAt', op: 'has', value: '1' },
        '列 enrolledAt 不支持筛选方式 has',
        'Column enrolledAt cannot be filtered with has',
      ],
    ] as const) {
      for (const [lang, msg] of [
        ['zh', zh],
        ['en', en],
      ] as const) {
        const res = await call(
          'GET',
          `/${base}/pageList?${new URLSearchParams({ studyId: String(p.id), filter: filter(f) })}`,
          undefined,
          lang,
        )
        expect([res.statusCode, json(res).msg]).toEqual([400, msg])
      }
    }
    // The subject-number search ignores case; centerId and queueId narrow through the counters.
    const q = await walk({ studyId: p.id, q: 'sh02-000' })
    expect(q.ids.toSorted()).toEqual(
      inCenter(centers[1]!)
        .map((s) => s.id)
        .toSorted(),
    )
    const inQueue = await walk({ studyId: p.id, centerId: centers[0]!, queueId: p.queues[1]!.id })
    const expected = subjects.filter((s) => s.centerId === centers[0] && s.queueId === p.queues[1]!.id)
    expect([inQueue.ids.toSorted(), inQueue.totals[0]]).toEqual([expected.map((s) => s.id).toSorted(), expected.length])
  })

  it('next and previous follow the list order and its filter', async () => {
    const order = (await walk({ studyId: p.id, sort: `f${age.id}` })).ids
    const mid = order[5]!
    const n = data<Neighbours>(await call('GET', `/projects/${p.id}/subjects/${mid}/neighbours?studyId=${p.id}&sort=f${age.id}`))
    expect(n).toEqual({ previous: order[4], next: order[6] })
    const first = data<Neighbours>(await call('GET', `/projects/${p.id}/subjects/${order[0]}/neighbours?studyId=${p.id}&sort=f${age.id}`))
    expect(first).toEqual({ previous: null, next: order[1] })
  })
})

describe('scope and blinding', () => {
  it("a member of center A sees, counts and neighbours only A's subjects; B's subject is not found", async () => {
    const mine = await by('limited', () => walk({ studyId: p.id }))
    const a = inCenter(centers[0]!)
    expect(mine.ids).toEqual([...a].sort(byNo).map((s) => s.id))
    expect(new Set(mine.totals)).toEqual(new Set([a.length]))
    const asked = await by('limited', () => walk({ studyId: p.id, centerId: centers[1]! }))
    expect(asked).toEqual({ ids: [], totals: [0] })
    const filtered = await by('limited', () => walk({ studyId: p.id, q: 'sh' }))
    expect(filtered).toEqual({ ids: [], totals: [0] })
    const other = inCenter(centers[1]!)[0]!
    for (const [lang, msg] of [
      ['zh', `研究对象 ${other.id} 不存在或不在你有权查看的中心和队列中`],
      ['en', `Research object ${other.id} does not exist or is outside the centers and queues you may see`],
    ] as const) {
      const res = await by('limited', () =>
        call('GET', `/projects/${p.id}/subjects/${other.id}/neighbours?studyId=${p.id}`, undefined, lang),
      )
      expect([res.statusCode, json(res).msg]).toEqual([404, msg])
    }
    // The last of A's subjects has no next one, though B's come after it in the whole list.
    const lastA = mine.ids.at(-1)!
    expect(
      data<Neighbours>(await by('limited', () => call('GET', `/projects/${p.id}/subjects/${lastA}/neighbours?studyId=${p.id}`))).next,
    ).toBeNull()
  })

  it('a blinded member sees no group, no group column, and may not sort or filter by it', async () => {
    const grouped = subjects[1]!.id
    expect((await page({ studyId: p.id, limit: 200 })).rows.find((r) => r.id === grouped)?.group).toBe('试验组')
    const rows = (await by('blind', () => page({ studyId: p.id, limit: 200 }))).rows
    expect(rows.every((r) => r.group === null)).toBe(true)
    const header = data<HeaderColumn[]>(await by('blind', () => call('GET', `/${base}/getHeaderList?studyId=${p.id}`)))
    expect(header.map((c) => c.key)).not.toContain('group')
    for (const url of [
      `/${base}/pageList?studyId=${p.id}&sort=group`,
      `/${base}/pageList?studyId=${p.id}&filter=${encodeURIComponent(filter({ column: 'group', op: 'notEmpty' }))}`,
    ]) {
      const res = await by('blind', () => call('GET', url, undefined, 'en'))
      expect([res.statusCode, json(res).msg]).toEqual([403, 'Blinded members cannot see, sort or filter by the group'])
    }
  })

  it('the button authority answers from the project role when studyId is given', async () => {
    const url = `/${base}/studyObjectButtonAuthority`
    const sys = data<ButtonAuthority>(await by('limited', () => call('GET', url)))
    expect(sys).toMatchObject({ view: true, add: true, edit: true })
    const inProject = data<ButtonAuthority>(await by('limited', () => call('GET', `${url}?studyId=${p.id}`)))
    // The role grants entering data only: no enrolment, no deleting, signing or unblinding.
    expect(inProject).toMatchObject({ view: true, add: false, edit: true, delete: false, sign: false, unblind: false })
    expect(data<ButtonAuthority>(await call('GET', `${url}?studyId=${p.id}`))).toMatchObject({ view: true, add: true, edit: true })
  })
})

describe('bad input', () => {
  it('refuses a bad filter, an unknown or unchosen column and a forged cursor in zh and en', async () => {
    const cases: [string, number, string, string][] = [
      [
        `filter=${encodeURIComponent('{not json')}`,
        400,
        '筛选条件不合法：应为 [{"column","op","value"}] 的列表，最多 20 条',
        'The filter is not valid: expected a list of {"column","op","value"}, at most 20',
      ],
      [
        `filter=${encodeURIComponent(filter({ column: 'f999999', op: 'eq', value: '1' }))}`,
        400,
        '列 f999999 不在你的研究对象列表中：先在“选择列”中选中它',
        'Column f999999 is not in your research object list: choose it under "Choose columns" first',
      ],
      [
        `sort=f${visitNote.id}`,
        400,
        `列 f${visitNote.id} 不在你的研究对象列表中：先在“选择列”中选中它`,
        `Column f${visitNote.id} is not in your research object list: choose it under "Choose columns" first`,
      ],
      [
        `filter=${encodeURIComponent(filter({ column: 'center', op: 'prefix', value: '1' }))}`,
        400,
        '列 center 不支持筛选方式 prefix',
        'Column center cannot be filtered with prefix',
      ],
      [
        `filter=${encodeURIComponent(filter({ column: 'center', op: 'eq', value: 'x' }))}`,
        400,
        '列 center 的筛选值 x 不合法',
        'The filter value x of column center is not valid',
      ],
      [
        `filter=${encodeURIComponent(filter({ column: 'status', op: 'eq', value: 'gone' }))}`,
        400,
        '列 status 的筛选值 gone 不合法',
        'The filter value gone of column status is not valid',
      ],
      [`after=${Buffer.from('["x"]').toString('base64url')}`, 400, '分页位置 的值不合法', 'page position is not valid'],
      [`sort=center&after=${Buffer.from('["x",1]').toString('base64url')}`, 400, '分页位置 的值不合法', 'page position is not valid'],
    ]
    for (const [query, status, zh, en] of cases) {
      for (const [lang, msg] of [
        ['zh', zh],
        ['en', en],
      ] as const) {
        const res = await call('GET', `/${base}/pageList?studyId=${p.id}&${query}`, undefined, lang)
        expect([res.statusCode, json(res).msg], query).toEqual([status, msg])
      }
    }
    const wrongProject = await call('GET', `/projects/${p.id}/subjects/${subjects[0]!.id}/neighbours?studyId=${p.id + 1}`)
    expect(wrongProject.statusCode).toBeGreaterThanOrEqual(400)
  })
})

describe('what a page costs', () => {
  it('once the caller and the filter are known, a page is the access generation and its own statement', async () => {
    // A server of its own whose database counts the statements it runs (the caches are per database object).
    let statements = 0
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements++
        return args.result
      },
    }
    const app = await buildApp({ db: { ...t.db, kysely: t.db.kysely.withPlugin(counting), close: async () => {} } })
    try {
      const query = new URLSearchParams({
        studyId: String(p.id),
        sort: `f${age.id}`,
        filter: filter({ column: `f${sex.id}`, op: 'has', value: 'm' }),
        limit: '3',
      })
      const get = async (q: URLSearchParams) => {
        statements = 0
        const res = await app.inject({ method: 'GET', url: `/api/${base}/pageList?${q}`, headers: { 'kr-d-token': tokens.ra! } })
        expect(res.statusCode, res.body).toBe(200)
        return { page: (res.json() as { data: SubjectPage }).data, statements }
      }
      const first = await get(query)
      expect(first.statements).toBeGreaterThan(2)
      expect((await get(query)).statements).toBe(2)
      // After a cursor SQLite reads the rows tied on its value, then those past it (asked twice: a
      // page may name a center or queue the caller has not been shown yet, read once).
      const next = new URLSearchParams({ ...Object.fromEntries(query), after: first.page.next! })
      await get(next)
      expect((await get(next)).statements).toBeLessThanOrEqual(t.db.dialect === 'sqlite' ? 3 : 2)
    } finally {
      await app.close()
    }
  })
})

describe('totals follow writes', () => {
  it('an enrolment counts in the next page’s total, with a filter and without (kept last: it enrols)', async () => {
    const inFirstCenter = filter({ column: 'center', op: 'eq', value: String(centers[0]) })
    const all = (await page({ studyId: p.id })).total
    const filtered = (await page({ studyId: p.id, filter: inFirstCenter })).total
    // The filtered total is counted once and then kept: asked again, it is the same.
    expect((await page({ studyId: p.id, filter: inFirstCenter })).total).toBe(filtered)
    data<EnrolledSubject>(
      await call('POST', `/projects/${p.id}/subjects`, {
        queueId: p.queues[0]!.id,
        centerId: centers[0],
        checklist: { inclusion: [], exclusion: [] },
      }),
    )
    expect((await page({ studyId: p.id })).total).toBe(all + 1)
    expect((await page({ studyId: p.id, filter: inFirstCenter })).total).toBe(filtered + 1)
  })
})
