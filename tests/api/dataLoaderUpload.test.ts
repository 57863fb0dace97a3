import fs from 'node:fs/promises'
import path from 'node:path'
import ExcelJS from 'exceljs'
import iconv from 'iconv-lite'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fromJson } from '../../server/db/json.ts'
import { tmpDir } from '../../server/services/dataLoader/loadFiles.ts'
import { runningReaders } from '../../server/services/dataLoader/readUpload.ts'
import type { HistoryPage } from '../../contract/studyData.ts'
import { studyFixture, type StudyFixture } from '../support/studyFixture.ts'
import { xlsxBomb } from '../support/zip.ts'

/**
 * uploadFile (issue 11 item 2): CSV uploads checked cell by cell with the entry rules, subjects
 * found only inside the caller's centers, written all or nothing, recorded once, re-uploads
 * flagged; a refusal names every bad cell and keeps an xlsx report.
 */

let s: StudyFixture
let visits: { id: number; name: string }[] = []
let subjects: { id: number; subject_no: string; center_id: number }[] = []
const fieldIds: Record<string, number> = {}

beforeAll(async () => {
  s = await studyFixture({ subjects: 30 })
  const db = s.t.db.kysely
  visits = await db.selectFrom('visit').select(['id', 'name']).where('project_id', '=', s.projectId).orderBy('day_offset').execute()
  subjects = await db
    .selectFrom('subject')
    .select(['id', 'subject_no', 'center_id'])
    .where('project_id', '=', s.projectId)
    .orderBy('id')
    .execute()
  for (const r of await db.selectFrom('indicator').select(['id', 'code']).where('code', 'like', 'demo_%').execute()) fieldIds[r.code] = r.id
}, 180_000)
afterAll(() => s.close())

const upload = (csv: string, query: Record<string, string | number | boolean>, token = s.tokens.demo!, name = 'data.csv') =>
  s.upload(name, csv, query, token)

/** A unique line so that no two tests upload the same bytes (the re-upload check). */
let nonce = 0
const csv = (lines: string[]) => [...lines, ''].join('\n') + `${'\n'.repeat(++nonce % 2)}`

const countRecords = async () =>
  Number(
    (
      await s.t.db.kysely
        .selectFrom('form_record')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('project_id', '=', s.projectId)
        .executeTakeFirstOrThrow()
    ).n,
  )

async function freeVisitSlots(n: number, centerId?: number) {
  const taken = new Set(
    (
      await s.t.db.kysely.selectFrom('form_record').select(['subject_id', 'slot']).where('template_id', '=', s.formIds.followUp).execute()
    ).map((r) => `${r.subject_id}|${r.slot}`),
  )
  const out: { subject: (typeof subjects)[number]; visit: (typeof visits)[number] }[] = []
  for (const subject of subjects) {
    if (centerId !== undefined && subject.center_id !== centerId) continue
    for (const visit of visits)
      if (!taken.has(`${subject.id}|v${visit.id}`) && out.length < n && !out.some((o) => o.subject.id === subject.id))
        out.push({ subject, visit })
  }
  return out
}

const followHeader = 'subject_id,center,queue,visit,demo_sbp,demo_dbp,demo_adverse'

