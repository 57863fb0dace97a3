import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { SaxesParser } from 'saxes'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataLoaderPaths } from '../../contract/dataLoader.ts'
import { fromJson } from '../../server/db/json.ts'
import { migrateTo, migrateToLatest } from '../../server/db/migrate.ts'
import { actorOf, withMemberships } from '../../server/services/actor.ts'
import { authenticate } from '../../server/services/auth.ts'
import { startDownload } from '../../server/services/dataLoader/download.ts'
import { studyFixture, type StudyFixture } from '../support/studyFixture.ts'

/**
 * downloadData: xlsx in the upload layout, CSV, ODM 1.3.2 — against what the database holds; only
 * the caller's centers; identifier fields only with the grant; each download recorded with the
 * hash and size of the bytes the client received.
 */

let s: StudyFixture
const forms: Record<'baseline' | 'history' | 'followUp' | 'sample', number> = { baseline: 0, history: 0, followUp: 0, sample: 0 }
const field: Record<string, number> = {}
let visits: { id: number; name: string }[] = []
const url = '/api/scientific/dataloader/downloadData'

type Values = Record<string, string | string[]>

beforeAll(async () => {
  s = await studyFixture({ subjects: 24 })
  const db = s.t.db.kysely
  const tpl = await db
    .selectFrom('project_form as f')
    .innerJoin('template as t', 't.id', 'f.template_id')
    .select(['t.id', 't.name', 'f.version_id'])
    .where('f.project_id', '=', s.projectId)
    .execute()
  const byName = (part: string) => tpl.find((t) => t.name.includes(part))!
  forms.baseline = byName('baseline').id
  forms.history = byName('history').id
  forms.followUp = byName('follow-up').id
  forms.sample = byName('biomaterial').id
  for (const i of await db.selectFrom('indicator').select(['id', 'code']).where('code', 'like', 'demo_%').execute()) field[i.code] = i.id
  visits = await db.selectFrom('visit').select(['id', 'name']).where('project_id', '=', s.projectId).orderBy('day_offset').execute()
  // demo_weight becomes an identifier field as a REDCap import marks one, in the published snapshot.
  const v = await db
    .selectFrom('template_version')
    .select(['id', 'snapshot'])
    .where('id', '=', byName('baseline').version_id)
    .executeTakeFirstOrThrow()
  const snap = JSON.parse(v.snapshot!) as { fields: { code: string; comment: string }[] }
  for (const f of snap.fields) if (f.code === 'demo_weight') f.comment += '\n@redcap {"identifier":"y"}'
  await db
    .updateTable('template_version')
    .set({ snapshot: JSON.stringify(snap) })
    .where('id', '=', v.id)
    .execute()
  // A value a spreadsheet would run.
  const row = await db
    .selectFrom('form_row')
    .select(['id', 'data'])
    .where('section_key', '=', 'past')
    .orderBy('id')
    .executeTakeFirstOrThrow()
  const data = fromJson<Values>(row.data)
  data[String(field.demo_condition)] = '=1+1'
  await db
    .updateTable('form_row')
    .set({ data: JSON.stringify(data) })
    .where('id', '=', row.id)
    .execute()
}, 120_000)
afterAll(() => s.close())

/** A kept download's file fetched again by `token`, answered in `lang`. */
function fetchAgain(token: string, id: number, lang: string) {
  return s.t.app.inject({
    method: 'GET',
    url: `/${dataLoaderPaths.downloadFile(id)}?studyId=${s.projectId}`,
    headers: { 'kr-d-token': token, 'accept-language': lang },
  })
}

/** A kept file fetched again in both languages: refused (403) with `zh` and `en`; answers the en reply. */
async function refusedAgain(token: string, id: number, messages: { zh: string; en: string }) {
  const zh = await fetchAgain(token, id, 'zh')
  const en = await fetchAgain(token, id, 'en')
  expect(zh.statusCode).toBe(403)
  expect(zh.json().msg).toBe(messages.zh)
  expect(en.json().msg).toBe(messages.en)
  return en
}

