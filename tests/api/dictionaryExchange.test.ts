import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import iconv from 'iconv-lite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ownColumns, type ImportResult, type ImportRowError } from '../../contract/dictionaryExchange.ts'
import type { Database } from '../../server/db/database.ts'
import { multipart } from '../support/multipart.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/**
 * Dictionary exchange through the real server and database (issue 4 items 3 and 8): REDCap data
 * dictionaries in and out, our xlsx / CSV layout, encodings, content checks, all-or-nothing.
 * One server for the file: each test uses its own codes and form names.
 */

const fixture = (name: string) => fs.readFileSync(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)))
const redcapFixture = fixture('redcap-dictionary.csv')
const gbkFixture = fixture('dictionary-gbk.csv')

let t: TestApp
let token: string
beforeAll(async () => {
  t = await testApp()
  await t.createUser('designer', 'Design2024')
  token = await t.signIn('designer', 'Design2024')
})
afterAll(() => t.close())

type Failure = { code: number; msg: string; data?: { errors: ImportRowError[]; total: number } }

function importFile(filename: string, data: Buffer, query = '', opts: { lang?: string; token?: string | null; field?: string } = {}) {
  const { payload, contentType } = multipart(filename, data, opts.field)
  const headers: Record<string, string> = { 'content-type': contentType, 'accept-language': opts.lang ?? 'en' }
  const tok = opts.token === undefined ? token : opts.token
  if (tok) headers['kr-d-token'] = tok
  return t.app.inject({ method: 'POST', url: `/api/dictionary/import${query}`, payload, headers })
}
const ok = (res: { statusCode: number; body: string; json: () => unknown }) => {
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as { data: ImportResult }).data
}
const failed = (res: { json: () => unknown }) => res.json() as Failure

function exportFile(query: string, app: TestApp = t, tok: string | null = token) {
  return app.app.inject({ method: 'GET', url: `/api/dictionary/export?${query}`, headers: tok ? { 'kr-d-token': tok } : {} })
}

type Table = 'indicator' | 'template' | 'template_version' | 'template_item'
async function count(table: keyof Database & Table, app: TestApp = t): Promise<number> {
  const r = await app.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow()
  return Number(r.n)
}
const counts = async () => ({
  indicator: await count('indicator'),
  template: await count('template'),
  template_version: await count('template_version'),
  template_item: await count('template_item'),
})

const indicatorOf = (code: string, app: TestApp = t) =>
  app.db.kysely.selectFrom('indicator').selectAll().where('code', '=', code).executeTakeFirstOrThrow()
const codeOfId = async (id: number | null) =>
  id === null ? null : (await t.db.kysely.selectFrom('indicator').select('code').where('id', '=', id).executeTakeFirstOrThrow()).code

/** A one-entry zip (stored, no compression): an archive that is a zip and no workbook. */
function storedZip(name: string, data: Buffer): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  let crc = 0xffffffff
  for (const b of data) crc = crcTable[(crc ^ b) & 0xff]! ^ (crc >>> 8)
  crc = (crc ^ 0xffffffff) >>> 0
  const fname = Buffer.from(name)
  const local = Buffer.alloc(30)
  local.writeUInt32LE(0x04034b50, 0)
  local.writeUInt16LE(20, 4)
  local.writeUInt32LE(crc, 14)
  local.writeUInt32LE(data.length, 18)
  local.writeUInt32LE(data.length, 22)
  local.writeUInt16LE(fname.length, 26)
  const central = Buffer.alloc(46)
  central.writeUInt32LE(0x02014b50, 0)
  central.writeUInt16LE(20, 4)
  central.writeUInt16LE(20, 6)
  central.writeUInt32LE(crc, 16)
  central.writeUInt32LE(data.length, 20)
  central.writeUInt32LE(data.length, 24)
  central.writeUInt16LE(fname.length, 28)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(1, 8)
  end.writeUInt16LE(1, 10)
  end.writeUInt32LE(46 + fname.length, 12)
  end.writeUInt32LE(30 + fname.length + data.length, 16)
  return Buffer.concat([local, fname, data, central, fname, end])
}

/** CSV text → records keyed by the first column (a REDCap variable name or our code). */
function records(csv: string | Buffer): { header: string[]; rows: Map<string, Record<string, string>> } {
  const [header = [], ...rest] = parse(csv, { bom: true, relax_column_count: true }) as string[][]
  const rows = new Map<string, Record<string, string>>()
  for (const r of rest) rows.set(r[0] ?? '', Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])))
  return { header, rows }
}

