import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { attachmentPaths } from '../../contract/attachments.ts'
import type { VisitPlan } from '../../contract/followUp.ts'
import { projectPaths, type ProjectDetail } from '../../contract/projects.ts'
import { subjectListPaths, type HeaderColumn, type SubjectPage, type ViewInfo } from '../../contract/subjectList.ts'
import { studyDataPaths } from '../../contract/studyData.ts'
import { randomizeAlternately, studyFixture, type StudyFixture } from '../support/studyFixture.ts'

/**
 * Probes for leaks of randomization groups to blinded members and of subjects outside a member's
 * centers, call by call, on a randomized demo study: a member limited to center A (unblinded), a
 * blinded member of center A, and the demo administrator who sees everything.
 */

let s: StudyFixture
/** A subject of center A and one of center B, each randomized. */
let subjectA: number
let subjectB: number
const groupOf = new Map<number, string>()

beforeAll(async () => {
  s = await studyFixture({ subjects: 12 })
  const subjects = await randomizeAlternately(s)
  for (const x of subjects) groupOf.set(x.id, x.group!.name)
  subjectA = subjects.find((x) => x.centerId === s.centerIds[0])!.id
  subjectB = subjects.find((x) => x.centerId !== s.centerIds[0])!.id
  const a = [s.centerIds[0]!]
  await s.member('limitedA', ['enterData', 'export', 'enrol'], { centers: a })
  await s.member('blindA', ['enterData', 'export', 'enrol'], { centers: a, blinded: true })
}, 180_000)
afterAll(() => s.close())

const get = (who: string, url: string, lang = 'en') =>
  s.t.app.inject({ method: 'GET', url, headers: { 'kr-d-token': s.tokens[who]!, 'accept-language': lang } })
const dataOf = <T>(res: { statusCode: number; body: string; json: () => unknown }): T => {
  if (res.statusCode !== 200) throw new Error(`expected success, got ${res.statusCode} ${res.body}`)
  return (res.json() as { data: T }).data
}

