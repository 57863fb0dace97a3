import ExcelJS from 'exceljs'
import { SaxesParser } from 'saxes'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataLoaderPaths } from '../../contract/dataLoader.ts'
import { randomizeAlternately, studyFixture, type StudyFixture } from '../support/studyFixture.ts'

/**
 * The randomization group in data downloads: each subject's group code in the main sheets'
 * rand_group column for those who see groups (so a statistician needs no second file) and ODM's
 * randomization form, nothing of it for blinded members, and a downloaded file that carries it
 * loads again changing nothing.
 */

let s: StudyFixture
/** Group code by subject number, as the database holds it ('' for a subject not randomized). */
const groupOf = new Map<string, string>()

beforeAll(async () => {
  s = await studyFixture({ subjects: 8 })
  // Every subject but the last is randomized, alternately.
  for (const x of await randomizeAlternately(s, 1)) groupOf.set(x.subjectNo, x.group?.code ?? '')
  await s.member('statistician', ['export'])
  await s.member('blinded', ['export'], { blinded: true })
}, 120_000)
afterAll(() => s.close())

const download = (who: string, format: 'csv' | 'xlsx', templateIds: number[], lang = 'en') =>
  s.t.app.inject({
    method: 'GET',
    url: `/${dataLoaderPaths.download}?studyId=${s.projectId}&templateIds=${templateIds.join(',')}&format=${format}&lang=${lang}`,
    headers: { 'kr-d-token': s.tokens[who]!, 'accept-language': lang },
  })

/** A CSV download's lines as cells (the demo's values hold no comma or quote). */
const csvTable = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
    .map((l) => l.split(','))

async function workbook(payload: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load(payload as unknown as ArrayBuffer)
  return wb
}

const texts = (ws: ExcelJS.Worksheet, n: number) =>
  Array.from((ws.getRow(n).values as unknown[]).slice(1), (v) => (v == null ? '' : String(v)))

describe('the randomization group in a download', () => {
  it('is each subject’s group code for a member who sees groups, after the queue', async () => {
    const res = await download('statistician', 'csv', [s.formIds.baseline])
    expect(res.statusCode, res.body).toBe(200)
    const [head, ...rows] = csvTable(res.body)
    expect(head!.slice(0, 4)).toEqual(['subject_id', 'center', 'queue', 'rand_group'])
    expect(rows.length).toBeGreaterThan(0)
    for (const r of rows) expect(r[3], r[0]).toBe(groupOf.get(r[0]!))
    expect(new Set(rows.map((r) => r[3]))).toEqual(new Set(['T', 'C', '']))
  })

  it('is in the main sheets of a workbook, labelled in the chosen language, and not in sub-form sheets', async () => {
    const res = await download('statistician', 'xlsx', [s.formIds.baseline, s.formIds.history], 'zh')
    expect(res.statusCode).toBe(200)
    const wb = await workbook(res.rawPayload)
    const data = wb.worksheets.filter((w) => w.name !== '_layout')
    const main = data.filter((w) => texts(w, 1).includes('center'))
    const sub = data.filter((w) => texts(w, 1).includes('row'))
    expect(main.length).toBe(2)
    expect(sub.length).toBeGreaterThan(0)
    for (const ws of main) {
      const at = texts(ws, 1).indexOf('rand_group')
      expect(at, ws.name).toBe(3)
      expect(texts(ws, 2)[at]).toBe('随机分组编码')
      for (let n = 3; n <= ws.rowCount; n++) expect(texts(ws, n)[at], ws.name).toBe(groupOf.get(texts(ws, n)[0]!))
    }
    for (const ws of sub) expect(texts(ws, 1)).not.toContain('rand_group')
  })

  it('is the randomization form of the subject event in ODM, coded by the project’s groups', async () => {
    const res = await download('statistician', 'odm' as 'csv', [s.formIds.baseline], 'zh')
    expect(res.statusCode).toBe(200)
    const parser = new SaxesParser({ xmlns: true })
    const refs: string[] = []
    const decodes = new Map<string, string>()
    const allocations = new Map<string, string[]>()
    const subjects = new Set<string>()
    let at = { subject: '', event: '', form: '', codeList: '', item: '' }
    parser.on('opentag', (t) => {
      const a = (n: string) => (t.attributes[n] as { value: string } | undefined)?.value ?? ''
      if (t.local === 'StudyEventDef') at.event = a('OID')
      if (t.local === 'FormRef') refs.push(`${at.event}>${a('FormOID')}`)
      if (t.local === 'CodeList') at.codeList = a('OID')
      if (t.local === 'CodeListItem') at.item = a('CodedValue')
      if (t.local === 'SubjectData') subjects.add((at.subject = a('SubjectKey')))
      if (t.local === 'StudyEventData') at.event = a('StudyEventOID')
      if (t.local === 'FormData') at.form = a('FormOID')
      if (t.local === 'ItemData' && a('ItemOID') === 'IT.RAND.rand_group')
        allocations.set(at.subject, [...(allocations.get(at.subject) ?? []), `${at.event}>${at.form}>${a('Value')}`])
    })
    parser.on('text', (text) => {
      if (at.codeList === 'CL.RAND' && at.item && text.trim()) decodes.set(at.item, text)
    })
    parser.on('closetag', (t) => {
      if (t.local === 'CodeListItem') at.item = ''
      if (t.local === 'CodeList') at = { ...at, codeList: '' }
    })
    parser.write(res.body).close()
    // The subject event lists it first; its code list is the project's groups.
    expect(refs[0]).toBe('SE.SUBJECT>F.RAND')
    expect(decodes).toEqual(
      new Map([
        ['T', 'Treatment'],
        ['C', 'Control'],
      ]),
    )
    expect(subjects.size).toBe(groupOf.size)
    for (const subject of subjects) {
      const code = groupOf.get(subject)!
      expect(allocations.get(subject), subject).toEqual(code ? [`SE.SUBJECT>F.RAND>${code}`] : undefined)
    }
  })

  it('is left out for a blinded member, in every format', async () => {
    const csv = await download('blinded', 'csv', [s.formIds.baseline])
    expect(csv.statusCode).toBe(200)
    const [head, ...rows] = csvTable(csv.body)
    expect(head).not.toContain('rand_group')
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.flat()).not.toContain('T')
    const xlsx = await workbook((await download('blinded', 'xlsx', [s.formIds.baseline, s.formIds.history])).rawPayload)
    for (const ws of xlsx.worksheets) expect(texts(ws, 1), ws.name).not.toContain('rand_group')
    const odm = await download('blinded', 'odm' as 'csv', [s.formIds.baseline])
    expect(odm.statusCode).toBe(200)
    expect(odm.body).not.toMatch(/Treatment|Control|F\.RAND|rand_group/)
  })

  it('loads again as it was downloaded changing nothing: every allocation, and every value as stored', async () => {
    const before = await s.t.db.kysely.selectFrom('subject').select(['id', 'group_id']).where('project_id', '=', s.projectId).execute()
    const records = () => s.t.db.kysely.selectFrom('form_record').select(['id', 'rev', 'data']).orderBy('id').execute()
    const stored = await records()
    // Decimals stored as 173.0 come back from the spreadsheet as 173: the same number, no change.
    expect(stored.some((r) => /"\d+\.0"/.test(typeof r.data === 'string' ? r.data : JSON.stringify(r.data)))).toBe(true)
    const res = await download('statistician', 'xlsx', [s.formIds.baseline, s.formIds.history])
    const wb = await workbook(res.rawPayload)
    // A changed group in the file changes nothing: an allocation is never changed by a file.
    const main = wb.worksheets.find((w) => texts(w, 1).includes('rand_group'))!
    const at = texts(main, 1).indexOf('rand_group') + 1
    main.getRow(3).getCell(at).value = main.getRow(3).getCell(at).value === 'T' ? 'C' : 'T'
    const answer = (await s.upload('again.xlsx', Buffer.from(await wb.xlsx.writeBuffer()), { again: true })).body
    expect(answer.code, JSON.stringify(answer.data?.errors ?? answer.msg)).toBe(0)
    expect(answer.data).toMatchObject({ outcome: 'loaded', created: 0, updated: 0, enrolled: 0 })
    expect(answer.data.unchanged).toBeGreaterThan(0)
    const after = await s.t.db.kysely.selectFrom('subject').select(['id', 'group_id']).where('project_id', '=', s.projectId).execute()
    expect(after).toEqual(before)
    expect(await records()).toEqual(stored)
  })
})