/** A REDCap fixture with every variable and form renamed, so it imports again beside the first. */
function renamedRedcap(prefix: string, edit: (text: string) => string = (x) => x): Buffer {
  let text = redcapFixture.toString('utf8')
  for (const v of [...records(redcapFixture).rows.keys()]) text = text.replace(new RegExp(`(^|\\n|\\[)${v}\\b`, 'g'), `$1${prefix}${v}`)
  text = text.replace(/,demographics,/g, `,${prefix}demographics,`).replace(/,baseline_visit,/g, `,${prefix}baseline_visit,`)
  return Buffer.from(edit(text), 'utf8')
}

describe('without a session', () => {
  it('import and export answer 401 and write nothing', async () => {
    const before = await counts()
    const imp = await importFile('redcap.csv', redcapFixture, '', { token: null })
    expect(imp.statusCode).toBe(401)
    expect(failed(imp).code).toBe(50008)
    const exp = await exportFile('format=csv', t, null)
    expect(exp.statusCode).toBe(401)
    expect(await counts()).toEqual(before)
  })
})

describe('REDCap data dictionary', () => {
  let result: ImportResult
  beforeAll(async () => {
    result = ok(await importFile('redcap-dictionary.csv', redcapFixture))
  })

  it('imports every field as an indicator and every form as a draft CRF', async () => {
    expect(result).toMatchObject({ format: 'redcap', encoding: 'utf-8', rows: 19, indicators: 19, templates: 2 })

    // REDCap's codes are kept as ours; its one label serves both languages.
    const coded = (...pairs: [string, string][]) => JSON.stringify(pairs.map(([code, l]) => ({ code, labelZh: l, labelEn: l })))
    expect(await indicatorOf('sex')).toMatchObject({
      type: 'single',
      display: 'radio',
      options: coded(['1', 'Male'], ['2', 'Female']),
      name_zh: 'Sex',
      name_en: 'Sex',
    })
    expect(await indicatorOf('smoker')).toMatchObject({
      type: 'single',
      display: 'select',
      options: coded(['0', 'Never'], ['1', 'Former'], ['2', 'Current']),
      default_value: '0',
    })
    expect(await indicatorOf('conditions')).toMatchObject({
      type: 'multiple',
      display: 'checkbox',
      options: coded(['1', 'Diabetes'], ['2', 'Hypertension'], ['3', 'Asthma'], ['99', 'Other']),
    })
    expect(await indicatorOf('pregnant')).toMatchObject({
      type: 'single',
      display: 'radio',
      options: coded(['1', 'Yes'], ['0', 'No']),
      dependent_value: '2',
    })
    expect(await codeOfId((await indicatorOf('pregnant')).dependent_field_id)).toBe('sex')
    expect(await indicatorOf('consent')).toMatchObject({ type: 'single', options: coded(['1', 'True'], ['0', 'False']) })
    expect(await indicatorOf('age')).toMatchObject({
      type: 'blank',
      display: 'input',
      data_type: 'integer',
      minimum: 18,
      maximum: 100,
      comment: 'Whole years',
    })
    expect(await indicatorOf('weight')).toMatchObject({ type: 'blank', data_type: 'decimal', minimum: 2.5, maximum: 300, unit: 'kg' })
    expect(await indicatorOf('enroll_date')).toMatchObject({ type: 'date', display: 'input', date_format: 'YYYY-MM-DD', minimum: null })
    expect(await indicatorOf('visit_time')).toMatchObject({ type: 'date', date_format: 'HH:mm' })
    expect(await indicatorOf('email')).toMatchObject({ type: 'blank', display: 'input', data_type: 'text' })
    expect(await indicatorOf('notes_free')).toMatchObject({ type: 'blank', display: 'textarea', comment: 'Anything else worth knowing' })
    expect(await indicatorOf('diagnosis_date')).toMatchObject({ name_zh: '诊断日期', name_en: '', type: 'date' })
    expect(await indicatorOf('packs')).toMatchObject({ dependent_value: '2' })
    expect(await codeOfId((await indicatorOf('packs')).dependent_field_id)).toBe('smoker')
    // A checkbox option as condition: [conditions(99)] = '1' → depends on the code 99.
    expect(await indicatorOf('other_condition')).toMatchObject({ dependent_value: '99', index_class: 'baseline_visit' })
    expect(await codeOfId((await indicatorOf('other_condition')).dependent_field_id)).toBe('conditions')
    // Codes live in the choices now, not in the comment's @redcap section.
    expect((await indicatorOf('smoker')).comment).not.toContain('codes')

    const crfs = await t.db.kysely
      .selectFrom('template')
      .selectAll()
      .where('name', 'in', ['demographics', 'baseline_visit'])
      .orderBy('id')
      .execute()
    expect(crfs.map((c) => [c.kind, c.name])).toEqual([
      ['crf', 'demographics'],
      ['crf', 'baseline_visit'],
    ])
    const version = await t.db.kysely
      .selectFrom('template_version')
      .selectAll()
      .where('template_id', '=', crfs[0]!.id)
      .executeTakeFirstOrThrow()
    expect(version).toMatchObject({ version: 1, state: 'draft', published_at: null })
    expect(JSON.parse(version.sections)).toEqual([
      { key: 's1', title: '', repeating: false },
      { key: 's2', title: 'Enrollment', repeating: false },
      { key: 's3', title: 'Measurements', repeating: false },
    ])
    const items = await t.db.kysely
      .selectFrom('template_item')
      .innerJoin('indicator', 'indicator.id', 'template_item.indicator_id')
      .select(['indicator.code', 'template_item.section_key', 'template_item.position', 'template_item.required'])
      .where('template_item.version_id', '=', version.id)
      .orderBy('template_item.section_key')
      .orderBy('template_item.position')
      .execute()
    expect(items.map((i) => `${i.section_key}.${i.position} ${i.code}${i.required ? '*' : ''}`)).toEqual([
      's1.0 record_id',
      's2.0 enroll_date*',
      's2.1 sex*',
      's2.2 age*',
      's3.0 weight',
      's3.1 height',
      's3.2 bmi',
      's3.3 email',
      's3.4 pregnant',
      's3.5 diagnosis_date',
    ])
  })

  it('keeps calc and descriptive fields and what has no equivalent, and reports each', async () => {
    const bmi = await indicatorOf('bmi')
    expect(bmi).toMatchObject({ type: 'blank', display: 'textarea' })
    expect(bmi.comment).toContain('"type":"calc"')
    expect(bmi.comment).toContain('round([weight]/(([height]/100)^2),1)')
    expect(await indicatorOf('info_desc')).toMatchObject({
      type: 'blank',
      display: 'textarea',
      name_en: '<b>Please check every answer before saving.</b>',
    })
    expect((await indicatorOf('followup_reason')).comment).toContain(`"branching":"[smoker] = '2' and [age] > 50"`)

    const reported = result.unmapped.map((u) => `${u.code} ${u.column}`)
    expect(reported).toEqual(
      expect.arrayContaining([
        'bmi Field Type',
        'info_desc Field Type',
        'email Text Validation Type OR Show Slider Number',
        'email Identifier?',
        'sex Identifier?',
        'enroll_date Text Validation Min',
        'followup_reason Branching Logic (Show field only if...)',
        'followup_reason Field Annotation',
      ]),
    )
    expect(result.unmappedTotal).toBe(result.unmapped.length)
    const bmiNote = result.unmapped.find((u) => u.code === 'bmi')!
    expect(bmiNote).toMatchObject({ row: 8, value: 'calc: round([weight]/(([height]/100)^2),1)' })
    expect(bmiNote.message).toMatch(/calc has no equivalent/)
    // Nothing dropped: every data row of the file is an indicator.
    expect(await count('indicator')).toBeGreaterThanOrEqual(19)
  })

  it('exports back an equivalent REDCap data dictionary', async () => {
    const res = await exportFile('format=redcap')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="(redcap-data-dictionary-\d{8}-\d{6}\.csv)"; filename\*=UTF-8''\1$/,
    )
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))

    const original = records(redcapFixture)
    const exported = records(res.rawPayload)
    expect(exported.header).toEqual(original.header)
    // The fixture's fields come out in the same order, every column the same.
    const codes = [...original.rows.keys()]
    expect([...exported.rows.keys()].filter((c) => original.rows.has(c))).toEqual(codes)
    for (const code of codes) expect(exported.rows.get(code), code).toEqual(original.rows.get(code))
  })

  it('imports its own export into a fresh database as the same dictionary and CRFs', async () => {
    const exported = (await exportFile('format=redcap')).rawPayload
    const fresh = await testApp()
    try {
      await fresh.createUser('other', 'Other2024')
      const tok = await fresh.signIn('other', 'Other2024')
      const { payload, contentType } = multipart('again.csv', exported)
      const res = await fresh.app.inject({
        method: 'POST',
        url: '/api/dictionary/import',
        payload,
        headers: { 'content-type': contentType, 'kr-d-token': tok },
      })
      expect(res.statusCode, res.body).toBe(200)
      const again = (await fresh.app.inject({ method: 'GET', url: '/api/dictionary/export?format=redcap', headers: { 'kr-d-token': tok } }))
        .rawPayload
      const a = records(exported).rows
      const b = records(again).rows
      for (const code of records(redcapFixture).rows.keys()) expect(b.get(code), code).toEqual(a.get(code))
    } finally {
      await fresh.close()
    }
  })
})

