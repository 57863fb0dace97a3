import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoNumber } from '../../server/demo/study.ts'
import { readXlsx } from '../../server/services/dictionaryExchange/xlsx.ts'
import { isLabelRow } from '../../server/services/dataLoader/layout.ts'
import { body } from '../support/testApp.ts'
import { studyFixture, type StudyFixture } from '../support/studyFixture.ts'

/**
 * getCrfByStudyId and downloadTemplate on the demo study: the workbook is opened as Excel would
 * see it — sheets, codes and labels, drop-down lists, notes, the hidden layout sheet.
 */

let s: StudyFixture
let crfs: { templateId: number; name: string; mode: string; fields: number; subForms: number; collectType: string }[]
const base = '/api/scientific/dataloader'

beforeAll(async () => {
  s = await studyFixture({ subjects: 8 })
  const res = await s.t.app.inject({
    method: 'GET',
    url: `${base}/getCrfByStudyId?studyId=${s.projectId}`,
    headers: { 'kr-d-token': s.tokens.demo! },
  })
  expect(res.statusCode, res.body).toBe(200)
  crfs = body(res).data as unknown as typeof crfs
}, 120_000)
afterAll(() => s.close())

const idOf = (name: string) => crfs.find((c) => c.name.includes(name))!.templateId

async function template(query: string, token = s.tokens.demo!, lang = 'zh') {
  return s.t.app.inject({
    method: 'GET',
    url: `${base}/downloadTemplate?studyId=${s.projectId}&${query}`,
    headers: { 'kr-d-token': token, 'accept-language': lang },
  })
}

async function workbook(query: string): Promise<ExcelJS.Workbook> {
  const res = await template(query)
  expect(res.statusCode, res.body).toBe(200)
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
  return wb
}

const rowValues = (ws: ExcelJS.Worksheet, n: number) => (ws.getRow(n).values as unknown[]).slice(1)
const noteOf = (cell: ExcelJS.Cell): string => {
  const n = cell.note as unknown
  if (n === undefined) return ''
  if (typeof n === 'string') return n
  return (n as { texts: { text: string }[] }).texts.map((t) => t.text).join('')
}
/** The validation of a column's first data cell. */
const validationAt = (ws: ExcelJS.Worksheet, address: string) => ws.getCell(address).dataValidation

describe('getCrfByStudyId', () => {
  it("lists the project's four CRFs, prepose first, with their modes and counts", () => {
    expect(crfs.map((c) => [c.name, c.mode, c.fields, c.subForms])).toEqual([
      ['示范·基线 Demo baseline', 'single', 6, 0],
      ['示范·病史 Demo history', 'single', 1, 1],
      ['示范·随访 Demo follow-up', 'visit', 3, 0],
      ['示范·生物样本 Demo biomaterial', 'sample', 2, 0],
    ])
    expect(crfs.map((c) => c.collectType)).toEqual(['object', 'object', 'followUp', 'biomaterial'])
  })

  it('lists the CRFs to importers and exporters only; the template only to importers', async () => {
    const outsider = await s.t.createUser('tplOutsider', 'Research1', { roles: ['researchAdmin'] })
    expect(outsider).toBeGreaterThan(0)
    const outsiderToken = await s.t.signIn('tplOutsider', 'Research1')
    // A researcher holds dataLoad.export, not dataLoad.import: with export they choose CRFs to download.
    const exporter = await s.member('tplExporter', ['enterData', 'export'], { systemRole: 'researcher' })
    const noExport = await s.member('tplNoExport', ['enterData'], { systemRole: 'researcher' })
    for (const [token, crfs] of [
      [outsiderToken, 403],
      [noExport, 403],
      [exporter, 200],
    ] as const) {
      const crfRes = await s.t.app.inject({
        method: 'GET',
        url: `${base}/getCrfByStudyId?studyId=${s.projectId}`,
        headers: { 'kr-d-token': token },
      })
      expect(crfRes.statusCode, crfRes.body).toBe(crfs)
      const tplRes = await template(`templateIds=${idOf('基线')}`, token, 'en')
      expect(tplRes.statusCode).toBe(403)
      expect(body(tplRes).msg).toBe('You are not allowed to do this')
    }
    // A member whose project role cannot enter data is refused too.
    const reader = await s.member('tplReader', [])
    expect((await template(`templateIds=${idOf('基线')}`, reader)).statusCode).toBe(403)
  })
})

