import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataLoaderPaths, type LoadableCrf } from '../../contract/dataLoader.ts'
import { fromJson } from '../../server/db/json.ts'
import { studyFixture, type StudyFixture } from '../support/studyFixture.ts'

/**
 * Issue 11's round trip: the template of two CRFs (one with a sub form) is filled in as a person
 * would (a choice by its label, numbers and dates as Excel cells), uploaded, and the data download
 * of the same CRFs gives back exactly those values; a download loaded again as it is changes
 * nothing. On the database of this run.
 */

let s: StudyFixture
let crfs: LoadableCrf[] = []

beforeAll(async () => {
  s = await studyFixture({ subjects: 6 })
  crfs = (await get(`${dataLoaderPaths.crfs}?studyId=${s.projectId}`).then((r) => r.json() as Promise<{ data: LoadableCrf[] }>)).data
}, 120_000)
afterAll(() => s.close())

const get = (url: string) =>
  s.t.app.inject({ method: 'GET', url: `/${url}`, headers: { 'kr-d-token': s.tokens.demo!, 'accept-language': 'en' } })

const crfNamed = (part: string) => crfs.find((c) => c.name.includes(part))!

/** A workbook's data sheets by the code in their row 1 that only they have. */
function sheetWith(wb: ExcelJS.Workbook, code: string): ExcelJS.Worksheet {
  const ws = wb.worksheets.find((w) => (w.getRow(1).values as unknown[]).includes(code))
  if (!ws) throw new Error(`no sheet has ${code}`)
  return ws
}

/** Writes `values` by column code into row `n` of a sheet whose row 1 holds the codes. */
function fill(ws: ExcelJS.Worksheet, n: number, values: Record<string, ExcelJS.CellValue>): void {
  const codes = ws.getRow(1).values as unknown[]
  for (const [code, v] of Object.entries(values)) {
    const col = codes.indexOf(code)
    if (col < 1) throw new Error(`no column ${code} in ${ws.name}`)
    ws.getRow(n).getCell(col).value = v
  }
}

/** The data rows (from row 3) of a sheet as objects by code, cells as text. */
function rowsOf(ws: ExcelJS.Worksheet): Record<string, string>[] {
  const codes = (ws.getRow(1).values as unknown[]).map((c) => (c === undefined || c === null ? '' : String(c)))
  const out: Record<string, string>[] = []
  ws.eachRow((row, n) => {
    if (n < 3) return
    const o: Record<string, string> = {}
    ;(row.values as unknown[]).forEach((v, i) => {
      if (i > 0 && codes[i]) o[codes[i]!] = v === undefined || v === null ? '' : String(v)
    })
    out.push(o)
  })
  return out
}