describe('uploadFile', () => {
  it('creates records for existing subjects, each carrying the upload id, and records the upload once', async () => {
    const slots = await freeVisitSlots(3)
    const res = await upload(csv([followHeader, ...slots.map((x) => `${x.subject.subject_no},,,${x.visit.name},120,80,No`)]), {
      templateId: s.formIds.followUp,
    })
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data).toMatchObject({ outcome: 'loaded', rows: 3, created: 3, updated: 0, errorsTotal: 0, reportUrl: null })
    const made = await s.t.db.kysely
      .selectFrom('form_record')
      .select(['data', 'upload_id', 'slot'])
      .where('upload_id', '=', res.body.data.uploadId)
      .execute()
    expect(made).toHaveLength(3)
    const data = JSON.parse(String(typeof made[0]!.data === 'string' ? made[0]!.data : JSON.stringify(made[0]!.data))) as Record<
      string,
      string
    >
    // The label "No" is stored as its code.
    expect(data[String(fieldIds.demo_adverse)]).toBe('0')
    const rec = await s.t.db.kysely.selectFrom('data_upload').selectAll().where('id', '=', res.body.data.uploadId).executeTakeFirstOrThrow()
    expect(rec).toMatchObject({ outcome: 'loaded', rows: 3, created: 3, project_id: s.projectId, container: 'csv', report_sha256: null })
  })

  it("a loaded value's field history names the upload with the value it loaded, and still does after a later upload changed it", async () => {
    const [slot] = await freeVisitSlots(1)
    const { subject, visit } = slot!
    const first = await upload(
      csv([followHeader, `${subject.subject_no},,,${visit.name},121,81,No`]),
      { templateId: s.formIds.followUp },
      s.tokens.demo,
      'first.csv',
    )
    expect(first.statusCode, JSON.stringify(first.body)).toBe(200)
    const record = await s.t.db.kysely
      .selectFrom('form_record')
      .select('id')
      .where('upload_id', '=', first.body.data.uploadId)
      .executeTakeFirstOrThrow()
    const history = async (field: number) => {
      const res = await s.t.app.inject({
        method: 'GET',
        url: `/api/projects/${s.projectId}/subjects/${subject.id}/history`,
        query: { recordId: String(record.id), field: String(field) },
        headers: { 'kr-d-token': s.tokens.demo!, 'accept-language': 'en' },
      })
      expect(res.statusCode, res.body).toBe(200)
      return (res.json() as { data: HistoryPage }).data.entries
    }
    const loaded = await history(fieldIds.demo_sbp!)
    expect(loaded).toHaveLength(1)
    expect(loaded[0]).toMatchObject({ action: 'import', field: fieldIds.demo_sbp, oldValue: null, newValue: '121', recordId: record.id })
    expect(loaded[0]!.reason).toContain('first.csv')
    expect(loaded[0]!.fieldNameEn).not.toBe('')

    const second = await upload(
      csv([followHeader, `${subject.subject_no},,,${visit.name},135,81,No`]),
      { templateId: s.formIds.followUp },
      s.tokens.demo,
      'second.csv',
    )
    expect(second.statusCode, JSON.stringify(second.body)).toBe(200)
    expect(second.body.data).toMatchObject({ updated: 1 })
    const changed = await history(fieldIds.demo_sbp!)
    expect(changed.map((e) => [e.action, e.oldValue, e.newValue])).toEqual([
      ['import', '121', '135'],
      ['import', null, '121'],
    ])
    // A field the later upload left alone keeps one entry, with the value it has.
    expect((await history(fieldIds.demo_dbp!)).map((e) => e.newValue)).toEqual(['81'])
    // Another CRF's field is not on this record: no entry stands for it.
    expect(await history(fieldIds.demo_age!)).toEqual([])
  })

  it('changing stored values writes one import audit row per field with old and new, bumps rev and keeps the summary', async () => {
    const subject = subjects[0]!
    const db = s.t.db.kysely
    const before = await db
      .selectFrom('form_record')
      .select(['id', 'rev', 'data'])
      .where('subject_id', '=', subject.id)
      .where('template_id', '=', s.formIds.baseline)
      .executeTakeFirstOrThrow()
    const res = await upload(csv(['subject_id,demo_age,demo_weight', `${subject.subject_no},77,66.5`]), { templateId: s.formIds.baseline })
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data).toMatchObject({ updated: 1, created: 0 })
    const after = await db.selectFrom('form_record').select(['rev', 'upload_id']).where('id', '=', before.id).executeTakeFirstOrThrow()
    expect(after).toEqual({ rev: before.rev + 1, upload_id: res.body.data.uploadId })
    const audit = await db
      .selectFrom('data_audit')
      .select(['field', 'action', 'old_value', 'new_value', 'upload_id', 'reason'])
      .where('record_id', '=', before.id)
      .where('upload_id', '=', res.body.data.uploadId)
      .orderBy('field')
      .execute()
    const old = (typeof before.data === 'string' ? JSON.parse(before.data) : before.data) as Record<string, string>
    expect(audit).toHaveLength(2)
    const age = audit.find((a) => a.field === String(fieldIds.demo_age))!
    expect(age).toMatchObject({ action: 'import', old_value: JSON.stringify(old[String(fieldIds.demo_age)]), new_value: '"77"' })
    expect(age.reason).toContain('data.csv')
    const summary = await db.selectFrom('subject').select('summary').where('id', '=', subject.id).executeTakeFirstOrThrow()
    const sum = (typeof summary.summary === 'string' ? JSON.parse(summary.summary) : summary.summary) as Record<string, string>
    expect(sum[`f${fieldIds.demo_age}`]).toBe('77')
  })

  it("adds a new form's values to a subject's list values and keeps the ones already there", async () => {
    const db = s.t.db.kysely
    const withHistory = new Set(
      (await db.selectFrom('form_record').select('subject_id').where('template_id', '=', s.formIds.history).execute()).map(
        (r) => r.subject_id,
      ),
    )
    const summaries = await db.selectFrom('subject').select(['id', 'summary']).where('project_id', '=', s.projectId).orderBy('id').execute()
    const values = (raw: unknown) => (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, string>
    const target = summaries.find((x) => !withHistory.has(x.id) && Object.keys(values(x.summary)).length > 0)!
    const subject = subjects.find((x) => x.id === target.id)!
    const res = await upload(csv(['subject_id,demo_allergy', `${subject.subject_no},1`]), { templateId: s.formIds.history })
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data).toMatchObject({ created: 1 })
    const after = await db.selectFrom('subject').select('summary').where('id', '=', subject.id).executeTakeFirstOrThrow()
    expect(values(after.summary)).toEqual({ ...values(target.summary), [`f${fieldIds.demo_allergy}`]: '1' })
  })

  it('refuses an unknown column and an unknown field code, naming it, and writes nothing', async () => {
    const n = await countRecords()
    for (const col of ['colour', 'demo_nope']) {
      const res = await upload(csv([`subject_id,${col}`, `${subjects[0]!.subject_no},x`]), { templateId: s.formIds.baseline })
      expect(res.statusCode).toBe(400)
      expect(res.body.msg).toContain(col)
    }
    // A file refused at its header ends its reader thread too.
    expect(runningReaders()).toBe(0)
    const both = await upload(csv(['subject_id,foo,demo_age,bar', `${subjects[0]!.subject_no},x,40,y`]), { templateId: s.formIds.baseline })
    expect([both.statusCode, both.body.msg]).toEqual([
      400,
      'Columns "foo", "bar" of sheet "示范·基线 Demo baseline" are neither fields of the CRF nor key columns',
    ])
    expect(await countRecords()).toBe(n)
    const refused = await s.t.db.kysely.selectFrom('data_upload').select('message').where('outcome', '=', 'refused').execute()
    expect(refused.some((r) => r.message.includes('demo_nope'))).toBe(true)
  })

  it('names a refused query parameter by its label in the caller’s language, and records nothing', async () => {
    const uploads = () => s.t.db.kysely.selectFrom('data_upload').select('id').execute()
    const [n, before] = [await countRecords(), await uploads()]
    const file = csv(['record_id,demo_age', 'R1,40'])
    for (const [lang, msg] of [
      ['zh', '事件对照 的值不合法'],
      ['en', 'event mapping is not valid'],
    ] as const) {
      const res = await s.upload('records.csv', file, { format: 'redcap', events: '{not json' }, s.tokens.demo!, lang)
      expect([res.statusCode, res.body.msg]).toEqual([400, msg])
    }
    const res = await s.upload('data.csv', file, { templateId: `${s.formIds.baseline}.0` }, s.tokens.demo!, 'zh')
    expect([res.statusCode, res.body.msg]).toEqual([400, '表单ID 的类型不正确，应为整数'])
    expect(await countRecords()).toBe(n)
    expect(await uploads()).toEqual(before)
  })

  it('refuses a value right of the last named column, naming each such cell, never dropping it', async () => {
    const n = await countRecords()
    const no = subjects[0]!.subject_no
    const res = await upload(csv(['subject_id,demo_age', `${no},40,555,,oops`, `${no.toLowerCase()}x,41,`]), {
      templateId: s.formIds.baseline,
    })
    expect(res.statusCode).toBe(400)
    const errors = res.body.data.errors.filter((e) => e.row === 2)
    expect(errors).toEqual([
      expect.objectContaining({
        column: 'C',
        value: '555',
        message: 'Column C has no header, so its value cannot be read: remove the value, or give the column its header',
      }),
      expect.objectContaining({ column: 'E', value: 'oops' }),
    ])
    expect(await countRecords()).toBe(n)
  })

  it('refuses a body cut off mid-file, and a second file part, with nothing written', async () => {
    const n = await countRecords()
    const uploads = async () => (await s.t.db.kysely.selectFrom('data_upload').select('id').execute()).length
    const before = await uploads()
    const no = subjects[0]!.subject_no
    const part = (name: string, body: string) =>
      `--xyz\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n${body}\r\n`
    const send = (payload: string, lang: string) =>
      s.t.app.inject({
        method: 'POST',
        url: `/api/scientific/dataloader/uploadFile?studyId=${s.projectId}&templateId=${s.formIds.baseline}`,
        payload,
        headers: { 'content-type': 'multipart/form-data; boundary=xyz', 'kr-d-token': s.tokens.demo!, 'accept-language': lang },
      })
    for (const [lang, cut, two] of [
      ['en', 'The upload is incomplete or malformed (it may have been cut off on the way): upload it again', 'Upload one file at a time'],
      ['zh', '上传的内容不完整或格式不对（可能在传输中被截断），请重新上传', '一次只能上传一个文件'],
    ] as const) {
      const truncated = await send(part('a.csv', `subject_id,demo_age\n${no},4`), lang)
      expect([truncated.statusCode, truncated.json().msg]).toEqual([400, cut])
      const both = await send(
        `${part('a.csv', `subject_id,demo_age\n${no},44`)}${part('b.csv', `subject_id,demo_age\n${no},45`)}--xyz--\r\n`,
        lang,
      )
      expect([both.statusCode, both.json().msg]).toEqual([400, two])
    }
    expect(await countRecords()).toBe(n)
    expect(await uploads()).toBe(before)
  })

  it('refuses an xlsx that unpacks to one giant text as expanding past the allowed size, in zh and en, leaving no temporary file', async () => {
    const n = await countRecords()
    const tmp = tmpDir(s.t.app.ctx)
    const leftovers = async () => (await fs.readdir(tmp).catch(() => [])).filter((f) => !f.startsWith('.'))
    const before = await leftovers()
    // 5,000,000 letters in one cell squeezed into a few kB: no cell may be that long, and no XML parser should hold it.
    const bomb = await xlsxBomb(1, 1, 5_000_000)
    expect(bomb.length).toBeLessThan(100_000)
    for (const [lang, msg] of [
      ['zh', 'xlsx 解压后超出允许的大小：其中有一段连续文本超过 193 KB，比任何单元格都长（单元格最多 32767 个字符）'],
      [
        'en',
        'The xlsx expands past the allowed size once unpacked: it holds an unbroken text of more than 193 KB, longer than any cell may be (at most 32767 characters)',
      ],
    ] as const) {
      const res = await s.upload('bomb.xlsx', bomb, { again: true }, s.tokens.demo!, lang)
      expect([res.statusCode, res.body.msg]).toEqual([413, msg])
    }
    expect(await countRecords()).toBe(n)
    expect(await leftovers()).toEqual(before)
    expect(runningReaders()).toBe(0)
  })

  it('reads a CSV saved as UTF-16 with its BOM, and one saved as GBK', async () => {
    const no = subjects[5]!.subject_no
    const encodings: [string, (text: string) => Buffer, string][] = [
      ['utf16', (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), '63'],
      ['gbk', (text) => iconv.encode(text, 'gbk'), '64'],
    ]
    for (const [name, encode, age] of encodings) {
      const res = await s.upload(`${name}.csv`, encode(csv(['subject_id,demo_age', `${no},${age}`])), { templateId: s.formIds.baseline })
      expect(res.statusCode, JSON.stringify(res.body)).toBe(200)
      const r = await s.t.db.kysely
        .selectFrom('form_record')
        .innerJoin('subject', 'subject.id', 'form_record.subject_id')
        .select('data')
        .where('subject.subject_no', '=', no)
        .where('template_id', '=', s.formIds.baseline)
        .executeTakeFirstOrThrow()
      expect(fromJson<Record<string, string>>(r.data)[String(fieldIds.demo_age)]).toBe(age)
    }
  })

  it("says each upload record's outcome in the reader's language, whatever the uploader's was", async () => {
    const no = subjects[6]!.subject_no
    const loaded = await upload(csv(['subject_id,demo_age', `${no},65`]), { templateId: s.formIds.baseline })
    const refused = await upload(csv(['subject_id,colour', `${no},red`]), { templateId: s.formIds.baseline })
    expect([loaded.statusCode, refused.statusCode]).toEqual([200, 400])
    const records = await s.t.app.inject({
      method: 'GET',
      url: `/api/scientific/dataloader/getUploadRecord?studyId=${s.projectId}&limit=2`,
      headers: { 'kr-d-token': s.tokens.demo!, 'accept-language': 'zh' },
    })
    const rows = (records.json() as { data: { rows: { message: string }[] } }).data.rows
    expect(rows.map((r) => r.message)).toEqual([
      '工作表“示范·基线 Demo baseline”的列“colour”不是该 CRF 的字段或键列',
      expect.stringMatching(/^导入完成：/),
    ])
  })

  it('refuses a file without the subject column, and a duplicate column', async () => {
    const a = await upload(csv(['demo_age', '40']), { templateId: s.formIds.baseline })
    expect(a.statusCode).toBe(400)
    expect(a.body.msg).toContain('subject_id')
    const b = await upload(csv(['subject_id,demo_age,demo_age', `${subjects[0]!.subject_no},40,41`]), { templateId: s.formIds.baseline })
    expect(b.statusCode).toBe(400)
    expect(b.body.msg).toMatch(/demo_age.*twice/)
  })

  it('names every wrong-typed and out-of-range cell, writes nothing, and keeps a report in the caller language', async () => {
    const n = await countRecords()
    const res = await upload(
      csv([
        'subject_id,demo_age,demo_height,demo_sex,demo_diagnosed',
        `${subjects[1]!.subject_no},abc,150,1,2020-01-01`,
        `${subjects[2]!.subject_no},200,150,9,01/02/2020`,
      ]),
      { templateId: s.formIds.baseline },
    )
    expect(res.statusCode).toBe(400)
    expect(res.body.code).toBe(400)
    expect(res.body.msg).toContain('4 cells')
    const d = res.body.data
    expect(d.outcome).toBe('refused')
    expect(d.errorsTotal).toBe(4)
    expect(d.errors.map((e) => `${e.row}:${e.column}:${e.value}`).sort()).toEqual([
      '2:demo_age:abc',
      '3:demo_age:200',
      '3:demo_diagnosed:01/02/2020',
      '3:demo_sex:9',
    ])
    expect(d.errors.find((e) => e.value === '200')!.message).toMatch(/^Age: .*18.*90/)
    // In Chinese the field and its problem are set apart by a full-width colon, as Chinese text writes it.
    const zhFile = csv(['subject_id,demo_age', `${subjects[1]!.subject_no},abc`])
    const zh = await s.upload('data.csv', zhFile, { templateId: s.formIds.baseline }, s.tokens.demo!, 'zh')
    expect(zh.body.data.errors[0]!.message).toMatch(/^[^:：]+：\S/)
    expect(await countRecords()).toBe(n)
    expect(d.reportUrl).toBe(`api/scientific/dataloader/uploads/${d.uploadId}/report`)
    const rec = await s.t.db.kysely.selectFrom('data_upload').selectAll().where('id', '=', d.uploadId).executeTakeFirstOrThrow()
    expect(rec).toMatchObject({ outcome: 'refused', errors_total: 4 })
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.readFile(path.join(s.t.app.ctx.dataDir, 'loads', rec.report_sha256!))
    const sheet = wb.worksheets[0]!
    expect(sheet.getRow(1).values).toEqual([undefined, 'Sheet', 'Row', 'Column', 'Value', 'Problem'])
    expect(sheet.rowCount).toBe(5)
  })

  it('reads year-first dates as spreadsheets save them (2024/1/5) and stores them in the field format', async () => {
    const subject = subjects[3]!
    const res = await upload(csv(['subject_id,demo_age,demo_height,demo_sex,demo_diagnosed', `${subject.subject_no},40,170,1,2021/3/7`]), {
      templateId: s.formIds.baseline,
    })
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200)
    const made = await s.t.db.kysely
      .selectFrom('form_record')
      .select('data')
      .where('upload_id', '=', res.body.data.uploadId)
      .executeTakeFirstOrThrow()
    const data = (typeof made.data === 'string' ? JSON.parse(made.data) : made.data) as Record<string, string>
    expect(data[String(fieldIds.demo_diagnosed)]).toBe('2021-03-07')
  })

  it('names a date written in the format that the calendar lacks as no such date, in the caller’s language', async () => {
    const subject = subjects[3]!
    const n = await countRecords()
    for (const [lang, message] of [
      ['en', 'There is no such date: 2021-02-30'],
      ['zh', '日期不存在：2021-02-30'],
    ] as const) {
      const file = csv(['subject_id,demo_age,demo_height,demo_sex,demo_diagnosed', `${subject.subject_no},40,170,1,2021/2/30`])
      const res = await s.upload('data.csv', file, { templateId: s.formIds.baseline }, s.tokens.demo!, lang)
      expect(res.statusCode).toBe(400)
      expect(res.body.data.errors).toMatchObject([{ row: 2, column: 'demo_diagnosed', value: '2021/2/30' }])
      expect(res.body.data.errors[0]!.message).toContain(message)
    }
    expect(await countRecords()).toBe(n)
  })

  it('names in its record the CRFs the file was read into, loaded or refused by its cells; none for a file refused before any', async () => {
    const names = new Map(
      (
        await s.t.db.kysely
          .selectFrom('template')
          .select(['id', 'name'])
          .where('id', 'in', [s.formIds.baseline, s.formIds.followUp])
          .execute()
      ).map((r) => [r.id, r.name]),
    )
    const subject = subjects[5]!
    const loaded = await upload(
      csv(['subject_id,demo_age,demo_height,demo_sex,demo_diagnosed', `${subject.subject_no},41,171,1,2021-03-08`]),
      {
        templateId: s.formIds.baseline,
      },
    )
    expect(loaded.statusCode, JSON.stringify(loaded.body)).toBe(200)
    const refused = await upload(csv([followHeader, `${subject.subject_no},,,${visits[0]!.name},abc,80,No`]), {
      templateId: s.formIds.followUp,
    })
    expect(refused.statusCode).toBe(400)
    // A CSV that does not say its CRF is refused before any sheet is read into one.
    const unread = await upload(csv([followHeader, `${subject.subject_no},,,${visits[0]!.name},120,80,No`]), {})
    expect(unread.statusCode).toBe(400)
    const res = await s.t.app.inject({
      method: 'GET',
      url: `/api/scientific/dataloader/getUploadRecord?studyId=${s.projectId}&limit=100`,
      headers: { 'kr-d-token': s.tokens.demo! },
    })
    const rows = (JSON.parse(res.body) as { data: { rows: { id: number; forms: string; outcome: string }[] } }).data.rows
    const forms = (id: number) => rows.find((r) => r.id === id)?.forms
    expect(forms(loaded.body.data.uploadId)).toBe(names.get(s.formIds.baseline))
    expect(forms(refused.body.data.uploadId)).toBe(names.get(s.formIds.followUp))
    expect(rows[0]).toMatchObject({ outcome: 'refused', forms: '' })
  })

  it('refuses an unknown subject id, and a subject of another center with the same message', async () => {
    const db = s.t.db.kysely
    const [centerA, centerB] = s.centerIds
    const token = await s.member('onlyCenterA', ['enterData', 'editData'], { centers: [centerA!] })
    const other = (await freeVisitSlots(1, centerB))[0]!
    const n = await countRecords()
    const res = await upload(
      csv([followHeader, `NOPE-0001,,,${visits[0]!.name},120,80,0`, `${other.subject.subject_no},,,${other.visit.name},120,80,0`]),
      { templateId: s.formIds.followUp },
      token,
    )
    expect(res.statusCode).toBe(400)
    const [unknown, foreign] = res.body.data.errors
    expect(unknown).toMatchObject({ row: 2, column: 'subject_id', value: 'NOPE-0001' })
    expect(foreign).toMatchObject({ row: 3, column: 'subject_id', value: other.subject.subject_no })
    expect(foreign!.message.replace(other.subject.subject_no, 'X')).toBe(unknown!.message.replace('NOPE-0001', 'X'))
    expect(await countRecords()).toBe(n)
    const written = await db
      .selectFrom('form_record')
      .select('id')
      .where('subject_id', '=', other.subject.id)
      .where('slot', '=', `v${other.visit.id}`)
      .execute()
    expect(written).toHaveLength(0)
  })

  it('names the bad cells of a row whose subject or visit is refused too, not only its key', async () => {
    const res = await upload(
      csv([followHeader, `NOPE-0002,,,${visits[0]!.name},abc,80,0`, `${subjects[1]!.subject_no},,,No such visit,120,xyz,0`]),
      { templateId: s.formIds.followUp },
    )
    expect(res.statusCode).toBe(400)
    expect(res.body.data.errors.map((e) => [e.row, e.column, e.value])).toEqual([
      [2, 'subject_id', 'NOPE-0002'],
      [2, 'demo_sbp', 'abc'],
      [3, 'visit', 'No such visit'],
      [3, 'demo_dbp', 'xyz'],
    ])
  })

  it('refuses two rows for one subject and visit, naming both rows', async () => {
    const [x] = await freeVisitSlots(1)
    const line = `${x!.subject.subject_no},,,${x!.visit.name},120,80,0`
    const res = await upload(csv([followHeader, line, line]), { templateId: s.formIds.followUp })
    expect(res.statusCode).toBe(400)
    expect(res.body.data.errors).toHaveLength(1)
    expect(res.body.data.errors[0]).toMatchObject({ row: 3, column: 'subject_id' })
    expect(res.body.data.errors[0]!.message).toMatch(/Rows 2 and 3/)
    // A repeated row's own bad cells are named too: fixing the repeat alone must not meet them later.
    const bad = `${x!.subject.subject_no},,,${x!.visit.name},abc,xyz,0`
    const both = await upload(csv([followHeader, bad, bad]), { templateId: s.formIds.followUp })
    expect(both.statusCode).toBe(400)
    expect(both.body.data.errors.map((e) => [e.row, e.column, e.value])).toEqual([
      [2, 'demo_sbp', 'abc'],
      [2, 'demo_dbp', 'xyz'],
      [3, 'subject_id', x!.subject.subject_no],
      [3, 'demo_sbp', 'abc'],
      [3, 'demo_dbp', 'xyz'],
    ])
  })

  it('refuses an unknown visit name and a hidden-free wrong choice', async () => {
    const [x] = await freeVisitSlots(1)
    const res = await upload(csv([followHeader, `${x!.subject.subject_no},,,V9,120,80,maybe`]), { templateId: s.formIds.followUp })
    expect(res.statusCode).toBe(400)
    expect(res.body.data.errors.map((e) => e.column)).toEqual(['visit', 'demo_adverse'])
  })

  it('refuses an empty file and a file of only a header', async () => {
    const empty = await upload('', { templateId: s.formIds.baseline })
    expect(empty.statusCode).toBe(400)
    expect(empty.body.msg).toBe('The file is empty')
    const headerOnly = await upload(csv(['subject_id,demo_age']), { templateId: s.formIds.baseline })
    expect(headerOnly.statusCode).toBe(400)
    expect(headerOnly.body.msg).toBe('The file has no data rows')
  })

  it('refuses a CSV without the CRF it is for', async () => {
    const res = await upload(csv(['subject_id,demo_age', `${subjects[0]!.subject_no},40`]), {})
    expect(res.statusCode).toBe(400)
    expect(res.body.msg).toMatch(/CRF/)
  })

  it('refuses any upload into a closed project', async () => {
    const db = s.t.db.kysely
    const { status } = await db.selectFrom('project').select('status').where('id', '=', s.projectId).executeTakeFirstOrThrow()
    await db.updateTable('project').set({ status: 'closed' }).where('id', '=', s.projectId).execute()
    try {
      const n = await countRecords()
      const res = await upload(csv(['subject_id,demo_age', `${subjects[3]!.subject_no},41`]), { templateId: s.formIds.baseline })
      expect(res.statusCode).toBe(409)
      expect(res.body.msg).toMatch(/closed/)
      expect(await countRecords()).toBe(n)
    } finally {
      await db.updateTable('project').set({ status }).where('id', '=', s.projectId).execute()
    }
  })

  it('flags a re-upload of the same content (409) and loads it with again=true', async () => {
    const body = csv(['subject_id,demo_weight', `${subjects[4]!.subject_no},70.5`])
    const first = await upload(body, { templateId: s.formIds.baseline })
    expect(first.statusCode, JSON.stringify(first.body)).toBe(200)
    const second = await upload(body, { templateId: s.formIds.baseline }, s.tokens.demo, 'renamed.csv')
    expect(second.statusCode).toBe(409)
    expect(second.body.msg).toMatch(/uploaded before/)
    expect(second.body.data.duplicateOf).toMatchObject({ uploadId: first.body.data.uploadId, fileName: 'data.csv', outcome: 'loaded' })
    // A member who sees only their own records is not told whose upload it was, nor when, nor its name.
    const limited = await s.member('dupLimited', ['enterData'], { centers: [s.centerIds[0]!] })
    const theirs = await upload(body, { templateId: s.formIds.baseline }, limited, 'mine.csv')
    expect([theirs.statusCode, theirs.body.msg]).toEqual([
      409,
      'A file with the same content was uploaded before by someone else; load it again only if you mean to',
    ])
    expect(theirs.body.data.duplicateOf).toEqual({ uploadId: 0, at: null, by: '', fileName: 'mine.csv', outcome: 'loaded' })
    const again = await upload(body, { templateId: s.formIds.baseline, again: true }, s.tokens.demo, 'renamed.csv')
    expect(again.statusCode).toBe(200)
    expect(again.body.data).toMatchObject({ unchanged: 1, updated: 0, created: 0 })
  })

  it('enrols subjects the file names with enrol=true, in a center and queue the caller may enrol into', async () => {
    const db = s.t.db.kysely
    const lines = ['subject_id,center,queue,demo_sex,demo_age', 'UPL-0001,DBJ,A,Male,44', 'UPL-0002,DSH,B,2,55']
    const refused = await upload(csv(lines), { templateId: s.formIds.baseline })
    expect(refused.statusCode).toBe(400)
    expect(refused.body.data.errors.map((e) => e.value)).toEqual(['UPL-0001', 'UPL-0002'])
    const res = await upload(csv(lines), { templateId: s.formIds.baseline, enrol: true })
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data).toMatchObject({ enrolled: 2, created: 2 })
    const made = await db
      .selectFrom('subject')
      .select(['subject_no', 'center_id'])
      .where('subject_no', 'in', ['UPL-0001', 'UPL-0002'])
      .orderBy('subject_no')
      .execute()
    expect(made.map((m) => m.center_id)).toEqual([s.centerIds[0], s.centerIds[1]])
    const bad = await upload(csv(['subject_id,center,queue,demo_sex,demo_age', 'UPL-0003,XXX,A,1,30']), {
      templateId: s.formIds.baseline,
      enrol: true,
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.body.data.errors[0]).toMatchObject({ column: 'center', value: 'XXX' })
  })

  it('reads subject numbers and center codes in any case, as they are unique ignoring case', async () => {
    const db = s.t.db.kysely
    const header = 'subject_id,center,queue,demo_sex,demo_age'
    const stored = subjects.find((x) => x.center_id === s.centerIds[0])!
    const ageOf = async (id: number) => {
      const r = await db
        .selectFrom('form_record')
        .select('data')
        .where('subject_id', '=', id)
        .where('template_id', '=', s.formIds.baseline)
        .executeTakeFirstOrThrow()
      return fromJson<Record<string, string>>(r.data)[String(fieldIds.demo_age)]
    }
    // An existing subject written in lower case is that subject, with or without enrolling.
    for (const enrol of [false, true]) {
      const age = enrol ? '71' : '70'
      const res = await upload(csv([header, `${stored.subject_no.toLowerCase()},DBJ,A,1,${age}`]), {
        templateId: s.formIds.baseline,
        enrol,
      })
      expect(res.statusCode, JSON.stringify(res.body)).toBe(200)
      expect(res.body.data).toMatchObject({ enrolled: 0 })
      expect(await ageOf(stored.id)).toBe(age)
    }
    // Typed in full-width (a Chinese input method's mode): the same subject.
    const wide = [...stored.subject_no].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('')
    const widened = await upload(csv([header, `${wide},DBJ,A,1,72`]), { templateId: s.formIds.baseline, enrol: true })
    expect(widened.statusCode, JSON.stringify(widened.body)).toBe(200)
    expect(widened.body.data).toMatchObject({ enrolled: 0 })
    expect(await ageOf(stored.id)).toBe('72')
    // A new number with an invisible character is refused as its cell, never enrolled.
    const hidden = await upload(csv([header, 'UPL-CASE-4\u200b,DBJ,A,1,40']), { templateId: s.formIds.baseline, enrol: true })
    expect(hidden.statusCode).toBe(400)
    expect(hidden.body.data.errors).toEqual([
      expect.objectContaining({
        row: 2,
        column: 'subject_id',
        message:
          'subject_id contains an invisible or control character (such as a line break or a zero-width space); remove it and try again',
      }),
    ])
    // A center code is read in any case too (codes are unique ignoring case).
    const lower = await upload(csv([header, 'UPL-CASE-2,dbj,A,1,40']), { templateId: s.formIds.baseline, enrol: true })
    expect(lower.statusCode, JSON.stringify(lower.body)).toBe(200)
    expect(lower.body.data).toMatchObject({ enrolled: 1 })
    expect(await db.selectFrom('subject').select('center_id').where('subject_no', '=', 'UPL-CASE-2').executeTakeFirstOrThrow()).toEqual({
      center_id: s.centerIds[0],
    })
    // So is a queue key, where no other queue's key differs from it only by case.
    const queueA = await db
      .selectFrom('project_queue')
      .select('id')
      .where('project_id', '=', s.projectId)
      .where('key', '=', 'A')
      .executeTakeFirstOrThrow()
    const lowerQueue = await upload(csv([header, 'UPL-CASE-3,DBJ,a,1,40']), { templateId: s.formIds.baseline, enrol: true })
    expect(lowerQueue.statusCode, JSON.stringify(lowerQueue.body)).toBe(200)
    expect(await db.selectFrom('subject').select('queue_id').where('subject_no', '=', 'UPL-CASE-3').executeTakeFirstOrThrow()).toEqual({
      queue_id: queueA.id,
    })
    // A new subject named twice in two cases is one subject, and the second row is a duplicate of the first.
    const twice = await upload(csv([header, 'UPL-CASE-1,DBJ,A,1,40', 'upl-case-1,DBJ,A,1,41']), {
      templateId: s.formIds.baseline,
      enrol: true,
    })
    expect(twice.statusCode).toBe(400)
    expect(twice.body.data.errors).toEqual([expect.objectContaining({ row: 3, column: 'subject_id', value: 'upl-case-1' })])
    const made = await db
      .selectFrom('subject')
      .select('id')
      .where(sql<string>`lower(subject_no)`, '=', 'upl-case-1')
      .execute()
    expect(made).toEqual([])
  })

  it('two uploads at once enrolling the same new subject id: one subject, and no answer but loaded or refused with a message', async () => {
    const header = 'subject_id,center,queue,demo_sex,demo_age'
    const answers = await Promise.all([
      upload(csv([header, 'UPL-0100,DBJ,A,1,40', 'UPL-0101,DBJ,A,1,41']), { templateId: s.formIds.baseline, enrol: true }),
      upload(csv([header, 'UPL-0102,DBJ,A,2,42', 'UPL-0100,DBJ,A,2,43']), { templateId: s.formIds.baseline, enrol: true }),
    ])
    // Which runs first is the scheduler's: the later one finds the subject (and changes its values) or is refused whole.
    for (const a of answers) {
      if (a.statusCode === 200) continue
      expect(a.statusCode, JSON.stringify(a.body)).toBe(409)
      expect(a.body.msg).toBe('Subject number UPL-0100 already exists')
    }
    expect(answers.some((a) => a.statusCode === 200)).toBe(true)
    const made = await s.t.db.kysely
      .selectFrom('subject')
      .select('subject_no')
      .where('project_id', '=', s.projectId)
      .where('subject_no', 'in', ['UPL-0100', 'UPL-0101', 'UPL-0102'])
      .execute()
    // Only the loaded files' subjects, each once: a refused one takes its other enrolment back too.
    const named = [
      ['UPL-0100', 'UPL-0101'],
      ['UPL-0102', 'UPL-0100'],
    ]
    const expected = new Set(named.filter((_, i) => answers[i]!.statusCode === 200).flat())
    expect(made.map((m) => m.subject_no).sort()).toEqual([...expected].sort())
  })

  it('one bad cell among many rows changes nothing, and the report names it', async () => {
    const db = s.t.db.kysely
    const now = new Date().toISOString()
    const base = await db
      .selectFrom('subject')
      .select(['queue_id', 'center_id'])
      .where('id', '=', subjects[0]!.id)
      .executeTakeFirstOrThrow()
    const bulk = Array.from({ length: 5000 }, (_, i) => ({
      project_id: s.projectId,
      queue_id: base.queue_id,
      center_id: base.center_id,
      subject_no: `BULK-${String(i).padStart(5, '0')}`,
      created_at: now,
      updated_at: now,
    }))
    for (let i = 0; i < bulk.length; i += 500)
      await db
        .insertInto('subject')
        .values(bulk.slice(i, i + 500))
        .execute()
    const lines = bulk.map((b, i) => `${b.subject_no},${i % 2 === 0 ? 1 : 2},${18 + (i % 70)},${150 + (i % 40)}`)
    const bad = [...lines]
    bad[3210] = bad[3210]!.replace(/,\d+,(\d+)$/, ',17,$1')
    const n = await countRecords()
    const refused = await upload(csv(['subject_id,demo_sex,demo_age,demo_height', ...bad]), { templateId: s.formIds.baseline })
    expect(refused.statusCode).toBe(400)
    expect(refused.body.data.errors).toEqual([expect.objectContaining({ row: 3212, column: 'demo_age', value: '17' })])
    expect(await countRecords()).toBe(n)
    const rec = await db
      .selectFrom('data_upload')
      .select('report_sha256')
      .where('id', '=', refused.body.data.uploadId)
      .executeTakeFirstOrThrow()
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.readFile(path.join(s.t.app.ctx.dataDir, 'loads', rec.report_sha256!))
    expect(wb.worksheets[0]!.getRow(2).values).toEqual([undefined, undefined, 3212, 'demo_age', '17', expect.stringMatching(/18/)])

    const started = performance.now()
    const loaded = await upload(csv(['subject_id,demo_sex,demo_age,demo_height', ...lines]), { templateId: s.formIds.baseline })
    expect(loaded.statusCode, JSON.stringify(loaded.body).slice(0, 500)).toBe(200)
    expect(loaded.body.data).toMatchObject({ rows: 5000, created: 5000 })
    expect(await countRecords()).toBe(n + 5000)
    expect(performance.now() - started).toBeLessThan(60_000)
  }, 120_000)
})
