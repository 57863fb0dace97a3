import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProjectDetail } from '../../contract/projects.ts'
import type { Sample, SamplePage, SampleTree } from '../../contract/samples.ts'
import type { EnrolledSubject } from '../../contract/subjects.ts'
import { apiCalls, type Method, type Payload } from '../support/apiCalls.ts'
import { migrateTo, migrateToLatest } from '../../server/db/migrate.ts'
import { sampleIdOfSlot } from '../../server/services/samples.ts'
import { addProjectMember, userSwitch } from '../support/projectMembers.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/**
 * Issue 10 item 9, server side: samples of research subjects in projects that manage
 * biomaterial. Generated numbers, aliquot trees that inherit subject and type, sample CRF
 * states, keyset pages with filters, another center's sample refused on every call like an
 * unknown one, and every bad input refused in zh and en with nothing written; on the database
 * of this run (api-sqlite or api-postgres).
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
  userIds.limited = await t.createUser('limited', 'Research1', { roles: ['researchAdmin'] })
  for (const u of ['ra', 'auditor', 'limited']) tokens[u] = await t.signIn(u, 'Research1')
  const at = new Date().toISOString()
  centers = (
    await t.db.kysely
      .insertInto('center')
      .values(['BJ01', 'SH02'].map((code) => ({ code, name_zh: `中心${code}`, name_en: `Center ${code}`, created_at: at, updated_at: at })))
      .returning('id')
      .execute()
  ).map((r) => r.id)
})
afterAll(() => t.close())

/** A project made by the wizard's call, submitted and passed unless `active` is false. */
async function project(over: { biomaterial?: boolean; active?: boolean } = {}): Promise<ProjectDetail> {
  serial += 1
  const p = data<ProjectDetail>(
    await call('POST', '/projects', {
      scope: 'multi',
      base: {
        type: 'prospective',
        name: `样本研究 ${serial}`,
        number: `SA-${serial}`,
        groupType: 'group',
        plannedQuantity: 50,
        plannedGroups: 2,
        manageBiomaterial: over.biomaterial ?? true,
      },
      queues: [{ name: '队列甲', key: 'A' }],
      forms: [],
      centerIds: [centers[0], centers[1]],
    }),
  )
  if (over.active === false) return p
  data(await call('POST', `/projects/${p.id}/submit`))
  data(await by('auditor', () => call('POST', `/projects/${p.id}/pass`)))
  return p
}

const enrol = async (p: ProjectDetail, centerId: number) =>
  data<EnrolledSubject>(
    await call('POST', `/projects/${p.id}/subjects`, { queueId: p.queues[0]!.id, centerId, checklist: { inclusion: [], exclusion: [] } }),
  )

const samples = (p: ProjectDetail) => `/projects/${p.id}/samples`
const create = async (p: ProjectDetail, body: Payload) => data<Sample>(await call('POST', samples(p), body))