describe('a kept download with groups fetched again', () => {
  /** The newest download of `username`, and its file fetched again by them. */
  const lastDownload = (username: string) =>
    s.t.db.kysely.selectFrom('data_download').selectAll().where('username', '=', username).orderBy('id', 'desc').executeTakeFirstOrThrow()
  const fetchAgain = (who: string, id: number, lang: string) =>
    s.t.app.inject({
      method: 'GET',
      url: `/${dataLoaderPaths.downloadFile(id)}?studyId=${s.projectId}`,
      headers: { 'kr-d-token': s.tokens[who]!, 'accept-language': lang },
    })

  it('is refused to its maker once blinded, in both languages; a file without groups still comes', async () => {
    await s.member('laterBlinded', ['export'])
    expect((await download('laterBlinded', 'csv', [s.formIds.baseline])).statusCode).toBe(200)
    const withGroups = await lastDownload('laterBlinded')
    expect(withGroups.holds_groups).toBe(1)
    expect((await fetchAgain('laterBlinded', withGroups.id, 'en')).statusCode).toBe(200)
    expect((await download('blinded', 'csv', [s.formIds.baseline])).statusCode).toBe(200)
    const without = await lastDownload('blinded')
    expect(without.holds_groups).toBe(0)

    await s.t.db.kysely.updateTable('project_role').set({ blinded: 1 }).where('name', '=', 'laterBlinded role').execute()
    const zh = await fetchAgain('laterBlinded', withGroups.id, 'zh')
    const en = await fetchAgain('laterBlinded', withGroups.id, 'en')
    expect(zh.statusCode).toBe(403)
    expect(zh.json()).toMatchObject({ msg: '该文件含有随机分组，而您现在不能查看分组，不能再次下载' })
    expect(en.json()).toMatchObject({
      msg: 'The file holds randomization groups, which you may no longer see; it cannot be downloaded again',
    })
    expect(en.body).not.toContain('rand_group')
    expect((await fetchAgain('blinded', without.id, 'en')).statusCode).toBe(200)
  })
})