function get(token: string, query: Record<string, string | number | number[]>) {
  const qs = new URLSearchParams({ studyId: String(s.projectId) })
  for (const [k, v] of Object.entries(query)) qs.set(k, Array.isArray(v) ? v.join(',') : String(v))
  return s.t.app.inject({ method: 'GET', url: `${url}?${qs}`, headers: { 'kr-d-token': token, 'accept-language': 'en' } })
}

/** The database's records of a form with their subject, center code, visit and sample numbers. */
async function dbRecords(templateId: number) {
  const rows = await s.t.db.kysely
    .selectFrom('form_record as r')
    .innerJoin('subject as su', 'su.id', 'r.subject_id')
    .innerJoin('center as c', 'c.id', 'su.center_id')
    .leftJoin('sample as sa', 'sa.id', 'r.sample_id')
    .select(['r.id', 'r.data', 'r.visit_id', 'su.subject_no', 'su.center_id', 'c.code', 'sa.sample_no'])
    .where('r.template_id', '=', templateId)
    .where('r.project_id', '=', s.projectId)
    .execute()
  return rows.map((r) => ({ ...r, values: fromJson<Values>(r.data) }))
}

function csvRows(text: string): string[][] {
  // The demo's values hold no quotes, commas or line breaks but the neutralised one.
  return text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter((l) => l !== '')
    .map((l) => l.split(','))
}