describe('template → filled → upload → download', () => {
  it('gives back the values that were filled in', async () => {
    const condition = 'Hypertension &amp; <i>"HT"</i> &lt;2'
    const baseline = crfNamed('baseline')
    const history = crfNamed('history')
    const ids = `${baseline.templateId},${history.templateId}`
    const template = await get(`${dataLoaderPaths.template}?studyId=${s.projectId}&templateIds=${ids}&lang=en`)
    expect(template.statusCode).toBe(200)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(template.rawPayload as unknown as ArrayBuffer)

    const base = sheetWith(wb, 'demo_age')
    fill(base, 3, {
      subject_id: 'RT-0001',
      center: 'DBJ',
      queue: 'A',
      demo_sex: 'Female',
      demo_age: 44,
      demo_height: 170.5,
      demo_weight: 65,
      demo_smoker: '1',
      demo_diagnosed: '2024-03-05',
    })
    fill(base, 4, { subject_id: 'RT-0002', center: 'DBJ', queue: 'A', demo_sex: '1', demo_age: 61, demo_smoker: '0' })
    fill(sheetWith(wb, 'demo_allergy'), 3, { subject_id: 'RT-0001', center: 'DBJ', queue: 'A', demo_allergy: '1' })
    const past = sheetWith(wb, 'demo_condition')
    // Text that reads as XML entities stays as typed: exceljs decoded inline strings twice ("&amp;" came back "&").
    fill(past, 3, { subject_id: 'RT-0001', row: 1, demo_condition: condition, demo_onset: '2019' })
    fill(past, 4, { subject_id: 'RT-0001', row: 2, demo_condition: '=SUM(A1)', demo_onset: '2021' })
    const filled = Buffer.from(await wb.xlsx.writeBuffer())

    const answer = (await s.upload('filled.xlsx', filled, { enrol: true })).body
    expect(answer.code, JSON.stringify(answer.data?.errors ?? answer.msg)).toBe(0)
    expect(answer.data).toMatchObject({ outcome: 'loaded', enrolled: 2 })

    // The new subject's list values hold both sheets' plain values: the second merged into the first.
    const enrolled = await s.t.db.kysely
      .selectFrom('subject')
      .select('summary')
      .where('project_id', '=', s.projectId)
      .where('subject_no', '=', 'RT-0001')
      .executeTakeFirstOrThrow()
    const listed = fromJson<Record<string, string>>(enrolled.summary)
    const fieldId = async (code: string) =>
      (await s.t.db.kysely.selectFrom('indicator').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id
    expect(listed[`f${await fieldId('demo_age')}`]).toBe('44')
    expect(listed[`f${await fieldId('demo_allergy')}`]).toBe('1')

    const down = await get(`${dataLoaderPaths.download}?studyId=${s.projectId}&templateIds=${ids}&format=xlsx&lang=en`)
    expect(down.statusCode).toBe(200)
    const out = new ExcelJS.Workbook()
    await out.xlsx.load(down.rawPayload as unknown as ArrayBuffer)
    const mine = (rows: Record<string, string>[]) => rows.filter((r) => r.subject_id?.startsWith('RT-'))
    expect(mine(rowsOf(sheetWith(out, 'demo_age'))).map(({ center: _c, queue: _q, ...r }) => r)).toEqual([
      {
        subject_id: 'RT-0001',
        demo_sex: '2',
        demo_age: '44',
        demo_height: '170.5',
        demo_weight: '65',
        demo_smoker: '1',
        demo_diagnosed: '2024-03-05',
      },
      // Empty cells are not in the file at all.
      { subject_id: 'RT-0002', demo_sex: '1', demo_age: '61', demo_smoker: '0' },
    ])
    expect(mine(rowsOf(sheetWith(out, 'demo_allergy'))).map((r) => [r.subject_id, r.demo_allergy])).toEqual([['RT-0001', '1']])
    // Text a spreadsheet would run comes back neutralised with a leading apostrophe.
    expect(mine(rowsOf(sheetWith(out, 'demo_condition'))).map((r) => [r.subject_id, r.row, r.demo_condition, r.demo_onset])).toEqual([
      ['RT-0001', '1', condition, '2019'],
      ['RT-0001', '2', "'=SUM(A1)", '2021'],
    ])
  })
})

describe('sub-form row numbers', () => {
  it('a new row continues the stored ones: one past a gap is refused, and a file loaded twice adds nothing the second time', async () => {
    const history = crfNamed('history')
    const template = await get(`${dataLoaderPaths.template}?studyId=${s.projectId}&templateIds=${history.templateId}&lang=en`)
    const fileWith = async (rows: number[], endsInSpace = false) => {
      const wb = new ExcelJS.Workbook()
      await wb.xlsx.load(template.rawPayload as unknown as ArrayBuffer)
      const past = sheetWith(wb, 'demo_condition')
      rows.forEach((row, i) => fill(past, 3 + i, { subject_id: 'RT-0001', row, demo_condition: `Condition ${row}`, demo_onset: '2020' }))
      if (endsInSpace) {
        // A template from before long sheet names were cut without a last space still loads.
        wb.getWorksheet('_layout')!.eachRow((r) => {
          if (r.getCell(1).value === past.name) r.getCell(1).value = `${past.name} `
        })
        past.name = `${past.name} `
      }
      return Buffer.from(await wb.xlsx.writeBuffer())
    }
    const countRows = async () =>
      Number(
        (
          await s.t.db.kysely
            .selectFrom('form_row')
            .innerJoin('form_record', 'form_record.id', 'form_row.record_id')
            .innerJoin('subject', 'subject.id', 'form_record.subject_id')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('subject.subject_no', '=', 'RT-0001')
            .where('form_record.template_id', '=', history.templateId)
            .executeTakeFirstOrThrow()
        ).n,
      )
    const before = await countRows()
    // RT-0001 has two rows: 3 is the next, 5 leaves a gap.
    const gap = (await s.upload('gap.xlsx', await fileWith([3, 5]))).body
    expect(gap.code).not.toBe(0)
    expect(
      gap.data?.errors?.map((e: { row: number; column: string; value: string; message: string }) => [e.column, e.value, e.message]),
    ).toEqual([
      ['row', '5', `Row number 5 leaves a gap: this subject has ${before} rows in this sub form, so a new row is number ${before + 2}`],
    ])
    expect(await countRows()).toBe(before)
    const file = await fileWith([before + 1, before + 2], true)
    expect((await s.upload('next.xlsx', file)).body.data).toMatchObject({ outcome: 'loaded', created: 2 })
    expect((await s.upload('next.xlsx', file, { again: true })).body.data).toMatchObject({ outcome: 'loaded', created: 0, updated: 0 })
    expect(await countRows()).toBe(before + 2)
  })
})

describe('an instance its sub-form rows start', () => {
  it('takes the plain values of a main row that comes after its rows, as one instance', async () => {
    const history = crfNamed('history')
    const template = await get(`${dataLoaderPaths.template}?studyId=${s.projectId}&templateIds=${history.templateId}&lang=en`)
    const tpl = new ExcelJS.Workbook()
    await tpl.xlsx.load(template.rawPayload as unknown as ArrayBuffer)
    const [main, past] = [sheetWith(tpl, 'demo_allergy'), sheetWith(tpl, 'demo_condition')]
    const subject = await s.t.db.kysely
      .selectFrom('subject as su')
      .select(['su.id', 'su.subject_no'])
      .where('su.project_id', '=', s.projectId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('form_record as r')
              .select('r.id')
              .whereRef('r.subject_id', '=', 'su.id')
              .where('r.template_id', '=', history.templateId),
          ),
        ),
      )
      .orderBy('su.id')
      .executeTakeFirstOrThrow()
    // The sub form's sheet first, the CRF's own sheet after it (no `_layout`: sheets found by name).
    const wb = new ExcelJS.Workbook()
    for (const from of [past, main]) {
      const ws = wb.addWorksheet(from.name)
      ws.getRow(1).values = from.getRow(1).values as ExcelJS.CellValue[]
      ws.getRow(2).values = from.getRow(2).values as ExcelJS.CellValue[]
    }
    fill(wb.getWorksheet(past.name)!, 3, { subject_id: subject.subject_no, row: 1, demo_condition: 'Asthma', demo_onset: '2015' })
    fill(wb.getWorksheet(past.name)!, 4, { subject_id: subject.subject_no, row: 2, demo_condition: 'Gout', demo_onset: '2020' })
    fill(wb.getWorksheet(main.name)!, 3, { subject_id: subject.subject_no, demo_allergy: '1' })
    const answer = (await s.upload('rows-first.xlsx', Buffer.from(await wb.xlsx.writeBuffer()))).body
    expect(answer.code, JSON.stringify(answer.data?.errors ?? answer.msg)).toBe(0)
    expect(answer.data).toMatchObject({ outcome: 'loaded', created: 3, updated: 0 })

    const records = await s.t.db.kysely
      .selectFrom('form_record')
      .select(['id', 'data', 'rev', 'upload_id'])
      .where('subject_id', '=', subject.id)
      .where('template_id', '=', history.templateId)
      .execute()
    expect(records).toHaveLength(1)
    const allergy = await s.t.db.kysely.selectFrom('indicator').select('id').where('code', '=', 'demo_allergy').executeTakeFirstOrThrow()
    expect(fromJson<Record<string, unknown>>(records[0]!.data)[String(allergy.id)]).toBe('1')
    expect(records[0]!.upload_id).toBe(answer.data.uploadId)
    const rows = await s.t.db.kysely
      .selectFrom('form_row')
      .select(['sort', 'data'])
      .where('record_id', '=', records[0]!.id)
      .orderBy('sort')
      .execute()
    expect(rows.map((r) => Object.values(fromJson<Record<string, unknown>>(r.data)))).toEqual([
      expect.arrayContaining(['Asthma', '2015']),
      expect.arrayContaining(['Gout', '2020']),
    ])
  })
})