describe('all or nothing', () => {
  it('one bad row writes nothing and reports that row and field', async () => {
    // Row 5 of the file (header = row 1): age with a minimum above its maximum.
    const bad = renamedRedcap('b_', (text) => text.replace('Whole years",integer,18,100', 'Whole years",integer,18,5'))
    const before = await counts()
    const res = await importFile('bad.csv', bad)
    expect(res.statusCode).toBe(400)
    const b = failed(res)
    expect(b.data?.errors).toEqual([
      { row: 5, column: 'Text Validation Min', field: 'minimum', message: 'The minimum 18 must not exceed the maximum 5' },
    ])
    expect(b.data?.total).toBe(1)
    // One row, in the singular; the rows are listed in data.errors, not repeated in msg.
    expect(b.msg).toBe('Import failed: 1 row has errors, nothing was written')
    expect(await counts()).toEqual(before)

    // The same file without the fault goes in whole.
    expect(ok(await importFile('good.csv', renamedRedcap('b_')))).toMatchObject({ indicators: 19, templates: 2 })
  })

  it('reports every bad row at once, in the caller’s language', async () => {
    const bad = renamedRedcap('c_', (text) =>
      text
        .replace('radio,Sex,"1, Male | 2, Female"', 'radio,Sex,')
        .replace("[c_smoker] = '2',", "[c_smoker] = '7',")
        .replace(',notes,Notes,', ',slidr,Notes,'),
    )
    const before = await counts()
    const res = await importFile('bad.csv', bad, '', { lang: 'zh' })
    expect(res.statusCode).toBe(400)
    const errors = failed(res).data!.errors
    expect(errors.map((e) => [e.row, e.column, e.field])).toEqual([
      [4, 'Choices, Calculations, OR Slider Labels', 'options'],
      [13, 'Branching Logic (Show field only if...)', 'dependentValue'],
      [18, 'Field Type', 'type'],
    ])
    expect(errors[0]!.message).toBe('请至少填写一个有效的选项')
    expect(errors[1]!.message).toBe('依赖取值必须是依赖字段的选项之一')
    expect(errors[2]!.message).toContain('slidr')
    expect(await counts()).toEqual(before)
  })

  it('refuses duplicate codes within the file and against the database', async () => {
    const dup = Buffer.from('code,nameZh,type\nd_one,一,blank\nd_two,二,blank\nd_one,三,blank\n')
    const res = await importFile('dup.csv', dup)
    expect(res.statusCode).toBe(400)
    expect(failed(res).data!.errors).toEqual([
      { row: 4, column: 'code', field: 'code', message: 'The code d_one appears twice in the file (also in row 2)' },
    ])
    const taken = Buffer.from('code,nameZh,type\nd_new,新,blank\nsex,性别,blank\n')
    const res2 = await importFile('taken.csv', taken)
    expect(res2.statusCode).toBe(400)
    expect(failed(res2).data!.errors).toEqual([{ row: 3, column: 'code', field: 'code', message: 'sex already exists' }])
    expect(await t.db.kysely.selectFrom('indicator').select('id').where('code', 'in', ['d_one', 'd_two', 'd_new']).execute()).toEqual([])
  })

  it('a REDCap field repeated in another form with the same definition is one indicator in two CRFs', async () => {
    const head = redcapFixture.toString('utf8').split('\n')[0]
    const row = (form: string, label = 'Visit date') => `r_visit_date,${form},,text,"${label}",,,date_ymd,,,,,y,,,,,`
    const file = Buffer.from([head, row('r_form_a'), 'r_other,r_form_a,,notes,Other,,,,,,,,,,,,,', row('r_form_b')].join('\n') + '\n')
    expect(ok(await importFile('twice.csv', file))).toMatchObject({ indicators: 2, templates: 2 })
    const placements = await t.db.kysely
      .selectFrom('template_item')
      .innerJoin('indicator', 'indicator.id', 'template_item.indicator_id')
      .innerJoin('template_version', 'template_version.id', 'template_item.version_id')
      .innerJoin('template', 'template.id', 'template_version.template_id')
      .select(['template.name', 'template_item.required'])
      .where('indicator.code', '=', 'r_visit_date')
      .orderBy('template.name')
      .execute()
    expect(placements).toEqual([
      { name: 'r_form_a', required: 1 },
      { name: 'r_form_b', required: 1 },
    ])
    const exported = records((await exportFile('format=redcap')).rawPayload)
    const lines = parse((await exportFile('format=redcap')).rawPayload, { bom: true }) as string[][]
    expect(lines.filter((l) => l[0] === 'r_visit_date').map((l) => l[1])).toEqual(['r_form_a', 'r_form_b'])
    expect(exported.rows.get('r_other')?.['Form Name']).toBe('r_form_a')

    // The same name with another definition is a duplicate.
    const clash = Buffer.from(
      [head, row('r2_form_a').replace(/r_visit/g, 'r2_visit'), row('r2_form_b', 'Another label').replace(/r_visit/g, 'r2_visit')].join(
        '\n',
      ) + '\n',
    )
    const res = await importFile('clash.csv', clash)
    expect(res.statusCode).toBe(400)
    expect(failed(res).data!.errors).toMatchObject([{ row: 3, field: 'code' }])
  })

  it('refuses a form name a CRF already has', async () => {
    const head = redcapFixture.toString('utf8').split('\n')[0]
    const res = await importFile('form.csv', Buffer.from(`${head}\nf_new_field,demographics,,text,New,,,,,,,,,,,,,\n`))
    expect(res.statusCode).toBe(400)
    expect(failed(res).data!.errors).toEqual([{ row: 2, column: 'Form Name', field: 'form', message: 'demographics already exists' }])
  })
})