describe('downloadData', () => {
  it('writes xlsx in the upload layout: codes, labels, the values of the database, a hidden _layout sheet', async () => {
    const res = await get(s.tokens.demo!, { templateIds: [forms.baseline, forms.history], format: 'xlsx', lang: 'en' })
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="DEMO-2026-data-\d{8}-\d{6}\.xlsx"/)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    const names = wb.worksheets.map((w) => w.name)
    expect(names).toHaveLength(4)
    expect(names[3]).toBe('_layout')
    expect(wb.worksheets[3]!.state).toBe('hidden')
    const base = wb.worksheets[0]!
    const codes = (base.getRow(1).values as unknown[]).slice(1)
    expect(codes).toEqual([
      'subject_id',
      'center',
      'queue',
      'demo_sex',
      'demo_age',
      'demo_height',
      'demo_weight',
      'demo_smoker',
      'demo_diagnosed',
    ])
    expect((base.getRow(2).values as unknown[]).slice(1, 5)).toEqual(['Subject ID', 'Center code', 'Queue key', 'Sex'])
    const bySubject = new Map<string, unknown[]>()
    base.eachRow((r, n) => {
      if (n > 2) bySubject.set(String(r.getCell(1).value), (r.values as unknown[]).slice(1))
    })
    const records = await dbRecords(forms.baseline)
    expect(bySubject.size).toBe(records.length)
    for (const r of records) {
      const cells = bySubject.get(r.subject_no)!
      expect(cells[1]).toBe(r.code)
      expect(cells[3]).toBe(r.values[String(field.demo_sex)])
      // Numbers as numbers.
      expect(cells[4]).toBe(Number(r.values[String(field.demo_age)]))
      expect(cells[5]).toBe(Number(r.values[String(field.demo_height)]))
      expect(cells[8]).toBe(r.values[String(field.demo_diagnosed)])
    }
    const past = wb.worksheets[2]!
    expect((past.getRow(1).values as unknown[]).slice(1)).toEqual(['subject_id', 'row', 'demo_condition', 'demo_onset'])
    const rowCount = await s.t.db.kysely
      .selectFrom('form_row as w')
      .innerJoin('form_record as r', 'r.id', 'w.record_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('r.template_id', '=', forms.history)
      .executeTakeFirstOrThrow()
    expect(past.rowCount - 2).toBe(Number(rowCount.n))
    const cells: string[] = []
    past.eachRow((r) => cells.push(String(r.getCell(3).value)))
    expect(cells).toContain("'=1+1")
    const layout = wb.worksheets[3]!
    expect((layout.getRow(1).values as unknown[]).slice(1)).toEqual(['sheet', 'templateId', 'versionId', 'section'])
    expect((layout.getRow(4).values as unknown[]).slice(1, 4)).toEqual([names[2], forms.history, expect.any(Number)])
    expect(layout.getRow(4).getCell(4).value).toBe('past')
  })

  it('writes one CSV table with a BOM and neutralised formulas; a choice of several tables is refused naming them', async () => {
    const refused = await get(s.tokens.demo!, { templateIds: [forms.history], format: 'csv' })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().msg).toMatch(/A CSV holds one table, and the choice makes 2/)
    const res = await get(s.tokens.demo!, {
      templateIds: [forms.history],
      format: 'csv',
      fieldIds: [field.demo_condition!, field.demo_onset!],
    })
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
    const [head, ...rows] = csvRows(res.body)
    expect(head).toEqual(['subject_id', 'row', 'demo_condition', 'demo_onset'])
    expect(rows.map((r) => r[2])).toContain("'=1+1")
    expect(rows.some((r) => r[2] === '=1+1')).toBe(false)
    const expected: string[] = []
    for (const r of await dbRecords(forms.history)) {
      const got = await s.t.db.kysely
        .selectFrom('form_row')
        .select('data')
        .where('record_id', '=', r.id)
        .orderBy('sort')
        .orderBy('id')
        .execute()
      got.forEach((w, i) => {
        const v = fromJson<Values>(w.data)
        const c = String(v[String(field.demo_condition)])
        expected.push([r.subject_no, i + 1, c.startsWith('=') ? `'${c}` : c, v[String(field.demo_onset)]].join(','))
      })
    }
    expect(rows.map((r) => r.join(',')).sort()).toEqual(expected.sort())
  })

  it('writes well-formed ODM 1.3.2 carrying every value the database holds for the CRFs', async () => {
    const all = [forms.baseline, forms.history, forms.followUp, forms.sample]
    const res = await get(s.tokens.demo!, { templateIds: all, format: 'odm', lang: 'zh' })
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
    const parser = new SaxesParser({ xmlns: true })
    const got = new Set<string>()
    const at = { subject: '', event: '', form: '', formRepeat: '', group: '' }
    let root = ''
    const langs = new Set<string>()
    parser.on('opentag', (t) => {
      const a = (n: string) => (t.attributes[n] as { value: string } | undefined)?.value ?? ''
      if (!root) root = `${t.uri} ${a('ODMVersion')} ${a('FileType')}`
      if (t.local === 'TranslatedText') langs.add(a('xml:lang'))
      if (t.local === 'SubjectData') at.subject = a('SubjectKey')
      if (t.local === 'StudyEventData') at.event = a('StudyEventOID')
      if (t.local === 'FormData') [at.form, at.formRepeat] = [a('FormOID').split('.')[1]!, a('FormRepeatKey')]
      if (t.local === 'ItemGroupData') at.group = a('ItemGroupRepeatKey')
      if (t.local === 'ItemData')
        got.add([at.subject, at.event, at.form, at.formRepeat, at.group, a('ItemOID').split('.').slice(2).join('.'), a('Value')].join('|'))
    })
    parser.write(res.body).close()
    expect(root).toBe('http://www.cdisc.org/ns/odm/v1.3 1.3.2 Snapshot')
    expect([...langs].sort()).toEqual(['en', 'zh'])
    const codeOf = new Map(Object.entries(field).map(([c, id]) => [String(id), c]))
    const expected = new Set<string>()
    for (const t of all) {
      for (const r of await dbRecords(t)) {
        const event = r.visit_id === null ? 'SE.SUBJECT' : `SE.V${r.visit_id}`
        const repeat = r.sample_no ?? ''
        for (const [k, v] of Object.entries(r.values))
          if (v !== '') expected.add([r.subject_no, event, t, repeat, '', codeOf.get(k), v].join('|'))
        const rows = await s.t.db.kysely
          .selectFrom('form_row')
          .select('data')
          .where('record_id', '=', r.id)
          .orderBy('sort')
          .orderBy('id')
          .execute()
        rows.forEach((w, i) => {
          for (const [k, v] of Object.entries(fromJson<Values>(w.data)))
            expected.add([r.subject_no, event, t, repeat, i + 1, codeOf.get(k), v].join('|'))
        })
      }
    }
    expect(expected.size).toBeGreaterThan(100)
    expect([...got].sort()).toEqual([...expected].sort())
  })

  it('gives a member of center A nothing of center B, and answers naming center B as naming a center the project lacks', async () => {
    const [a, b] = s.centerIds
    const token = await s.member('centerA', ['export', 'identifiers'], { centers: [a!] })
    const res = await get(token, { templateIds: [forms.baseline], format: 'csv' })
    expect(res.statusCode).toBe(200)
    const [, ...rows] = csvRows(res.body)
    const inA = (await dbRecords(forms.baseline)).filter((r) => r.center_id === a)
    expect(inA.length).toBeGreaterThan(0)
    expect(rows.map((r) => r[0]).sort()).toEqual(inA.map((r) => r.subject_no).sort())
    // Center B is answered as a center the project lacks: its code is not the member's to learn.
    for (const id of [b!, 999_999]) {
      const refused = await get(token, { templateIds: [forms.baseline], format: 'csv', centerIds: [id] })
      expect([refused.statusCode, refused.json().msg]).toEqual([400, `The project has no center ${id} you may download`])
    }
    const limited = await s.member('queueA', ['export'], { queues: [s.queueIds[0]!] })
    for (const id of [s.queueIds[1]!, 999_999]) {
      const refused = await get(limited, { templateIds: [forms.baseline], format: 'csv', queueIds: [id] })
      expect([refused.statusCode, refused.json().msg]).toEqual([400, `The project has no queue ${id} you may download`])
    }
    const own = await get(token, { templateIds: [forms.baseline], format: 'csv', centerIds: [a!] })
    expect(csvRows(own.body).length - 1).toBe(inA.length)
  })

  it('refuses a download of no CRF in every format, and records none', async () => {
    const records = async () => (await s.t.db.kysely.selectFrom('data_download').select('id').execute()).length
    const before = await records()
    for (const format of ['xlsx', 'csv', 'odm']) {
      const res = await get(s.tokens.demo!, { templateIds: '', format })
      expect([res.statusCode, res.json().msg]).toEqual([400, 'Choose at least one CRF'])
    }
    expect(await records()).toBe(before)
  })

  it('lets a researcher who may export but not import choose among the CRFs and download, but not load', async () => {
    const token = await s.member('exporter', ['export'], { systemRole: 'researcher' })
    const inject = (path: string, query: string, method: 'GET' | 'POST' = 'GET') =>
      s.t.app.inject({
        method,
        url: `/api/scientific/dataloader/${path}?studyId=${s.projectId}&${query}`,
        headers: { 'kr-d-token': token },
      })
    const crfs = await inject('getCrfByStudyId', '')
    expect(crfs.statusCode).toBe(200)
    expect(crfs.json().data.map((c: { templateId: number }) => c.templateId)).toContain(forms.baseline)
    const csv = await get(token, { templateIds: [forms.baseline], format: 'csv' })
    expect(csv.statusCode).toBe(200)
    expect(csvRows(csv.body).length - 1).toBe((await dbRecords(forms.baseline)).length)
    expect((await inject('downloadTemplate', `templateIds=${forms.baseline}`)).statusCode).toBe(403)
    expect((await inject('uploadFile', `templateId=${forms.baseline}`, 'POST')).statusCode).toBe(403)
  })

  it('leaves identifier fields out without the grant, and has them with it', async () => {
    const without = await s.member('noIds', ['export'])
    const withIds = await s.member('withIds', ['export', 'identifiers'])
    const header = async (token: string) => csvRows((await get(token, { templateIds: [forms.baseline], format: 'csv' })).body)[0]
    expect(await header(without)).not.toContain('demo_weight')
    expect(await header(withIds)).toContain('demo_weight')
    expect(await header(s.tokens.demo!)).toContain('demo_weight')
    const named = await get(without, { templateIds: [forms.baseline], format: 'csv', fieldIds: [field.demo_weight!] })
    expect(named.statusCode).toBe(403)
    expect(named.json().msg).toMatch(/demo_weight is an identifier/)
  })

  it('refuses a kept download with identifier fields to its maker once the grant is gone, in both languages', async () => {
    const token = await s.member('idsTaken', ['export', 'identifiers'])
    expect((await get(token, { templateIds: [forms.baseline], format: 'csv' })).statusCode).toBe(200)
    const withIds = await s.t.db.kysely.selectFrom('data_download').selectAll().where('username', '=', 'idsTaken').executeTakeFirstOrThrow()
    expect(withIds.holds_identifiers).toBe(1)
    const narrowed = await get(token, { templateIds: [forms.baseline], format: 'csv', fieldIds: [field.demo_age!] })
    expect(narrowed.statusCode).toBe(200)
    const plain = await s.t.db.kysely
      .selectFrom('data_download')
      .selectAll()
      .where('username', '=', 'idsTaken')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(plain.holds_identifiers).toBe(0)
    await s.t.db.kysely
      .updateTable('project_role')
      .set({ authorities: JSON.stringify(['export']) })
      .where('name', '=', 'idsTaken role')
      .execute()
    const en = await refusedAgain(token, withIds.id, {
      zh: '该文件含有标识符字段，而您现在没有下载标识符的权限，不能再次下载',
      en: 'The file holds identifier fields, which you may no longer download; it cannot be downloaded again',
    })
    expect(en.body).not.toContain('demo_weight')
    expect((await fetchAgain(token, plain.id, 'en')).statusCode).toBe(200)
  })

  it('refuses a kept download to its maker once the role no longer covers every center the file holds, in both languages', async () => {
    const token = await s.member('wasEveryCenter', ['export'])
    expect((await get(token, { templateIds: [forms.baseline], format: 'csv' })).statusCode).toBe(200)
    const mine = () => s.t.db.kysely.selectFrom('data_download').selectAll().where('username', '=', 'wasEveryCenter').orderBy('id', 'desc')
    const everyCenter = await mine().executeTakeFirstOrThrow()
    expect(everyCenter).toMatchObject({ held_center_ids: null, held_queue_ids: null })
    const a = s.centerIds[0]!
    expect((await get(token, { templateIds: [forms.baseline], format: 'csv', centerIds: [a] })).statusCode).toBe(200)
    const centerA = await mine().executeTakeFirstOrThrow()
    expect(centerA.held_center_ids).toBe(JSON.stringify([a]))
    // The role is narrowed to center A.
    const role = await s.t.db.kysely
      .selectFrom('project_role')
      .select('id')
      .where('name', '=', 'wasEveryCenter role')
      .executeTakeFirstOrThrow()
    await s.t.db.kysely.insertInto('project_role_center').values({ role_id: role.id, center_id: a }).execute()
    await s.t.db.kysely.updateTable('project_role').set({ all_centers: 0 }).where('id', '=', role.id).execute()
    await refusedAgain(token, everyCenter.id, {
      zh: '该文件含有您现在不能查看的中心或队列的研究对象，不能再次下载',
      en: 'The file holds research objects of centers or queues you may no longer see; it cannot be downloaded again',
    })
    // Its records offer the first file no more, the center A one still.
    const records = await s.t.app.inject({
      method: 'GET',
      url: `/${dataLoaderPaths.downloadRecords}?studyId=${s.projectId}&limit=50`,
      headers: { 'kr-d-token': token },
    })
    const available = new Map((records.json().data.rows as { id: number; available: boolean }[]).map((r) => [r.id, r.available]))
    expect([available.get(everyCenter.id), available.get(centerA.id)]).toEqual([false, true])
    // What it took of center A only, it still fetches; a download made now holds center A.
    expect((await fetchAgain(token, centerA.id, 'en')).statusCode).toBe(200)
    expect((await get(token, { templateIds: [forms.baseline], format: 'csv' })).statusCode).toBe(200)
    const narrowed = await mine().executeTakeFirstOrThrow()
    expect(narrowed.held_center_ids).toBe(JSON.stringify([a]))
    expect((await fetchAgain(token, narrowed.id, 'en')).statusCode).toBe(200)
  })

  it('narrows columns by fieldIds and visit instances by visitIds', async () => {
    const cols = await get(s.tokens.demo!, { templateIds: [forms.baseline], format: 'csv', fieldIds: [field.demo_age!] })
    expect(csvRows(cols.body)[0]).toEqual(['subject_id', 'center', 'queue', 'demo_age'])
    const v1 = visits[0]!
    const res = await get(s.tokens.demo!, { templateIds: [forms.followUp], format: 'csv', visitIds: [v1.id] })
    const [head, ...rows] = csvRows(res.body)
    expect(head!.slice(0, 4)).toEqual(['subject_id', 'center', 'queue', 'visit'])
    const inV1 = (await dbRecords(forms.followUp)).filter((r) => r.visit_id === v1.id)
    expect(inV1.length).toBeGreaterThan(0)
    expect(rows).toHaveLength(inV1.length)
    expect(new Set(rows.map((r) => r[3]))).toEqual(new Set([v1.name]))
    const unknown = await get(s.tokens.demo!, { templateIds: [forms.followUp], format: 'csv', visitIds: [999999] })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().msg).toBe('The project has no visit 999999')
    // Asked of a CRF without visits, a visit narrows nothing: every instance comes, and the record does not claim it.
    const single = await get(s.tokens.demo!, { templateIds: [forms.baseline], format: 'csv', visitIds: [v1.id] })
    expect(csvRows(single.body).length - 1).toBe((await dbRecords(forms.baseline)).length)
    const kept = await s.t.db.kysely.selectFrom('data_download').select('scope').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()
    expect((JSON.parse(kept.scope) as { visitIds: unknown }).visitIds).toBeNull()
  })

  it('names the file by a Chinese project number in filename*, with an ASCII stand-in', async () => {
    const db = s.t.db.kysely
    const { number } = await db.selectFrom('project').select('number').where('id', '=', s.projectId).executeTakeFirstOrThrow()
    await db.updateTable('project').set({ number: '肺癌/2026' }).where('id', '=', s.projectId).execute()
    try {
      const res = await get(s.tokens.demo!, { templateIds: [forms.baseline], format: 'csv' })
      expect(res.statusCode).toBe(200)
      const cd = String(res.headers['content-disposition'])
      expect(cd).toMatch(/^attachment; filename="___2026-data-\d{8}-\d{6}\.csv"; filename\*=UTF-8''/)
      expect(decodeURIComponent(cd.split("UTF-8''")[1]!)).toMatch(/^肺癌_2026-data-\d{8}-\d{6}\.csv$/)
    } finally {
      await db.updateTable('project').set({ number }).where('id', '=', s.projectId).execute()
    }
  })

  it('records the download with the size and hash of the bytes received, and keeps the file', async () => {
    const res = await get(s.tokens.demo!, { templateIds: [forms.baseline, forms.history], format: 'xlsx', centerIds: [s.centerIds[0]!] })
    expect(res.statusCode).toBe(200)
    const rec = await s.t.db.kysely.selectFrom('data_download').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
    expect(rec.size).toBe(res.rawPayload.length)
    expect(rec.sha256).toBe(crypto.createHash('sha256').update(res.rawPayload).digest('hex'))
    expect(rec.format).toBe('xlsx')
    expect(rec.username).toBe('demo')
    expect(rec.file_name).toBe(/filename="([^"]+)"/.exec(String(res.headers['content-disposition']))![1])
    expect(JSON.parse(rec.scope)).toMatchObject({ templateIds: [forms.baseline, forms.history], centerIds: [s.centerIds[0]] })
    expect(rec.rows).toBeGreaterThan(0)
    const kept = path.join(s.t.app.ctx.dataDir, 'loads', rec.sha256)
    expect(fs.readFileSync(kept).equals(res.rawPayload)).toBe(true)
  })

  it('records nothing and keeps no file when the client goes away mid-stream', async () => {
    const ctx = s.t.app.ctx
    const before = await s.t.db.kysely.selectFrom('data_download').select('id').execute()
    const tmp = path.join(ctx.dataDir, 'loads', 'tmp')
    const temps = () => (fs.existsSync(tmp) ? fs.readdirSync(tmp).filter((f) => f.endsWith('.download')) : [])
    // Other test files share this data directory: only a file this download made counts.
    const earlier = new Set(temps())
    const actor = await withMemberships(ctx.db, await actorOf(ctx.db, await authenticate(ctx, s.tokens.demo!)))
    const file = await startDownload(
      ctx,
      actor,
      { userId: actor.user.id, username: 'demo', ip: '' },
      {
        studyId: s.projectId,
        format: 'csv',
        templateIds: [forms.baseline],
        lang: 'en',
      },
    )
    // As Fastify does when the socket closes: the body is destroyed after what was sent.
    await new Promise<void>((resolve) => {
      file.body.once('data', () => {
        file.body.destroy()
        resolve()
      })
    })
    await new Promise((r) => setTimeout(r, 200))
    expect(await s.t.db.kysely.selectFrom('data_download').select('id').execute()).toEqual(before)
    await expect.poll(() => temps().filter((f) => !earlier.has(f)), { timeout: 5_000 }).toEqual([])
  })

  it('migration 0024 gives the manager roles the identifiers authority, and takes it away going down', async () => {
    const manager = () =>
      s.t.db.kysely
        .selectFrom('project_role')
        .select('authorities')
        .where('project_id', '=', s.projectId)
        .where('builtin', '=', 'manager')
        .executeTakeFirstOrThrow()
        .then((r) => JSON.parse(r.authorities) as string[])
    expect(await manager()).toContain('identifiers')
    await migrateTo(s.t.db, '20261203_0023_data_loading')
    expect(await manager()).not.toContain('identifiers')
    expect(await manager()).toContain('export')
    await migrateToLatest(s.t.db)
    expect(await manager()).toContain('identifiers')
  })

  it('migration 0033 counts a download from before as holding groups and identifiers, whose contents it never recorded', async () => {
    await migrateTo(s.t.db, '20261209_0032_research_admin_audit_log')
    const old = await s.t.db.kysely
      .insertInto('data_download')
      .values({
        project_id: s.projectId,
        user_id: null,
        username: 'before',
        at: new Date().toISOString(),
        file_name: 'old.csv',
        format: 'csv',
        scope: '{}',
        sha256: 'f'.repeat(64),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    await migrateToLatest(s.t.db)
    const row = await s.t.db.kysely.selectFrom('data_download').selectAll().where('id', '=', old.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ holds_groups: 1, holds_identifiers: 1, held_center_ids: null, held_queue_ids: null })
  })
})