/** A pinned CRF of collect type biomaterial, written directly (a version with no fields is enough here). */
async function sampleCrf(projectId: number, name: string) {
  const at = new Date().toISOString()
  const tpl = await t.db.kysely
    .insertInto('template')
    .values({ kind: 'crf', name, description: '', collect_type: 'biomaterial', status: 1, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  const v = await t.db.kysely
    .insertInto('template_version')
    .values({ template_id: tpl.id, version: 1, state: 'published', sections: '[]', created_at: at, published_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  await t.db.kysely.insertInto('project_form').values({ project_id: projectId, template_id: tpl.id, version_id: v.id, sort: 1 }).execute()
  return { templateId: tpl.id, versionId: v.id }
}

/** What a sample call writes; a refusal leaves it as it was. */
async function snapshot() {
  const rows = await t.db.kysely.selectFrom('sample').selectAll().orderBy('id').execute()
  const audit = await t.db.kysely
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow()
  return { rows, audit: Number(audit.n) }
}

/** Refused with `status` and the message in each language, nothing written. */
async function refused(method: Method, url: string, body: Payload | undefined, status: number, zh: string, en: string) {
  const before = await snapshot()
  for (const [lang, msg] of [
    ['zh', zh],
    ['en', en],
  ] as const) {
    const res = await call(method, url, body, lang)
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status)
    expect(json(res).msg).toBe(msg)
  }
  expect(await snapshot()).toEqual(before)
}

describe('samples', () => {
  it('creates samples with generated numbers, aliquots that inherit subject and type, and their tree', async () => {
    const p = await project()
    const s = await enrol(p, centers[0]!)
    const first = await create(p, {
      subjectId: s.id,
      type: 'serum',
      collectedAt: '2026-11-20 08:30',
      quantity: 2.5,
      unit: 'mL',
      freezer: 'F1',
      rack: 'R2',
      box: 'B3',
      position: 'A1',
      remarks: '空腹',
    })
    expect(first).toMatchObject({
      sampleNo: `${s.subjectNo}-S1`,
      subjectId: s.id,
      subjectNo: s.subjectNo,
      centerId: centers[0],
      centerCode: 'BJ01',
      queueName: '队列甲',
      parentId: null,
      rootId: first.id,
      type: 'serum',
      collectedAt: '2026-11-20 08:30',
      quantity: 2.5,
      unit: 'mL',
      freezer: 'F1',
      position: 'A1',
      status: 'available',
      remarks: '空腹',
      aliquots: 0,
      forms: [],
    })
    // A person types the subject's number, in any case.
    const second = await create(p, { subjectNo: s.subjectNo.toLowerCase(), type: 'plasma' })
    expect(second.subjectId).toBe(s.id)
    expect(second).toMatchObject({ sampleNo: `${s.subjectNo}-S2`, collectedAt: null, quantity: null, unit: null })

    const aliquot = await create(p, { parentId: first.id, quantity: 0.5, unit: 'mL' })
    expect(aliquot).toMatchObject({
      sampleNo: `${first.sampleNo}-1`,
      subjectId: s.id,
      type: 'serum',
      parentId: first.id,
      parentNo: first.sampleNo,
      rootId: first.id,
    })
    const grand = await create(p, { parentId: aliquot.id, sampleNo: 'custom-7', type: 'serum' })
    expect(grand).toMatchObject({ sampleNo: 'custom-7', parentId: aliquot.id, rootId: first.id })
    const sibling = await create(p, { parentId: first.id })
    expect(sibling.sampleNo).toBe(`${first.sampleNo}-2`)

    const tree = data<SampleTree>(await call('GET', `${samples(p)}/${grand.id}/tree`))
    expect(tree.rows.map((r) => [r.sampleNo, r.depth])).toEqual([
      [first.sampleNo, 0],
      [aliquot.sampleNo, 1],
      ['custom-7', 2],
      [sibling.sampleNo, 1],
    ])
    expect(tree.rows[0]!.aliquots).toBe(2)

    // A root's new type goes to its whole tree; the update is audited on the project.
    const changed = data<Sample>(await call('PUT', `${samples(p)}/${first.id}`, { type: 'plasma', freezer: 'F9', sampleNo: '' }))
    expect(changed).toMatchObject({ sampleNo: first.sampleNo, type: 'plasma', freezer: 'F9', collectedAt: null, remarks: '' })
    expect(data<Sample>(await call('GET', `${samples(p)}/${grand.id}`)).type).toBe('plasma')

    const used = data<Sample>(await call('PUT', `${samples(p)}/${second.id}/status`, { status: 'used' }))
    expect(used.status).toBe('used')
    const logged = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('object_type', '=', 'project')
      .where('object_id', '=', p.id)
      .where('action', 'like', 'sample.%')
      .orderBy('id')
      .execute()
    expect(logged.map((l) => l.action)).toEqual([
      'sample.create',
      'sample.create',
      'sample.create',
      'sample.create',
      'sample.create',
      'sample.update',
      'sample.status',
    ])
    expect(JSON.parse(logged[6]!.detail!)).toMatchObject({ sampleId: second.id, from: 'available', to: 'used' })

    // A number at the length limit: the generated one shortens the base and keeps its suffix.
    const long = await create(p, { subjectId: s.id, type: 'serum', sampleNo: 'L'.repeat(50) })
    const [a1, a2] = [await create(p, { parentId: long.id }), await create(p, { parentId: long.id })]
    expect([a1.sampleNo, a2.sampleNo]).toEqual([`${'L'.repeat(48)}-1`, `${'L'.repeat(48)}-2`])
  })

  it('shows whether each sample CRF is filled, and refuses to delete a sample with aliquots or sample CRF records', async () => {
    const p = await project()
    const s = await enrol(p, centers[0]!)
    const crf = await sampleCrf(p.id, '血样采集表')
    const root = await create(p, { subjectId: s.id, type: 'wholeBlood' })
    const child = await create(p, { parentId: root.id })
    const lone = await create(p, { subjectId: s.id, type: 'urine' })
    const at = new Date().toISOString()
    const subject = await t.db.kysely.selectFrom('subject').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow()
    await t.db.kysely
      .insertInto('form_record')
      .values({
        project_id: p.id,
        subject_id: s.id,
        center_id: subject.center_id,
        queue_id: subject.queue_id,
        template_id: crf.templateId,
        version_id: crf.versionId,
        slot: `s${lone.id}`,
        sample_id: lone.id,
        visit_id: null,
        created_by: null,
        created_at: at,
        updated_by: null,
        updated_at: at,
        signed_by: null,
        signed_at: null,
      })
      .execute()
    const page = data<SamplePage>(await call('GET', `${samples(p)}?sort=sampleNo`))
    const byId = new Map(page.rows.map((r) => [r.id, r]))
    expect(byId.get(lone.id)!.forms).toEqual([
      { templateId: crf.templateId, name: '血样采集表', recordId: expect.any(Number), status: 'saved' },
    ])
    expect(byId.get(root.id)!.forms).toEqual([{ templateId: crf.templateId, name: '血样采集表', recordId: null, status: 'empty' }])

    await refused(
      'DELETE',
      `${samples(p)}/${root.id}`,
      undefined,
      409,
      '样本有 1 个分装样本，不能删除',
      'The sample has 1 aliquot: it cannot be deleted',
    )
    await refused(
      'DELETE',
      `${samples(p)}/${lone.id}`,
      undefined,
      409,
      '样本已填写 1 份样本 CRF，不能删除',
      'The sample has 1 sample CRFs filled in: it cannot be deleted',
    )
    expect((await call('DELETE', `${samples(p)}/${child.id}`)).statusCode).toBe(200)
    expect((await call('DELETE', `${samples(p)}/${root.id}`)).statusCode).toBe(200)
    expect(await t.db.kysely.selectFrom('sample').select('id').where('id', 'in', [root.id, child.id]).execute()).toEqual([])
    expect(
      (
        await t.db.kysely
          .selectFrom('audit_log')
          .select('action')
          .where('action', '=', 'sample.delete')
          .where('object_id', '=', p.id)
          .execute()
      ).length,
    ).toBe(2)
  })

  it('keeps a deleted sample’s number: refused for a new sample or an edit, skipped by generated numbers, also after an upgrade', async () => {
    const p = await project()
    const s = await enrol(p, centers[0]!)
    const first = await create(p, { subjectId: s.id, type: 'serum' })
    const second = await create(p, { subjectId: s.id, type: 'serum' })
    const aliquots = [await create(p, { parentId: first.id }), await create(p, { parentId: first.id })]
    const typed = await create(p, { subjectId: s.id, type: 'urine', sampleNo: 'Tube-9' })
    for (const gone of [second, aliquots[1]!, typed]) expect((await call('DELETE', `${samples(p)}/${gone.id}`)).statusCode).toBe(200)
    const reused = (no: string) =>
      [
        `样本编号 ${no} 属于一个已删除的样本，不能再次使用`,
        `Sample number ${no} belonged to a deleted sample: it cannot be used again`,
      ] as const
    await refused('POST', samples(p), { subjectId: s.id, type: 'serum', sampleNo: second.sampleNo }, 409, ...reused(second.sampleNo))
    await refused('POST', samples(p), { parentId: first.id, sampleNo: 'tube-9' }, 409, ...reused('tube-9'))
    await refused('PUT', `${samples(p)}/${first.id}`, { type: 'serum', sampleNo: 'TUBE-9' }, 409, ...reused('TUBE-9'))
    // Generated numbers go past the deleted ones.
    expect((await create(p, { subjectId: s.id, type: 'serum' })).sampleNo).toBe(`${s.subjectNo}-S3`)
    expect((await create(p, { parentId: first.id })).sampleNo).toBe(`${first.sampleNo}-3`)
    // Another project may use the number.
    const other = await project()
    expect((await create(other, { subjectId: (await enrol(other, centers[0]!)).id, type: 'serum', sampleNo: 'Tube-9' })).sampleNo).toBe(
      'Tube-9',
    )

    // A database from before numbers were kept reads them back from the audit trail.
    await migrateTo(t.db, '20261212_0035_upload_forms')
    await migrateToLatest(t.db)
    await refused('POST', samples(p), { subjectId: s.id, type: 'serum', sampleNo: 'Tube-9' }, 409, ...reused('Tube-9'))
    await refused('POST', samples(p), { parentId: first.id, sampleNo: aliquots[1]!.sampleNo }, 409, ...reused(aliquots[1]!.sampleNo))
  })

  it('keeps a renamed sample’s old number from other samples; the sample may take it back; a change of case is no rename; also after an upgrade', async () => {
    const p = await project()
    const s = await enrol(p, centers[0]!)
    const renamed = await create(p, { subjectId: s.id, type: 'serum', sampleNo: 'Old-1' })
    const put = (id: number, sampleNo: string) => call('PUT', `${samples(p)}/${id}`, { type: 'serum', sampleNo })
    expect(data<Sample>(await put(renamed.id, 'New-1')).sampleNo).toBe('New-1')
    const before = (no: string) =>
      [
        `样本编号 ${no} 是另一个样本改名前的编号，不能再次使用`,
        `Sample number ${no} was another sample's number before it was renamed: it cannot be used again`,
      ] as const
    await refused('POST', samples(p), { subjectId: s.id, type: 'serum', sampleNo: 'old-1' }, 409, ...before('old-1'))
    const other = await create(p, { subjectId: s.id, type: 'serum' })
    await refused('PUT', `${samples(p)}/${other.id}`, { type: 'serum', sampleNo: 'OLD-1' }, 409, ...before('OLD-1'))
    // The sample itself may have its old number back; then the number it leaves is kept instead.
    expect(data<Sample>(await put(renamed.id, 'Old-1')).sampleNo).toBe('Old-1')
    await refused('PUT', `${samples(p)}/${other.id}`, { type: 'serum', sampleNo: 'New-1' }, 409, ...before('New-1'))
    // Only the case changed: the same number, nothing kept.
    expect(data<Sample>(await put(renamed.id, 'OLD-1')).sampleNo).toBe('OLD-1')
    expect(data<Sample>(await put(renamed.id, 'Old-1')).sampleNo).toBe('Old-1')
    // Deleted, every number the sample had is a deleted sample's.
    expect((await call('DELETE', `${samples(p)}/${renamed.id}`)).statusCode).toBe(200)
    for (const no of ['Old-1', 'New-1'])
      await refused(
        'POST',
        samples(p),
        { subjectId: s.id, type: 'serum', sampleNo: no },
        409,
        `样本编号 ${no} 属于一个已删除的样本，不能再次使用`,
        `Sample number ${no} belonged to a deleted sample: it cannot be used again`,
      )

    // A database from before renames were kept reads them back from the audit trail, but leaves a
    // number another sample holds now to that sample.
    const kept = await create(p, { subjectId: s.id, type: 'serum', sampleNo: 'First-2' })
    expect(data<Sample>(await put(kept.id, 'Second-2')).sampleNo).toBe('Second-2')
    expect(data<Sample>(await put(kept.id, 'Third-2')).sampleNo).toBe('Third-2')
    await migrateTo(t.db, '20261213_0036_retired_sample_numbers')
    await t.db.kysely.deleteFrom('sample_retired_no').where('sample_id', '=', kept.id).execute()
    const holder = await create(p, { subjectId: s.id, type: 'serum', sampleNo: 'Second-2' })
    await migrateToLatest(t.db)
    await refused('POST', samples(p), { subjectId: s.id, type: 'serum', sampleNo: 'first-2' }, 409, ...before('first-2'))
    expect(data<Sample>(await put(holder.id, 'SECOND-2')).sampleNo).toBe('SECOND-2')
    expect(data<Sample>(await put(kept.id, 'First-2')).sampleNo).toBe('First-2')
  })

  it('pages by keyset in every sort with filters, and counts what the filter keeps', async () => {
    const p = await project()
    const a = await enrol(p, centers[0]!)
    const b = await enrol(p, centers[1]!)
    const made: Sample[] = []
    for (let i = 0; i < 7; i += 1) {
      made.push(
        await create(p, {
          subjectId: i % 2 === 0 ? a.id : b.id,
          type: i < 5 ? 'serum' : 'tissue',
          sampleNo: `Tube-${String(i).padStart(2, '0')}`,
          collectedAt: i === 3 ? null : `2026-10-0${i + 1}`,
        }),
      )
    }
    data(await call('PUT', `${samples(p)}/${made[1]!.id}/status`, { status: 'used' }))
    const all = async (query: string) => {
      const out: Sample[] = []
      let after: string | null = null
      let total = -1
      do {
        const page: SamplePage = data<SamplePage>(await call('GET', `${samples(p)}?limit=2&${query}${after ? `&after=${after}` : ''}`))
        out.push(...page.rows)
        total = page.total
        after = page.next
      } while (after)
      return { nos: out.map((r) => r.sampleNo), total }
    }
    const nos = made.map((m) => m.sampleNo)
    expect(await all('sort=sampleNo')).toEqual({ nos, total: 7 })
    expect(await all('sort=sampleNo&order=desc')).toEqual({ nos: [...nos].reverse(), total: 7 })
    // Unknown collection times sort first.
    expect((await all('sort=collectedAt')).nos).toEqual([nos[3], nos[0], nos[1], nos[2], nos[4], nos[5], nos[6]])
    expect(await all('type=tissue')).toEqual({ nos: [nos[5], nos[6]], total: 2 })
    expect(await all('status=used')).toEqual({ nos: [nos[1]], total: 1 })
    expect(await all(`subjectId=${b.id}`)).toEqual({ nos: [nos[1], nos[3], nos[5]], total: 3 })
    expect(await all(`centerId=${centers[1]}&type=serum`)).toEqual({ nos: [nos[1], nos[3]], total: 2 })
    expect(await all('q=tube-0')).toEqual({ nos, total: 7 })
    expect(await all('q=TUBE-05')).toEqual({ nos: [nos[5]], total: 1 })
    expect(await all('q=x')).toEqual({ nos: [], total: 0 })
  })

  it('refuses another center’s sample on every call exactly like an unknown one, and lists and counts only its own', async () => {
    const p = await project()
    await addProjectMember(t, p.id, userIds.limited!, { authorities: ['enterData', 'delete'], centers: [centers[0]!] })
    const mine = await enrol(p, centers[0]!)
    const theirs = await enrol(p, centers[1]!)
    const own = await create(p, { subjectId: mine.id, type: 'serum' })
    const other = await create(p, { subjectId: theirs.id, type: 'serum' })
    const unknown = other.id + 1000

    const page = await by('limited', async () => data<SamplePage>(await call('GET', samples(p))))
    expect(page.rows.map((r) => r.id)).toEqual([own.id])
    expect(page.total).toBe(1)
    await by('limited', async () => {
      expect(data<SamplePage>(await call('GET', `${samples(p)}?centerId=${centers[1]}`))).toEqual({ rows: [], next: null, total: 0 })
      expect(data<Sample>(await call('GET', `${samples(p)}/${own.id}`)).id).toBe(own.id)
      for (const id of [other.id, unknown]) {
        const msg = [
          `样本 ${id} 不存在或不在你有权查看的中心和队列中`,
          `Sample ${id} does not exist or is outside the centers and queues you may see`,
        ] as const
        await refused('GET', `${samples(p)}/${id}`, undefined, 404, ...msg)
        await refused('GET', `${samples(p)}/${id}/tree`, undefined, 404, ...msg)
        await refused('PUT', `${samples(p)}/${id}`, { type: 'serum', remarks: 'x' }, 404, ...msg)
        await refused('PUT', `${samples(p)}/${id}/status`, { status: 'used' }, 404, ...msg)
        await refused('DELETE', `${samples(p)}/${id}`, undefined, 404, ...msg)
        await refused('POST', samples(p), { parentId: id }, 404, ...msg)
      }
      await refused(
        'POST',
        samples(p),
        { subjectId: theirs.id, type: 'serum' },
        404,
        `研究对象 ${theirs.id} 不存在或不在你有权查看的中心和队列中`,
        `Research object ${theirs.id} does not exist or is outside the centers and queues you may see`,
      )
      await refused(
        'POST',
        samples(p),
        { subjectNo: theirs.subjectNo, type: 'serum' },
        404,
        `研究对象 ${theirs.subjectNo} 不存在或不在你有权查看的中心和队列中`,
        `Research object ${theirs.subjectNo} does not exist or is outside the centers and queues you may see`,
      )
    })
    // Not a member at all: the guard refuses.
    const foreign = await project()
    const res = await by('limited', () => call('GET', samples(foreign)))
    expect(res.statusCode).toBe(403)
  })

  it('refuses bad input in zh and en with nothing written', async () => {
    const p = await project()
    const s = await enrol(p, centers[0]!)
    const root = await create(p, { subjectId: s.id, type: 'serum', sampleNo: 'AB-1' })
    const url = samples(p)
    await refused(
      'POST',
      url,
      { subjectId: s.id, type: 'serum', sampleNo: 'ab-1' },
      409,
      '样本编号 ab-1 已存在',
      'Sample number ab-1 already exists',
    )
    await refused('POST', url, { subjectId: s.id }, 400, '请输入 类型', 'Please input type')
    await refused(
      'POST',
      url,
      { type: 'serum' },
      400,
      '请指定研究对象或父样本（二选一）',
      'Name either a research object or a parent sample, not both',
    )
    await refused(
      'POST',
      url,
      { subjectId: s.id, parentId: root.id, type: 'serum' },
      400,
      '请指定研究对象或父样本（二选一）',
      'Name either a research object or a parent sample, not both',
    )
    await refused(
      'POST',
      url,
      { subjectNo: s.subjectNo, parentId: root.id },
      400,
      '请指定研究对象或父样本（二选一）',
      'Name either a research object or a parent sample, not both',
    )
    await refused(
      'POST',
      url,
      { parentId: root.id, type: 'urine' },
      400,
      '分装样本的类型必须与父样本相同',
      'An aliquot has the type of its parent sample',
    )
    await refused(
      'POST',
      url,
      { subjectId: s.id, type: 'blood' },
      400,
      '类型 的值不合法，应为以下之一：wholeBlood、serum、plasma、urine、tissue、dna、rna、saliva、stool、csf、other',
      'type must be one of: wholeBlood, serum, plasma, urine, tissue, dna, rna, saliva, stool, csf, other',
    )
    await refused(
      'POST',
      url,
      { subjectId: s.id, type: 'serum', collectedAt: '2026-13-01' },
      400,
      '采集时间 应为真实存在的日期，如 2026-01-31 或 2026-01-31 08:30',
      'collection time must be a real date such as 2026-01-31 or 2026-01-31 08:30',
    )
    await refused(
      'POST',
      url,
      { subjectId: s.id, type: 'serum', collectedAt: '2026-02-30' },
      400,
      '采集时间 应为真实存在的日期，如 2026-01-31 或 2026-01-31 08:30',
      'collection time must be a real date such as 2026-01-31 or 2026-01-31 08:30',
    )
    await refused('POST', url, { subjectId: s.id, type: 'serum', quantity: -1 }, 400, '数量 不能小于 0', 'quantity must be at least 0')
    await refused(
      'POST',
      url,
      { subjectId: s.id, type: 'serum', quantity: '2' },
      400,
      '数量 的类型不正确，应为数字',
      'quantity has the wrong type; expected a number',
    )
    await refused('POST', url, { subjectId: s.id, type: 'serum', owner: 1 }, 400, '不允许的字段：owner', 'Field not allowed: owner')
    await refused(
      'POST',
      url,
      { subjectId: s.id, type: 'serum', box: 'x'.repeat(41) },
      400,
      '盒 长度不能超过 40 个字符',
      'box must be at most 40 characters',
    )
    await refused('GET', `${url}?after=bogus`, undefined, 400, '分页位置 的值不合法', 'page position is not valid')
    await refused(
      'GET',
      `${url}?status=lost`,
      undefined,
      400,
      '状态 的值不合法，应为以下之一：available、used、destroyed',
      'status must be one of: available, used, destroyed',
    )

    const other = await create(p, { subjectId: s.id, type: 'serum', sampleNo: 'CD-2' })
    await refused(
      'PUT',
      `${url}/${other.id}`,
      { type: 'serum', sampleNo: 'Ab-1' },
      409,
      '样本编号 Ab-1 已存在',
      'Sample number Ab-1 already exists',
    )
    const aliquot = await create(p, { parentId: root.id })
    await refused(
      'PUT',
      `${url}/${aliquot.id}`,
      { type: 'urine' },
      400,
      '分装样本的类型必须与父样本相同',
      'An aliquot has the type of its parent sample',
    )
    await refused(
      'PUT',
      `${url}/${root.id}/status`,
      { status: 'destroyed' },
      400,
      '销毁样本请填写原因',
      'Give a reason for destroying the sample',
    )
    data(await call('PUT', `${url}/${other.id}/status`, { status: 'destroyed', reason: '溶血' }))
    await refused(
      'PUT',
      `${url}/${other.id}/status`,
      { status: 'available' },
      409,
      '样本已销毁，状态不能再修改',
      'The sample is destroyed: its status can no longer change',
    )
    await refused(
      'POST',
      url,
      { parentId: other.id },
      409,
      '父样本不是可用状态，不能分装',
      'The parent sample is not available: it cannot be aliquoted',
    )
  })

  it('tells the data-entry service which sample a sample CRF slot names, only a sample of that subject', async () => {
    const p = await project()
    const a = await enrol(p, centers[0]!)
    const b = await enrol(p, centers[0]!)
    const s = await create(p, { subjectId: a.id, type: 'serum' })
    expect(await sampleIdOfSlot(t.db.kysely, a.id, `s${s.id}`)).toBe(s.id)
    for (const [subjectId, slot] of [
      [b.id, `s${s.id}`],
      [a.id, `s${s.id + 1000}`],
      [a.id, ''],
      [a.id, `v${s.id}`],
      [a.id, 's0'],
      [a.id, 's99999999999'],
    ] as const) {
      await expect(sampleIdOfSlot(t.db.kysely, subjectId, slot)).rejects.toMatchObject({ status: 400, key: 'sample.slotInvalid' })
    }
  })

  it('serves only projects that manage biomaterial, and writes only to active ones', async () => {
    const plain = await project({ biomaterial: false })
    const s = await enrol(plain, centers[0]!)
    const notManaged = ['该项目不管理生物样本', 'This project does not manage biomaterial samples'] as const
    await refused('GET', samples(plain), undefined, 409, ...notManaged)
    await refused('POST', samples(plain), { subjectId: s.id, type: 'serum' }, 409, ...notManaged)

    const closed = await project()
    const c = await enrol(closed, centers[0]!)
    const kept = await create(closed, { subjectId: c.id, type: 'serum' })
    data(await call('POST', `/projects/${closed.id}/close`, { reason: '研究结束' }))
    const shut = [
      '项目已结束或未处于进行中状态，数据不能再修改',
      'The project is closed or not active: its data can no longer be changed',
    ] as const
    await refused('POST', samples(closed), { subjectId: c.id, type: 'serum' }, 409, ...shut)
    await refused('PUT', `${samples(closed)}/${kept.id}`, { type: 'serum' }, 409, ...shut)
    await refused('PUT', `${samples(closed)}/${kept.id}/status`, { status: 'used' }, 409, ...shut)
    await refused('DELETE', `${samples(closed)}/${kept.id}`, undefined, 409, ...shut)
    // Reading a closed project's samples still works.
    expect(data<SamplePage>(await call('GET', samples(closed))).total).toBe(1)
  })
})