describe('downloadTemplate', () => {
  it('answers one CRF as an attachment named by the project number and the CRF, in both name forms', async () => {
    const res = await template(`templateIds=${idOf('基线')}`)
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    const cd = String(res.headers['content-disposition'])
    expect(cd).toMatch(/^attachment; filename="DEMO-2026-[^"]*\.xlsx"; filename\*=UTF-8''/)
    expect(decodeURIComponent(cd.split("UTF-8''")[1]!)).toBe(`${demoNumber}-示范·基线 Demo baseline-导入模板.xlsx`)
    const en = await template(`templateIds=${idOf('基线')},${idOf('病史')}`, s.tokens.demo!, 'en')
    expect(decodeURIComponent(String(en.headers['content-disposition']).split("UTF-8''")[1]!)).toBe(`${demoNumber}-2 CRFs-template.xlsx`)
  })

  it('writes codes in row 1, labels in row 2 (bold, frozen), and lists and notes on the baseline sheet', async () => {
    const wb = await workbook(`templateIds=${idOf('基线')}&lang=zh`)
    expect(wb.worksheets.map((w) => [w.name, w.state])).toEqual([
      ['示范·基线 Demo baseline', 'visible'],
      ['_layout', 'hidden'],
    ])
    const ws = wb.getWorksheet('示范·基线 Demo baseline')!
    expect(rowValues(ws, 1)).toEqual([
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
    expect(rowValues(ws, 2)).toEqual(['研究对象编号', '中心编码', '队列编码', '性别', '年龄', '身高', '体重', '吸烟', '确诊日期'])
    expect(ws.getCell('D2').font?.bold).toBe(true)
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 })
    expect(ws.rowCount).toBe(2)
    // Ids, codes and dates stay as typed; numbers stay numbers.
    expect(['A', 'B', 'D', 'I'].map((c) => ws.getColumn(c).numFmt)).toEqual(['@', '@', '@', '@'])
    expect(ws.getColumn('E').numFmt).toBeUndefined()

    expect(validationAt(ws, 'B3')).toMatchObject({ type: 'list', formulae: ['"DBJ,DSH,DGZ"'] })
    expect(validationAt(ws, 'C3')).toMatchObject({ type: 'list', formulae: ['"A,B"'] })
    // Choices by their labels, which the upload reads back as codes.
    expect(validationAt(ws, 'D3')).toMatchObject({ type: 'list', formulae: ['"男,女"'], errorStyle: 'stop' })
    expect(validationAt(ws, 'H9999')).toMatchObject({ type: 'list', formulae: ['"是,否"'] })
    expect(validationAt(ws, 'E3')).toMatchObject({ type: 'whole', operator: 'between', formulae: [18, 90] })
    expect(validationAt(ws, 'A3')).toBeUndefined()

    expect(noteOf(ws.getCell('D1'))).toBe('类型：单选\n选项（填编码或名称）：\n1=男\n2=女\n必填')
    expect(noteOf(ws.getCell('E1'))).toBe('类型：整数\n单位：岁\n范围：18 – 90\n必填')
    expect(noteOf(ws.getCell('F1'))).toBe('类型：小数\n单位：cm\n范围：140 – 200')
    expect(noteOf(ws.getCell('I1'))).toBe('类型：日期\n格式：YYYY-MM-DD')

    const layout = wb.getWorksheet('_layout')!
    expect(rowValues(layout, 1)).toEqual(['sheet', 'templateId', 'versionId', 'section'])
    const versionId = (
      await s.t.db.kysely.selectFrom('project_form').select('version_id').where('template_id', '=', idOf('基线')).executeTakeFirstOrThrow()
    ).version_id
    expect(rowValues(layout, 2)).toEqual(['示范·基线 Demo baseline', idOf('基线'), versionId, ''])
  })

  it('reads back through the streaming reader: codes as the header, the label row recognised as such', async () => {
    const res = await template(`templateIds=${idOf('基线')}`, s.tokens.demo!, 'en')
    const table = await readXlsx(res.rawPayload)
    expect(table.header.slice(0, 4)).toEqual(['subject_id', 'center', 'queue', 'demo_sex'])
    expect(table.rows).toHaveLength(1)
    expect(table.rows[0]!.row).toBe(2)
    expect(isLabelRow(table.rows[0]!.cells)).toBe(true)
  })

  it('writes the labels, lists and notes in English', async () => {
    const wb = await workbook(`templateIds=${idOf('基线')}&lang=en`)
    const ws = wb.worksheets[0]!
    expect(rowValues(ws, 2)).toEqual([
      'Subject ID',
      'Center code',
      'Queue key',
      'Sex',
      'Age',
      'Height',
      'Weight',
      'Smoker',
      'Date of diagnosis',
    ])
    expect(validationAt(ws, 'D3')).toMatchObject({ formulae: ['"Male,Female"'], error: 'Choose a value from the list' })
    expect(noteOf(ws.getCell('E1'))).toBe('Type: integer\nUnit: 岁\nRange: 18 – 90\nRequired')
  })

  it('gives the sub form its own sheet keyed by subject and row, and every CRF of one workbook its layout row', async () => {
    const ids = [idOf('病史'), idOf('随访'), idOf('样本')]
    const wb = await workbook(`templateIds=${ids.join(',')}&lang=en`)
    const names = wb.worksheets.filter((w) => w.state === 'visible').map((w) => w.name)
    expect(names).toEqual([
      '示范·病史 Demo history',
      '示范·病史 Demo history - 既往疾病 Past',
      '示范·随访 Demo follow-up',
      '示范·生物样本 Demo biomaterial',
    ])
    const past = wb.getWorksheet(names[1]!)!
    expect(rowValues(past, 1)).toEqual(['subject_id', 'row', 'demo_condition', 'demo_onset'])
    expect(rowValues(past, 2)).toEqual(['Subject ID', 'Row', 'Past condition', 'Year of onset'])
    expect(validationAt(past, 'B3')).toMatchObject({ type: 'whole', operator: 'greaterThanOrEqual', formulae: [1] })
    expect(noteOf(past.getCell('C1'))).toBe('Type: text\nRequired')
    expect(noteOf(past.getCell('D1'))).toBe('Type: date\nFormat: YYYY')

    const visits = wb.getWorksheet(names[2]!)!
    expect(rowValues(visits, 1)).toEqual(['subject_id', 'center', 'queue', 'visit', 'demo_sbp', 'demo_dbp', 'demo_adverse'])
    expect(validationAt(visits, 'D3')).toMatchObject({
      type: 'list',
      formulae: ['"V1 · 3 个月 / month 3,V2 · 6 个月 / month 6,V3 · 9 个月 / month 9"'],
    })
    const samples = wb.getWorksheet(names[3]!)!
    expect(rowValues(samples, 1)).toEqual(['subject_id', 'center', 'queue', 'sample_id', 'demo_tube', 'demo_volume'])
    expect(validationAt(samples, 'E3')).toMatchObject({ formulae: ['"EDTA,Serum"'] })

    const layout = wb.getWorksheet('_layout')!
    expect(layout.state).toBe('hidden')
    expect(
      layout
        .getRows(2, 4)!
        .map((r) => (r.values as unknown[]).slice(1))
        .map(([sheet, templateId, , section]) => [sheet, templateId, section ?? '']),
    ).toEqual([
      [names[0], ids[0], ''],
      [names[1], ids[0], 'past'],
      [names[2], ids[1], ''],
      [names[3], ids[2], ''],
    ])
  })

  it('puts a list Excel cannot hold inline on the hidden _lists sheet', async () => {
    // A visit name with a comma cannot be written in an inline list.
    await s.t.db.kysely
      .updateTable('visit')
      .set({ name: 'V1, 3 个月' })
      .where('project_id', '=', s.projectId)
      .where('name', 'like', 'V1%')
      .execute()
    const wb = await workbook(`templateIds=${idOf('随访')}`)
    const lists = wb.getWorksheet('_lists')!
    expect(lists.state).toBe('hidden')
    expect(wb.worksheets.map((w) => w.name)).toEqual(['示范·随访 Demo follow-up', '_layout', '_lists'])
    expect(validationAt(wb.worksheets[0]!, 'D3')).toMatchObject({ type: 'list', formulae: ["'_lists'!$A$1:$A$3"] })
    expect(lists.getColumn(1).values.slice(1)).toEqual(['V1, 3 个月', 'V2 · 6 个月 / month 6', 'V3 · 9 个月 / month 9'])
  })

  it('lists only the centers a center-bound member may load into', async () => {
    const token = await s.member('tplCenterA', ['enterData'], { centers: [s.centerIds[1]!] })
    const res = await template(`templateIds=${idOf('基线')}`, token)
    expect(res.statusCode, res.body).toBe(200)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    expect(validationAt(wb.worksheets[0]!, 'B3')).toMatchObject({ formulae: ['"DSH"'] })
  })

  it('refuses an unknown or unpinned CRF, none, and a bad id list, in the caller’s language', async () => {
    const unpinned = await s.t.db.kysely
      .selectFrom('template')
      .select('id')
      .where(
        'id',
        'not in',
        crfs.map((c) => c.templateId),
      )
      .executeTakeFirst()
    for (const id of [999_999, ...(unpinned ? [unpinned.id] : [])]) {
      const res = await template(`templateIds=${idOf('基线')},${id}`, s.tokens.demo!, 'en')
      expect(res.statusCode, res.body).toBe(404)
      expect(body(res).msg).toContain(String(id))
    }
    const none = await template('templateIds=', s.tokens.demo!, 'en')
    expect(none.statusCode).toBe(400)
    expect(body(none).msg).toBe('Choose at least one CRF')
    expect((await template('templateIds=a,b')).statusCode).toBe(400)
  })
})