describe('our layout: columns, encodings, dependents', () => {
  it('names the missing columns when the columns are wrong', async () => {
    const res = await importFile('wrong.csv', Buffer.from('name,kind\nx,y\n'))
    expect(res.statusCode).toBe(400)
    expect(failed(res).msg).toBe('The file lacks required columns: code (编码), nameZh (中文名), type (类型)')
    const head = 'Variable / Field Name,Form Name,Field Label\nx,f,X\n'
    const res2 = await importFile('redcap.csv', Buffer.from(head), '?format=redcap')
    expect(res2.statusCode).toBe(400)
    expect(failed(res2).msg).toBe('The file lacks required columns: Field Type')
    const res3 = await importFile('redcap.csv', Buffer.from(head), '?format=redcap', { lang: 'zh' })
    expect(failed(res3).msg).toBe('文件缺少必需的列：Field Type')
  })

  it('reads GBK from Chinese Excel, and UTF-8 with and without BOM, to the same Chinese names', async () => {
    const gbk = ok(await importFile('指标.csv', gbkFixture))
    expect(gbk).toMatchObject({ format: 'csv', encoding: 'gbk', indicators: 5, templates: 0 })

    const text = iconv.decode(gbkFixture, 'gbk')
    const renamed = (prefix: string) => text.replace(/\r\n(\w)/g, `\r\n${prefix}$1`)
    const bom = ok(await importFile('bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(renamed('bom_'), 'utf8')])))
    expect(bom).toMatchObject({ encoding: 'utf-8-bom', indicators: 5 })
    const plain = ok(await importFile('plain.csv', Buffer.from(renamed('u8_'), 'utf8')))
    expect(plain).toMatchObject({ encoding: 'utf-8', indicators: 5 })

    const names = async (prefix: string) =>
      (
        await t.db.kysely
          .selectFrom('indicator')
          .select(['code', 'name_zh', 'options', 'default_value', 'status', 'unit', 'disease_id', 'index_class'])
          .where(
            'code',
            'in',
            ['sbp', 'smoking', 'diag_date', 'comorbidity', 'pack_years'].map((c) => prefix + c),
          )
          .orderBy('id')
          .execute()
      ).map(({ code, ...r }) => ({ ...r, code: code.slice(prefix.length) }))
    const fromGbk = await names('')
    expect(fromGbk.map((r) => r.name_zh)).toEqual(['收缩压', '吸烟史', '诊断日期', '合并症', '吸烟包年'])
    // A file written before choices had codes: bare labels get codes 1, 2, … and a default named by its label becomes its code.
    const zhOnly = (...labels: string[]) => JSON.stringify(labels.map((l, i) => ({ code: String(i + 1), labelZh: l, labelEn: '' })))
    expect(fromGbk[1]).toMatchObject({ options: zhOnly('是', '否'), default_value: '2' })
    expect(fromGbk[3]).toMatchObject({ options: zhOnly('高血压', '糖尿病', '冠心病') })
    expect(fromGbk[4]).toMatchObject({ status: 0, unit: '包年', index_class: '个人史' })
    const lungCancer = await t.db.kysely.selectFrom('disease').select('id').where('name', '=', '肺癌').executeTakeFirstOrThrow()
    expect(new Set(fromGbk.map((r) => r.disease_id))).toEqual(new Set([lungCancer.id]))
    expect(await names('bom_')).toEqual(fromGbk)
    expect(await names('u8_')).toEqual(fromGbk)
  })

  it('refuses bytes that are text in no encoding we read', async () => {
    const garbage = Buffer.from([0x63, 0x6f, 0x64, 0x65, 0x0a, 0x81, 0x20, 0xff, 0xfe, 0x0a])
    const res = await importFile('garbage.csv', Buffer.concat([Buffer.from('code,nameZh,type\n'), garbage.subarray(5)]))
    expect(res.statusCode).toBe(400)
    expect(failed(res).msg).toBe('The file encoding is not recognised; use UTF-8 or GBK')
  })

  it('checks the upload by its content: a text named .xlsx, a picture named .csv', async () => {
    const before = await counts()
    const text = await importFile('dictionary.xlsx', Buffer.from('code,nameZh,type\nx_a,甲,blank\n'))
    expect(text.statusCode).toBe(400)
    expect(failed(text).msg).toBe('The file is not a valid xlsx file')
    const asked = await importFile('dictionary.csv', Buffer.from('code,nameZh,type\nx_a,甲,blank\n'), '?format=xlsx', { lang: 'zh' })
    expect(asked.statusCode).toBe(400)
    expect(failed(asked).msg).toBe('文件不是有效的 xlsx 文件')
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)])
    const picture = await importFile('dictionary.csv', png)
    expect(picture.statusCode).toBe(400)
    expect(failed(picture).msg).toBe('Unsupported file type: png')
    const binary = await importFile('dictionary.csv', Buffer.from([0x63, 0x6f, 0x00, 0x01, 0x02, 0x64]))
    expect(binary.statusCode).toBe(400)
    expect(failed(binary).msg).toBe('Unsupported file type: binary')
    // Zips that are no workbook: a damaged one, and a valid archive holding a text file.
    const damaged = await importFile('dictionary.xlsx', Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(60, 0)]))
    expect(damaged.statusCode).toBe(400)
    expect(failed(damaged).msg).toBe('The file is not a valid xlsx file')
    const archive = await importFile('dictionary.xlsx', storedZip('notes.txt', Buffer.from('code,nameZh,type\n')))
    expect(archive.statusCode).toBe(400)
    expect(failed(archive).msg).toBe('The file is not a valid xlsx file')
    expect(await counts()).toEqual(before)
  })

  it('resolves dependent codes in the file and in the database, and refuses what does not resolve', async () => {
    const good = Buffer.from(
      [
        'code,nameZh,type,options,dependentCode,dependentValue',
        'dep_pack,每日包数,blank,,smoking,是',
        'dep_kind,烟草种类,single,卷烟|雪茄,dep_chain,是',
        'dep_chain,是否吸烟,single,是|否,,',
      ].join('\n'),
    )
    expect(ok(await importFile('deps.csv', good))).toMatchObject({ indicators: 3 })
    expect(await codeOfId((await indicatorOf('dep_pack')).dependent_field_id)).toBe('smoking')
    expect(await codeOfId((await indicatorOf('dep_kind')).dependent_field_id)).toBe('dep_chain')

    const bad = Buffer.from(
      [
        'code,nameZh,type,options,dependentCode,dependentValue',
        'dep_x1,一,blank,,smoking,也许',
        'dep_x2,二,blank,,no_such_code,1',
        'dep_x3,三,single,甲|乙,dep_x4,甲',
        'dep_x4,四,single,甲|乙,dep_x3,乙',
        'dep_x5,五,blank,,dep_x5,1',
      ].join('\n'),
    )
    const res = await importFile('deps.csv', bad)
    expect(res.statusCode).toBe(400)
    expect(failed(res).data!.errors.map((e) => [e.row, e.column, e.message])).toEqual([
      [2, 'dependentValue', 'The dependent value must be one of the dependent field’s options'],
      [3, 'dependentCode', 'The dependent field does not exist: no_such_code'],
      [4, 'dependentCode', 'The dependent fields form a cycle: dep_x3 → dep_x4 → dep_x3'],
      [5, 'dependentCode', 'The dependent fields form a cycle: dep_x3 → dep_x4 → dep_x3'],
      [6, 'dependentCode', 'An indicator cannot depend on itself'],
    ])
  })

  it('applies the contract rules to every row, with the file’s column names', async () => {
    const bad = Buffer.from(
      [
        '编码,中文名,类型,选项值,最小值,最大值,默认值,日期格式,数据类型',
        'rule_a,甲,单选,是|否,,,也许,,',
        'rule_b,乙,填空,,十,,,,整数',
        'rule_c,丙,日期,,,,,,',
        '1bad,丁,填空,,,,,,',
        'rule_e,,填空,,,,,,',
        'rule_f,己,问答,,,,,,',
      ].join('\r\n'),
    )
    const res = await importFile('rules.csv', bad, '', { lang: 'zh' })
    expect(res.statusCode).toBe(400)
    expect(failed(res).data!.errors.map((e) => [e.row, e.column, e.message])).toEqual([
      [2, '默认值', '默认值必须存在'],
      [3, '最小值', '请输入整数或小数'],
      [4, '日期格式', '请选择日期格式'],
      [5, '编码', '编码 的值不合法'],
      [6, '中文名', '请输入中文名'],
      [7, '类型', '类型的取值“问答”无效，可选：single, multiple, blank, date'],
    ])
  })
})