/** Follow-up records of the demo per visit, counted in the database, in center A only or all. */
async function visitRecords(centerId?: number): Promise<Map<number, number>> {
  let q = s.t.db.kysely
    .selectFrom('form_record')
    .select(['visit_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('project_id', '=', s.projectId)
    .where('visit_id', 'is not', null)
  if (centerId !== undefined) q = q.where('center_id', '=', centerId)
  const rows = await q.groupBy('visit_id').execute()
  return new Map(rows.map((r) => [r.visit_id!, Number(r.n)]))
}

describe('scope: a member limited to center A', () => {
  it('reads the visit schedule with the records of center A only', async () => {
    const all = await visitRecords()
    const mine = await visitRecords(s.centerIds[0])
    // The demo has follow-up records in other centers, or the probe proves nothing.
    expect([...all.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan([...mine.values()].reduce((a, b) => a + b, 0))
    const plan = dataOf<VisitPlan>(await get('limitedA', `/api/projects/${s.projectId}/visits`))
    expect(plan.visits.length).toBeGreaterThan(0)
    for (const v of plan.visits) expect(v.records, v.name).toBe(mine.get(v.id) ?? 0)
    const whole = dataOf<VisitPlan>(await get('demo', `/api/projects/${s.projectId}/visits`))
    for (const v of whole.visits) expect(v.records, v.name).toBe(all.get(v.id) ?? 0)
  })

  it('finds a center-B subject by no call that names its id, exactly like an unknown one', async () => {
    const urls = (id: number) => [
      `/${subjectListPaths.viewInfo}?studyId=${s.projectId}&objectId=${id}`,
      `/${studyDataPaths.history(s.projectId, id)}`,
      `/${studyDataPaths.formTree}?studyId=${s.projectId}&objectId=${id}`,
      `/${subjectListPaths.neighbours(s.projectId, id)}?studyId=${s.projectId}`,
      `/api/projects/${s.projectId}/subjects/${id}/visits`,
      `/${attachmentPaths.list(s.projectId, id)}`,
    ]
    const unknown = urls(999_999)
    for (const [i, url] of urls(subjectB).entries()) {
      const [mine, other, none] = [
        await get('limitedA', urls(subjectA)[i]!),
        await get('limitedA', url),
        await get('limitedA', unknown[i]!),
      ]
      expect(mine.statusCode, url).toBe(200)
      expect(other.statusCode, url).toBe(404)
      expect(other.json(), url).toMatchObject({ msg: (none.json() as { msg: string }).msg.replace('999999', String(subjectB)) })
    }
  })

  it('counts only center A in the project detail', async () => {
    const detail = dataOf<ProjectDetail>(await get('limitedA', `/api/projects/${s.projectId}`))
    const inA = await s.t.db.kysely
      .selectFrom('subject')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('project_id', '=', s.projectId)
      .where('center_id', '=', s.centerIds[0]!)
      .executeTakeFirstOrThrow()
    expect(detail.subjectCount).toBe(Number(inA.n))
    expect(detail.centers.map((c) => c.id)).toEqual([s.centerIds[0]])
  })
  it('is refused the signing of a center-B record exactly like an unknown record, in words too', async () => {
    const token = await s.member('signerA', ['sign'], { centers: [s.centerIds[0]!] })
    const record = await s.t.db.kysely
      .selectFrom('form_record')
      .select(['id', 'rev'])
      .where('subject_id', '=', subjectB)
      .orderBy('id')
      .executeTakeFirstOrThrow()
    const sign = (id: number) =>
      s.t.app.inject({
        method: 'POST',
        url: `/${studyDataPaths.sign(s.projectId, id)}`,
        payload: { rev: record.rev },
        headers: { 'kr-d-token': token, 'accept-language': 'en' },
      })
    const [other, none] = [await sign(record.id), await sign(999_999)]
    expect(other.statusCode).toBe(404)
    expect(other.json()).toMatchObject({ msg: (none.json() as { msg: string }).msg.replace('999999', String(record.id)) })
  })

  it('is told the subjects of center A only when it edits a queue', async () => {
    const token = await s.member('setupA', ['configure'], { centers: [s.centerIds[0]!] })
    const queueId = s.queueIds[0]!
    const count = async (centerId?: number) => {
      let q = s.t.db.kysely
        .selectFrom('subject')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('queue_id', '=', queueId)
      if (centerId !== undefined) q = q.where('center_id', '=', centerId)
      return Number((await q.executeTakeFirstOrThrow()).n)
    }
    const [all, mine] = [await count(), await count(s.centerIds[0])]
    expect(all).toBeGreaterThan(mine)
    const queue = await s.t.db.kysely.selectFrom('project_queue').selectAll().where('id', '=', queueId).executeTakeFirstOrThrow()
    const edit = (who: string) =>
      s.t.app.inject({
        method: 'PUT',
        url: `/api/projects/${s.projectId}/queues/${queueId}`,
        payload: { name: queue.name, key: queue.key, entryCondition: queue.entry_condition, excludeCondition: queue.exclude_condition },
        headers: { 'kr-d-token': who === 'setupA' ? token : s.tokens[who]! },
      })
    expect(dataOf<{ subjectCount: number }>(await edit('setupA')).subjectCount).toBe(mine)
    expect(dataOf<{ subjectCount: number }>(await edit('demo')).subjectCount).toBe(all)
  })

  it('cannot fetch a picture of a center-B subject by its content hash', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
    const boundary = '----probe' + crypto.randomBytes(8).toString('hex')
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const q = new URLSearchParams({ type: '3', studyId: String(s.projectId), objectId: String(subjectB) })
    const up = await s.t.app.inject({
      method: 'POST',
      url: `/${attachmentPaths.upload}?${q}`,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'kr-d-token': s.tokens.demo! },
    })
    expect(up.statusCode, up.body).toBe(200)
    const hash = crypto.createHash('sha256').update(png).digest('hex')
    // Served through the project to whoever may read the subject, by no other door to anyone.
    const { path } = (up.json() as { data: { path: string } }).data
    expect((await get('demo', `/${path}`)).statusCode).toBe(200)
    expect((await get('limitedA', `/${path}`)).statusCode).toBe(404)
    for (const who of ['limitedA', 'demo']) expect((await get(who, `/api/admin/files/${hash}`)).statusCode, who).toBe(404)
  })
})

describe('scope: a member who sets up queue 1 only', () => {
  const send = (token: string, method: 'POST' | 'PUT' | 'DELETE', url: string, lang: string, payload?: object) =>
    s.t.app.inject({ method, url: `/${url}`, payload, headers: { 'kr-d-token': token, 'accept-language': lang } })
  const queueRow = (id: number) => s.t.db.kysely.selectFrom('project_queue').selectAll().where('id', '=', id).executeTakeFirst()
  const input = { name: 'Renamed', key: 'renamed', entryCondition: '', excludeCondition: '' }

  it('edits and deletes queue 2 exactly like an unknown queue, in both languages, and changes nothing', async () => {
    const token = await s.member('setupQ1', ['configure'], { queues: [s.queueIds[0]!] })
    const other = s.queueIds[1]!
    const before = await queueRow(other)
    for (const lang of ['zh', 'en']) {
      for (const method of ['PUT', 'DELETE'] as const) {
        const body = method === 'PUT' ? input : undefined
        const [res, none] = [
          await send(token, method, projectPaths.queue(s.projectId, other), lang, body),
          await send(token, method, projectPaths.queue(s.projectId, 999_999), lang, body),
        ]
        expect(res.statusCode, `${method} ${lang}`).toBe(404)
        expect(none.statusCode, `${method} ${lang}`).toBe(404)
        expect(res.json(), `${method} ${lang}`).toMatchObject({
          msg: (none.json() as { msg: string }).msg.replace('999999', String(other)),
        })
      }
    }
    expect(await queueRow(other)).toEqual(before)
    // Its own queue it still edits.
    const own = await queueRow(s.queueIds[0]!)
    const res = await send(token, 'PUT', projectPaths.queue(s.projectId, own!.id), 'en', {
      name: own!.name,
      key: own!.key,
      entryCondition: own!.entry_condition,
      excludeCondition: 'edited by setupQ1',
    })
    expect(res.statusCode, res.body).toBe(200)
  })

  it('may not add a queue, told why in both languages', async () => {
    const token = s.tokens.setupQ1!
    const count = async () =>
      (await s.t.db.kysely.selectFrom('project_queue').select('id').where('project_id', '=', s.projectId).execute()).length
    const before = await count()
    const zh = await send(token, 'POST', projectPaths.queues(s.projectId), 'zh', { ...input, key: 'added' })
    const en = await send(token, 'POST', projectPaths.queues(s.projectId), 'en', { ...input, key: 'added' })
    expect(zh.statusCode).toBe(403)
    expect(zh.json()).toMatchObject({ msg: '您的项目角色只管理部分队列，不能新增队列' })
    expect(en.json()).toMatchObject({ msg: 'Your project role covers only some queues, so it cannot add a queue' })
    expect(await count()).toBe(before)
  })
})

describe('scope: a member who sets up center A only', () => {
  it("may not change the project's centers (dropping or adding ones it cannot see), told why in both languages", async () => {
    const token = await s.member('centersA', ['configure'], { centers: [s.centerIds[0]!] })
    const centers = async () =>
      (await s.t.db.kysely.selectFrom('project_center').select('center_id').where('project_id', '=', s.projectId).execute()).map(
        (r) => r.center_id,
      )
    const before = await centers()
    expect(before.length).toBeGreaterThan(1)
    const put = (lang: string) =>
      s.t.app.inject({
        method: 'PUT',
        url: `/${projectPaths.centers(s.projectId)}`,
        payload: { centerIds: [...before].reverse() },
        headers: { 'kr-d-token': token, 'accept-language': lang },
      })
    const [zh, en] = [await put('zh'), await put('en')]
    expect(zh.statusCode).toBe(403)
    expect(zh.json()).toMatchObject({ msg: '您的项目角色只管理部分中心，不能更改项目的中心' })
    expect(en.json()).toMatchObject({ msg: "Your project role covers only some centers, so it cannot change the project's centers" })
    expect(await centers()).toEqual(before)
  })
})

describe('blinding: a blinded member of center A', () => {
  const list = (who: string, query: string) => get(who, `/${subjectListPaths.pageList}?studyId=${s.projectId}&limit=50${query}`)

  it('gets no group column, no group in rows, and may neither sort nor filter by it', async () => {
    const head = dataOf<HeaderColumn[]>(await get('blindA', `/${subjectListPaths.headerList}?studyId=${s.projectId}`))
    expect(head.map((c) => c.key)).not.toContain('group')
    const page = dataOf<SubjectPage>(await list('blindA', ''))
    expect(page.rows.length).toBeGreaterThan(0)
    expect(page.rows.every((r) => r.group === null)).toBe(true)
    expect((await list('blindA', '&sort=group')).statusCode).toBe(403)
    const filter = encodeURIComponent(JSON.stringify([{ column: 'group', op: 'notEmpty', value: '' }]))
    expect((await list('blindA', `&filter=${filter}`)).statusCode).toBe(403)
    const seen = dataOf<SubjectPage>(await list('limitedA', ''))
    expect(seen.rows.find((r) => r.id === subjectA)?.group).toBe(groupOf.get(subjectA))
  })

  it('sees no group on the subject head, and an unblinding needs a reason', async () => {
    const view = dataOf<ViewInfo>(await get('blindA', `/${subjectListPaths.viewInfo}?studyId=${s.projectId}&objectId=${subjectA}`))
    expect(view.group).toBeNull()
    expect(view.blinded).toBe(true)
    expect(view.canUnblind).toBe(false)
    const res = await s.t.app.inject({
      method: 'POST',
      url: `/${studyDataPaths.unblind(s.projectId, subjectA)}`,
      payload: { reason: 'emergency' },
      headers: { 'kr-d-token': s.tokens.blindA! },
    })
    expect(res.statusCode).toBe(403)
    expect(res.body).not.toContain(groupOf.get(subjectA)!)
  })
})