describe('a file of many instances', () => {
  it('puts each sub-form row and its audit row on its own subject, across the multi-row statements', async () => {
    // 250 instances: two statements of 100 rows, then 50 of one; a row's instance id is counted back from each statement's last.
    const history = crfNamed('history')
    const template = await get(`${dataLoaderPaths.template}?studyId=${s.projectId}&templateIds=${history.templateId}&lang=en`)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(template.rawPayload as unknown as ArrayBuffer)
    const [main, past] = [sheetWith(wb, 'demo_allergy'), sheetWith(wb, 'demo_condition')]
    const nos = Array.from({ length: 250 }, (_, i) => `MR-${String(i).padStart(4, '0')}`)
    nos.forEach((no, i) => {
      fill(main, 3 + i, { subject_id: no, center: 'DBJ', queue: 'A', demo_allergy: String(i % 2) })
      fill(past, 3 + i, { subject_id: no, row: 1, demo_condition: `Condition of ${no}`, demo_onset: '2020' })
    })
    const answer = (await s.upload('many.xlsx', Buffer.from(await wb.xlsx.writeBuffer()), { enrol: true })).body
    expect(answer.code, JSON.stringify(answer.data?.errors ?? answer.msg)).toBe(0)
    expect(answer.data).toMatchObject({ outcome: 'loaded', enrolled: 250, created: 500 })

    const landed = await s.t.db.kysely
      .selectFrom('form_row as w')
      .innerJoin('form_record as r', 'r.id', 'w.record_id')
      .innerJoin('subject as su', 'su.id', 'r.subject_id')
      .select(['su.subject_no', 'w.data', 'r.data as recordData'])
      .where('su.subject_no', 'like', 'MR-%')
      .orderBy('su.subject_no')
      .execute()
    const allergy = String(
      (await s.t.db.kysely.selectFrom('indicator').select('id').where('code', '=', 'demo_allergy').executeTakeFirstOrThrow()).id,
    )
    expect(
      landed.map((l) => [l.subject_no, Object.values(fromJson<Record<string, unknown>>(l.data)).includes(`Condition of ${l.subject_no}`)]),
    ).toEqual(nos.map((no) => [no, true]))
    expect(landed.map((l) => fromJson<Record<string, unknown>>(l.recordData)[allergy])).toEqual(nos.map((_, i) => String(i % 2)))
    // Each new instance and row has one audit row naming the upload, on its own subject.
    const audit = await s.t.db.kysely
      .selectFrom('data_audit as a')
      .innerJoin('form_record as r', 'r.id', 'a.record_id')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>(eb.case().when('a.subject_id', '<>', eb.ref('r.subject_id')).then(1).else(0).end()).as('elsewhere'),
      ])
      .where('a.upload_id', '=', answer.data.uploadId)
      .executeTakeFirstOrThrow()
    expect([Number(audit.n), Number(audit.elsewhere)]).toEqual([500, 0])
  })
})