describe('export', () => {
  it('xlsx round-trip: our export imports into a fresh database as the same indicators', async () => {
    const res = await exportFile('format=xlsx')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="(dictionary-\d{8}-\d{6}\.xlsx)"; filename\*=UTF-8''\1$/)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    expect(wb.worksheets[0]!.getRow(1).values).toEqual([undefined, ...ownColumns])

    const fresh = await testApp()
    try {
      await fresh.createUser('other', 'Other2024')
      const tok = await fresh.signIn('other', 'Other2024')
      const { payload, contentType } = multipart('dictionary.xlsx', res.rawPayload)
      const imp = await fresh.app.inject({
        method: 'POST',
        url: '/api/dictionary/import',
        payload,
        headers: { 'content-type': contentType, 'kr-d-token': tok },
      })
      expect(imp.statusCode, imp.body).toBe(200)
      expect((imp.json() as { data: ImportResult }).data).toMatchObject({
        format: 'xlsx',
        encoding: null,
        indicators: await count('indicator'),
      })

      // Every attribute, with ids compared through codes and disease names.
      const dump = async (app: TestApp) => {
        const rows = await app.db.kysely
          .selectFrom('indicator as i')
          .leftJoin('indicator as d', 'd.id', 'i.dependent_field_id')
          .leftJoin('disease', 'disease.id', 'i.disease_id')
          .selectAll('i')
          .select(['d.code as dependentCode', 'disease.name as diseaseName'])
          .orderBy('i.code')
          .execute()
        return rows.map(({ id: _id, dependent_field_id: _d, disease_id: _s, created_at: _c, updated_at: _u, ...r }) => r)
      }
      expect(await dump(fresh)).toEqual(await dump(t))
    } finally {
      await fresh.close()
    }
  })

  it('CSV is UTF-8 with a BOM and honours the filters', async () => {
    const lungCancer = await t.db.kysely.selectFrom('disease').select('id').where('name', '=', '肺癌').executeTakeFirstOrThrow()
    const res = await exportFile(`format=csv&diseaseId=${lungCancer.id}`)
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
    const { header, rows } = records(res.rawPayload)
    expect(header).toEqual([...ownColumns])
    expect([...rows.keys()].sort()).toEqual(
      ['sbp', 'smoking', 'diag_date', 'comorbidity', 'pack_years'].flatMap((c) => [c, 'bom_' + c, 'u8_' + c]).sort(),
    )
    expect(rows.get('comorbidity')).toMatchObject({
      nameZh: '合并症',
      options: '1, 高血压 | 2, 糖尿病 | 3, 冠心病',
      optionsEn: '',
      disease: '肺癌',
      type: 'multiple',
    })

    const crf = await t.db.kysely.selectFrom('template').select('id').where('name', '=', 'baseline_visit').executeTakeFirstOrThrow()
    const one = records((await exportFile(`format=csv&templateId=${crf.id}`)).rawPayload)
    expect([...one.rows.keys()]).toEqual([
      'smoker',
      'packs',
      'conditions',
      'other_condition',
      'consent',
      'visit_time',
      'notes_free',
      'info_desc',
      'followup_reason',
    ])
    expect(one.rows.get('packs')).toMatchObject({ dependentCode: 'smoker', dependentValue: '2' })

    const redcapOne = records((await exportFile(`format=redcap&templateId=${crf.id}`)).rawPayload)
    expect([...redcapOne.rows.keys()]).toEqual([...one.rows.keys()])

    const missing = await exportFile('format=csv&templateId=999999')
    expect(missing.statusCode).toBe(404)
    const badFormat = await exportFile('format=pdf')
    expect(badFormat.statusCode).toBe(400)
  })

  it('indicators in no CRF go to the form "dictionary"', async () => {
    const { rows } = records((await exportFile('format=redcap&q=sb')).rawPayload)
    expect(rows.get('sbp')).toMatchObject({
      'Form Name': 'dictionary',
      'Field Type': 'text',
      'Text Validation Type OR Show Slider Number': 'integer',
      'Text Validation Min': '0',
      'Text Validation Max': '300',
      'Field Annotation': "@UNIT='mmHg'",
      'Field Label': 'Systolic blood pressure',
    })
    const smoking = records((await exportFile('format=redcap&q=smoking')).rawPayload).rows.get('smoking')
    expect(smoking).toMatchObject({
      'Field Type': 'radio',
      'Choices, Calculations, OR Slider Labels': '1, 是 | 2, 否',
      'Field Annotation': "@DEFAULT='2'",
    })
  })
})