describe('a download loaded again', () => {
  const upload = async (name: string, file: Buffer, query: Record<string, number> = {}) => {
    const answer = (await s.upload(name, file, { again: true, ...query })).body
    expect(answer.code, JSON.stringify(answer.data?.errors ?? answer.msg)).toBe(0)
    return answer.data
  }
  const stored = async () => ({
    records: await s.t.db.kysely.selectFrom('form_record').select(['id', 'rev', 'data']).orderBy('id').execute(),
    rows: await s.t.db.kysely.selectFrom('form_row').select(['id', 'rev', 'sort', 'data']).orderBy('id').execute(),
    audit: (
      await s.t.db.kysely
        .selectFrom('data_audit')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  })

  it('changes nothing: every CRF as one xlsx, each CRF without sub forms as CSV, each sub form as CSV', async () => {
    const ids = crfs.map((c) => c.templateId)
    const before = await stored()
    const xlsx = await get(`${dataLoaderPaths.download}?studyId=${s.projectId}&templateIds=${ids.join(',')}&format=xlsx&lang=zh`)
    expect(xlsx.statusCode).toBe(200)
    const all = await upload('all.xlsx', xlsx.rawPayload)
    expect(all).toMatchObject({ outcome: 'loaded', created: 0, updated: 0, enrolled: 0 })
    expect(all.unchanged).toBeGreaterThan(0)
    // A CSV is one table: the CRFs without sub forms (baseline, follow-up, biomaterial).
    const tables = crfs.filter((c) => c.subForms === 0).map((c) => c.templateId)
    expect(tables.length).toBe(3)
    for (const id of tables) {
      const csv = await get(`${dataLoaderPaths.download}?studyId=${s.projectId}&templateIds=${id}&format=csv`)
      expect(csv.statusCode, csv.body).toBe(200)
      const one = await upload(`${id}.csv`, csv.rawPayload, { templateId: id })
      expect(one, String(id)).toMatchObject({ outcome: 'loaded', created: 0, updated: 0 })
    }
    // A sub form is a CSV table of its own, and loads back into its CRF.
    const db = s.t.db.kysely
    for (const c of crfs.filter((x) => x.subForms > 0)) {
      const version = await db.selectFrom('template_version').select('sections').where('id', '=', c.versionId).executeTakeFirstOrThrow()
      const sub = (JSON.parse(version.sections) as { key: string; repeating: boolean }[]).find((x) => x.repeating)!
      const items = await db
        .selectFrom('template_item')
        .select('indicator_id')
        .where('version_id', '=', c.versionId)
        .where('section_key', '=', sub.key)
        .execute()
      const fieldIds = items.map((i) => i.indicator_id).join(',')
      const csv = await get(
        `${dataLoaderPaths.download}?studyId=${s.projectId}&templateIds=${c.templateId}&format=csv&fieldIds=${fieldIds}`,
      )
      expect(csv.statusCode, csv.body).toBe(200)
      expect(csv.body.split('\r\n')[0]).toContain(',row,')
      const rows = await upload(`${c.templateId}-rows.csv`, csv.rawPayload, { templateId: c.templateId })
      expect(rows, String(c.templateId)).toMatchObject({ outcome: 'loaded', created: 0, updated: 0 })
      expect(rows.unchanged).toBeGreaterThan(0)
    }
    const after = await stored()
    expect(after.records).toEqual(before.records)
    expect(after.rows).toEqual(before.rows)
    // Nothing audited but the uploads' own records.
    expect(Number(after.audit)).toBe(Number(before.audit))
  })
})