describe('limits and audit', () => {
  it('refuses a file over 20 MB with 413', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x61)
    const res = await importFile('big.csv', big)
    expect(res.statusCode).toBe(413)
    expect(failed(res).msg).toBe('The file must not exceed 20 MB')
  })

  it('refuses more than 50,000 rows with 413', async () => {
    const lines = ['code,nameZh,type']
    for (let i = 0; i <= 50_000; i++) lines.push(`many_${i},多,blank`)
    const before = await count('indicator')
    const res = await importFile('many.csv', Buffer.from(lines.join('\n')))
    expect(res.statusCode).toBe(413)
    expect(failed(res).msg).toBe('At most 50000 rows per import')
    expect(await count('indicator')).toBe(before)
  })

  it('a request without the file field is refused', async () => {
    const res = await importFile('x.csv', Buffer.from('code,nameZh,type\n'), '', { field: 'upload' })
    expect(res.statusCode).toBe(400)
    expect(failed(res).msg).toBe('Choose a file to import (form field "file")')
    const empty = await importFile('x.csv', Buffer.from('code,nameZh,type\n'))
    expect(empty.statusCode).toBe(400)
    expect(failed(empty).msg).toBe('The file has no data rows')
  })

  it('writes an audit row for each import and export, with the file name and counts', async () => {
    const rows = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', 'in', ['dictionary.import', 'dictionary.export'])
      .orderBy('id')
      .execute()
    const first = rows.find((r) => r.action === 'dictionary.import' && r.outcome === 'ok')!
    expect(first).toMatchObject({ username: 'designer' })
    expect(JSON.parse(first.detail)).toEqual({
      file: 'redcap-dictionary.csv',
      format: 'redcap',
      encoding: 'utf-8',
      mode: 'add',
      rows: 19,
      indicators: 19,
      added: 19,
      changed: 0,
      templates: 2,
      unmapped: expect.any(Number) as number,
    })
    const denied = rows.find((r) => r.action === 'dictionary.import' && r.outcome === 'denied')!
    expect(JSON.parse(denied.detail)).toMatchObject({ file: 'bad.csv', reason: 'import.failed', errors: 1 })
    // A Chinese file name, as a browser sends it (UTF-8 in the part header), is kept as written.
    expect(rows.map((r) => JSON.parse(r.detail) as { file?: string }).some((d) => d.file === '指标.csv')).toBe(true)
    const exp = rows.find((r) => r.action === 'dictionary.export')!
    expect(JSON.parse(exp.detail)).toEqual({ format: 'redcap', filters: {} })
  })
})
