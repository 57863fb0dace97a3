import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { templatePaths, type Template, type TemplateVersion } from '../../contract/crf.ts'
import { dataLoaderPaths, type CellError, type UploadResult } from '../../contract/dataLoader.ts'
import type { ImportResult } from '../../contract/dictionaryExchange.ts'
import type { VisitPlan } from '../../contract/followUp.ts'
import type { ProjectDetail } from '../../contract/projects.ts'
import type { EnrolledSubject } from '../../contract/subjects.ts'
import { fromJson } from '../../server/db/json.ts'
import { loadForms } from '../../server/services/dataLoader/forms.ts'
import type { SheetBatch } from '../../server/services/dataLoader/model.ts'
import { redcapSheets } from '../../server/services/dataLoader/redcapRecords.ts'
import { redcapColumns } from '../../server/services/dictionaryExchange/redcap.ts'
import { readXlsx } from '../../server/services/dictionaryExchange/xlsx.ts'
import { apiCalls, type Payload } from '../support/apiCalls.ts'
import { multipart } from '../support/multipart.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/**
 * REDCap records in, end to end (issue 11 item 3): a REDCap data dictionary imported as CRFs
 * (one per instrument), a project that collects them (vitals per visit, medications as a sub
 * form), and a REDCap "CSV (raw data)" record export with events, a repeating instrument,
 * checkboxes and status columns loaded into them. On the database of this run.
 */

let t: TestApp
const tokens: Record<string, string> = {}
let as = 'admin'
const { call, data } = apiCalls(
  () => t,
  () => tokens[as]!,
  '/',
)
const by = async <T>(user: string, fn: () => Promise<T>): Promise<T> => {
  const before = as
  as = user
  try {
    return await fn()
  } finally {
    as = before
  }
}
const post = (path: string, body?: Payload) => call('POST', path, body)
/** A CSV sent to uploadFile by the research admin, answered in English. */
const uploadCsv = async (fileName: string, text: string, query: string, lang: 'zh' | 'en' = 'en') => {
  const { payload, contentType } = multipart(fileName, Buffer.from(text))
  const res = await t.app.inject({
    method: 'POST',
    url: `/${dataLoaderPaths.upload}?studyId=${project.id}${query}`,
    payload,
    headers: { 'content-type': contentType, 'kr-d-token': tokens.ra!, 'accept-language': lang },
  })
  return { res, result: (res.json() as { data?: UploadResult }).data }
}

const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)
const dictionaryRow = (cells: Partial<Record<(typeof redcapColumns)[number]['key'], string>>) =>
  redcapColumns.map((c) => csvCell(cells[c.key] ?? '')).join(',')
const dictionary = [
  redcapColumns.map((c) => csvCell(c.header)).join(','),
  dictionaryRow({ field_name: 'record_id', form_name: 'rc_demographics', field_type: 'text', field_label: 'Record ID' }),
  dictionaryRow({
    field_name: 'rc_dob',
    form_name: 'rc_demographics',
    field_type: 'text',
    field_label: 'Date of birth',
    text_validation_type_or_show_slider_number: 'date_ymd',
  }),
  dictionaryRow({
    field_name: 'rc_sex',
    form_name: 'rc_demographics',
    field_type: 'radio',
    field_label: 'Sex',
    select_choices_or_calculations: '1, Male | 2, Female',
  }),
  dictionaryRow({
    field_name: 'rc_symptoms',
    form_name: 'rc_demographics',
    field_type: 'checkbox',
    field_label: 'Symptoms',
    select_choices_or_calculations: '1, Cough | 2, Fever | 3, Fatigue',
    required_field: 'y',
  }),
  dictionaryRow({
    field_name: 'rc_weight',
    form_name: 'rc_vitals',
    field_type: 'text',
    field_label: 'Weight',
    text_validation_type_or_show_slider_number: 'number',
    text_validation_min: '20',
    text_validation_max: '300',
  }),
  dictionaryRow({
    field_name: 'rc_sbp',
    form_name: 'rc_vitals',
    field_type: 'text',
    field_label: 'Systolic BP',
    text_validation_type_or_show_slider_number: 'integer',
  }),
  dictionaryRow({ field_name: 'rc_med_name', form_name: 'rc_medications', field_type: 'text', field_label: 'Medication' }),
  dictionaryRow({
    field_name: 'rc_med_dose',
    form_name: 'rc_medications',
    field_type: 'text',
    field_label: 'Dose',
    text_validation_type_or_show_slider_number: 'number',
  }),
].join('\n')

let project: ProjectDetail
const crfs: Record<string, Template> = {}
const subjects: EnrolledSubject[] = []
const visitIds: Record<string, number> = {}
const fieldIds: Record<string, number> = {}

/** The REDCap export of two subjects' records (the first two by default), their subject numbers as record ids. */
const records = ([a, b] = subjects.map((s) => s.subjectNo)) =>
  [
    'record_id,redcap_event_name,redcap_repeat_instrument,redcap_repeat_instance,redcap_data_access_group,rc_dob,rc_sex,rc_symptoms___1,rc_symptoms___2,rc_symptoms___3,rc_demographics_complete,rc_weight,rc_sbp,rc_vitals_complete,rc_med_name,rc_med_dose,rc_medications_complete',
    `${a},baseline_arm_1,,,ca,1980-02-03,1,1,0,1,2,70.5,120,2,,,`,
    `${a},baseline_arm_1,rc_medications,1,ca,,,0,0,0,,,,,aspirin,100,2`,
    `${a},baseline_arm_1,rc_medications,2,ca,,,0,0,0,,,,,metformin,500,2`,
    `${a},visit_1_arm_1,,,ca,,,0,0,0,,71,118,2,,,`,
    `${b},baseline_arm_1,,,,1990-12-31,2,0,1,0,1,60,110,1,,,`,
  ].join('\n')

/**
 * The same records as REDCap's "CSV (labels)" export writes them: field labels as the header,
 * checkbox columns as "Label (choice=Choice label)" holding Checked / Unchecked, choices as their
 * labels, events by label and arm, the repeating instrument by its label.
 */
const labelRecords = ([a, b]: string[]) =>
  [
    'Record ID,Event Name,Repeat Instrument,Repeat Instance,Data Access Group,Date of birth,Sex,Symptoms (choice=Cough),Symptoms (choice=Fever),Symptoms (choice=Fatigue),Complete?,Weight,Systolic BP,Complete?,Medication,Dose,Complete?',
    `${a},Baseline (Arm 1: Arm 1),,,CA,1980-02-03,Male,Checked,Unchecked,Checked,Complete,70.5,120,Complete,,,`,
    `${a},Baseline (Arm 1: Arm 1),Medications,1,CA,,,Unchecked,Unchecked,Unchecked,,,,,aspirin,100,Complete`,
    `${a},Baseline (Arm 1: Arm 1),Medications,2,CA,,,Unchecked,Unchecked,Unchecked,,,,,metformin,500,Complete`,
    `${a},Visit 1 (Arm 1: Arm 1),,,CA,,,Unchecked,Unchecked,Unchecked,,71,118,Complete,,,`,
    `${b},Baseline (Arm 1: Arm 1),,,,1990-12-31,Female,Unchecked,Checked,Unchecked,Unverified,60,110,Unverified,,,`,
  ].join('\n')

beforeAll(async () => {
  t = await testApp()
  await t.createUser('admin', 'Research1')
  for (const u of ['ra', 'auditor']) await t.createUser(u, 'Research1', { roles: ['researchAdmin'] })
  for (const u of ['admin', 'ra', 'auditor']) tokens[u] = await t.signIn(u, 'Research1')
  const at = new Date().toISOString()
  const centerIds = (
    await t.db.kysely
      .insertInto('center')
      .values([{ code: 'CA', name_zh: '中心CA', name_en: 'Center CA', created_at: at, updated_at: at }])
      .returning('id')
      .execute()
  ).map((r) => r.id)

  // The REDCap data dictionary makes one draft CRF per instrument.
  const { payload, contentType } = multipart('redcap-dictionary.csv', Buffer.from(dictionary))
  const imported = data<ImportResult>(
    await t.app.inject({
      method: 'POST',
      url: '/api/dictionary/import?format=redcap',
      payload,
      headers: { 'content-type': contentType, 'kr-d-token': tokens.admin!, 'accept-language': 'en' },
    }),
  )
  expect(imported).toMatchObject({ format: 'redcap', indicators: 8, templates: 3, errorsTotal: 0 })
  for (const tpl of data<Template[]>(await call('GET', `${templatePaths.list}?kind=crf&q=rc_`))) crfs[tpl.name] = tpl
  expect(Object.keys(crfs).sort()).toEqual(['rc_demographics', 'rc_medications', 'rc_vitals'])

  // The designer makes vitals a follow-up CRF and the medications section repeating, and publishes.
  const vitals = crfs.rc_vitals!
  data(
    await call('PUT', templatePaths.one(vitals.id), {
      name: vitals.name,
      description: '',
      collectType: 'followUp',
      preposeIds: [],
      status: 1,
    }),
  )
  const meds = data<TemplateVersion>(await call('GET', templatePaths.layout(crfs.rc_medications!.id)))
  data(
    await call('PUT', templatePaths.layout(crfs.rc_medications!.id), {
      sections: meds.layout.sections.map((s) => ({ ...s, repeating: true })),
    }),
  )
  const versionIds: Record<string, number> = {}
  for (const tpl of Object.values(crfs)) {
    data(await post(`${templatePaths.publishCrf}?id=${tpl.id}`))
    const v = data<TemplateVersion>(await call('GET', templatePaths.version(tpl.id, 1)))
    versionIds[tpl.name] = v.id
    for (const f of v.indicators) fieldIds[f.code] = f.id
  }

  project = await by('ra', async () =>
    data<ProjectDetail>(
      await post('api/projects', {
        scope: 'multi',
        base: { type: 'prospective', name: 'REDCap 研究', number: 'RC-1', groupType: 'group', plannedQuantity: 50, plannedGroups: 2 },
        queues: [{ name: '队列甲', key: 'A' }],
        forms: ['rc_demographics', 'rc_vitals', 'rc_medications'].map((n) => ({ templateId: crfs[n]!.id, versionId: versionIds[n]! })),
        centerIds,
      }),
    ),
  )
  await by('ra', async () => data(await post(`api/projects/${project.id}/submit`)))
  await by('auditor', async () => data(await post(`api/projects/${project.id}/pass`)))
  for (const [name, dayOffset] of [['Baseline', 0] as const, ['Visit 1', 30] as const]) {
    const visit = { name, dayOffset, windowBefore: 3, windowAfter: 7, templateIds: [vitals.id] }
    const plan = data<VisitPlan>(await by('ra', () => post(`api/projects/${project.id}/visits`, visit)))
    visitIds[name] = plan.visits.find((v) => v.name === name)!.id
  }
  // Two for the raw export, two for the same data exported with labels, one for refused files.
  for (let i = 0; i < 5; i++)
    subjects.push(
      await by('ra', async () =>
        data<EnrolledSubject>(
          await post(`api/projects/${project.id}/subjects`, {
            queueId: project.queues[0]!.id,
            centerId: centerIds[0]!,
            checklist: { inclusion: [], exclusion: [] },
          }),
        ),
      ),
    )
}, 60_000)
afterAll(() => t.close())

describe('REDCap records against CRFs imported from the same REDCap data dictionary', () => {
  it('map onto the sheets of the project: events as visits, the repeating instrument as sub-form rows, checkboxes as choices', async () => {
    const forms = await loadForms(t.app.ctx, project.id)
    const visits = Object.entries(visitIds).map(([name, id]) => ({ id, name }))
    const lines = records().split('\n')
    async function* read(): AsyncGenerator<SheetBatch> {
      yield { sheet: '', header: lines[0]!.split(','), rows: lines.slice(1).map((l, i) => ({ row: i + 2, cells: l.split(',') })) }
    }
    const problems: CellError[] = []
    const out = new Map<string, string[][]>()
    for await (const b of redcapSheets(forms, visits, read(), { lang: 'en', problem: (e) => problems.push(e) }))
      out.set(b.sheet, [...(out.get(b.sheet) ?? []), ...(b.header ? [b.header] : []), ...b.rows.map((r) => [String(r.row), ...r.cells])])
    expect(problems).toEqual([])
    const [a, b] = subjects.map((s) => s.subjectNo)
    expect(
      out
        .get('_layout')!
        .slice(1)
        .map((r) => r[1]),
    ).toEqual(['rc_demographics', 'rc_vitals', 'rc_medications - s1'])
    expect(out.get('rc_demographics')).toEqual([
      ['subject_id', 'center', 'queue', 'record_id', 'rc_dob', 'rc_sex', 'rc_symptoms'],
      ['2', a, '', '', a, '1980-02-03', '1', '1|3'],
      ['6', b, '', '', b, '1990-12-31', '2', '2'],
    ])
    expect(out.get('rc_vitals')).toEqual([
      ['subject_id', 'center', 'queue', 'visit', 'rc_weight', 'rc_sbp'],
      ['2', a, '', '', 'Baseline', '70.5', '120'],
      ['5', a, '', '', 'Visit 1', '71', '118'],
      ['6', b, '', '', 'Baseline', '60', '110'],
    ])
    expect(out.get('rc_medications - s1')).toEqual([
      ['subject_id', 'row', 'rc_med_name', 'rc_med_dose'],
      ['3', a, '1', 'aspirin', '100'],
      ['4', a, '2', 'metformin', '500'],
    ])
  })

  it("numbers a record's repeat instances as its rows in order: 1, 2, 4 (one deleted in REDCap) are rows 1, 2, 3", async () => {
    const forms = await loadForms(t.app.ctx, project.id)
    const visits = Object.entries(visitIds).map(([name, id]) => ({ id, name }))
    const [a] = subjects.map((x) => x.subjectNo)
    const lines = [
      records().split('\n')[0]!,
      ...[1, 2, 4].map((n) => `${a},baseline_arm_1,rc_medications,${n},ca,,,0,0,0,,,,,drug ${n},${n},2`),
    ]
    async function* read(): AsyncGenerator<SheetBatch> {
      yield { sheet: '', header: lines[0]!.split(','), rows: lines.slice(1).map((l, i) => ({ row: i + 2, cells: l.split(',') })) }
    }
    const problems: CellError[] = []
    const rows: string[][] = []
    for await (const b of redcapSheets(forms, visits, read(), { lang: 'en', problem: (e) => problems.push(e) }))
      if (b.sheet === 'rc_medications - s1') rows.push(...b.rows.map((r) => r.cells))
    expect(problems).toEqual([])
    expect(rows).toEqual([
      [a, '1', 'drug 1', '1'],
      [a, '2', 'drug 2', '2'],
      [a, '3', 'drug 4', '4'],
    ])
  })

  // The upload route is the `apply` area's (server/services/dataLoader/upload.ts); until it is
  // merged this part does not run. It is the whole path: uploadFile?format=redcap → form_record.
  const uploadLanded = fs.existsSync(new URL('../../server/services/dataLoader/upload.ts', import.meta.url))
  it.runIf(uploadLanded)('load through uploadFile?format=redcap into form records and sub-form rows', async () => {
    const result = data<UploadResult>((await uploadCsv('redcap-records.csv', records(), '&format=redcap')).res)
    expect(result).toMatchObject({ outcome: 'loaded', errorsTotal: 0, errors: [] })
    const stored = await t.db.kysely
      .selectFrom('form_record')
      .select(['id', 'subject_id', 'template_id', 'visit_id', 'data', 'upload_id'])
      .where('project_id', '=', project.id)
      .orderBy('id')
      .execute()
    const of = (subject: number, template: string, visit: string | null) => {
      const r = stored.find(
        (x) =>
          x.subject_id === subjects[subject]!.id && x.template_id === crfs[template]!.id && x.visit_id === (visit ? visitIds[visit] : null),
      )
      expect(r, `${template} of subject ${subject} at ${visit}`).toBeDefined()
      expect(r!.upload_id).toBe(result.uploadId)
      return { id: r!.id, data: fromJson<Record<string, unknown>>(r!.data) }
    }
    const v = (code: string) => String(fieldIds[code])
    expect(of(0, 'rc_demographics', null).data).toMatchObject({
      [v('rc_dob')]: '1980-02-03',
      [v('rc_sex')]: '1',
      [v('rc_symptoms')]: ['1', '3'],
    })
    expect(of(1, 'rc_demographics', null).data).toMatchObject({ [v('rc_sex')]: '2', [v('rc_symptoms')]: ['2'] })
    expect(of(0, 'rc_vitals', 'Baseline').data).toMatchObject({ [v('rc_weight')]: '70.5', [v('rc_sbp')]: '120' })
    expect(of(0, 'rc_vitals', 'Visit 1').data).toMatchObject({ [v('rc_weight')]: '71', [v('rc_sbp')]: '118' })
    expect(of(1, 'rc_vitals', 'Baseline').data).toMatchObject({ [v('rc_weight')]: '60' })
    const meds = of(0, 'rc_medications', null)
    const rows = await t.db.kysely
      .selectFrom('form_row')
      .select(['sort', 'data'])
      .where('record_id', '=', meds.id)
      .orderBy('sort')
      .execute()
    expect(rows.map((r) => fromJson<Record<string, unknown>>(r.data))).toEqual([
      { [v('rc_med_name')]: 'aspirin', [v('rc_med_dose')]: '100' },
      { [v('rc_med_name')]: 'metformin', [v('rc_med_dose')]: '500' },
    ])
  })

  it.runIf(uploadLanded)(
    'name an event mapped to a visit the project lacks once, at its first row, in zh and en, and write nothing',
    async () => {
      const [a, b] = subjects.map((s) => s.subjectNo)
      const text = `record_id,redcap_event_name,rc_weight\n${a},baseline_arm_1,70\n${a},week_9_arm_1,71\n${b},week_9_arm_1,72\n${b},week_9_arm_1,73`
      const events = `&events=${encodeURIComponent(JSON.stringify({ week_9_arm_1: 'Week 9' }))}`
      const count = async () =>
        Number(
          (
            await t.db.kysely
              .selectFrom('form_record')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        )
      const before = await count()
      for (const [lang, said] of [
        ['en', '3 redcap_event_name: The event mapping sends week_9_arm_1 to visit Week 9, which the project does not have'],
        ['zh', '3 redcap_event_name: 事件对照中 week_9_arm_1 指向的访视 Week 9 不在本研究中'],
      ] as const) {
        const { res, result } = await uploadCsv('redcap-mapped.csv', text, `&format=redcap&again=true${events}`, lang)
        expect(result?.outcome, res.body).toBe('refused')
        expect(result!.errors.map((e) => `${e.row} ${e.column}: ${e.message}`)).toEqual([said])
        expect(result!.errorsTotal).toBe(1)
      }
      expect(await count()).toBe(before)
    },
  )

  it.runIf(uploadLanded)('refuse a file with an unknown column and an unknown event, naming both, and write nothing', async () => {
    const [a] = subjects.map((s) => s.subjectNo)
    const text = `record_id,redcap_event_name,rc_weight,rc_height\n${a},week_9_arm_1,72,170`
    const before = await t.db.kysely
      .selectFrom('form_record')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    const { res, result } = await uploadCsv('redcap-bad.csv', text, '&format=redcap&again=true')
    expect(result?.outcome, res.body).toBe('refused')
    expect(result!.errors.map((e) => `${e.row} ${e.column}: ${e.message}`)).toEqual([
      "1 rc_height: Column rc_height is no field of the project's CRFs",
      '2 redcap_event_name: Event week_9_arm_1 matches no visit of the project (visits: Baseline, Visit 1)',
    ])
    const after = await t.db.kysely
      .selectFrom('form_record')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })

  it.runIf(uploadLanded)('name a REDCap missing-data code where a value was due, and write nothing', async () => {
    const [a] = subjects.map((s) => s.subjectNo)
    const text = ['record_id,redcap_event_name,rc_dob,rc_sex,rc_weight,rc_sbp', `${a},baseline_arm_1,UNK,NASK,abc,NA`].join('\n')
    const before = await t.db.kysely.selectFrom('form_record').select(['id', 'rev', 'data']).orderBy('id').execute()
    const { res, result } = await uploadCsv('redcap-missing.csv', text, '&format=redcap&again=true')
    expect(result?.outcome, res.body).toBe('refused')
    const byColumn = new Map(result!.errors.map((e) => [e.column, e.message]))
    const note = (code: string) =>
      `(${code} is a REDCap missing-data code; a field here holds a value or nothing: leave the cell empty or give the value)`
    expect(byColumn.get('rc_dob')).toMatch(/^Date of birth: /)
    expect(byColumn.get('rc_dob')!.endsWith(note('UNK'))).toBe(true)
    expect(byColumn.get('rc_sex')!.endsWith(note('NASK'))).toBe(true)
    expect(byColumn.get('rc_sbp')!.endsWith(note('NA'))).toBe(true)
    // A value that is no code is refused by its rule alone.
    expect(byColumn.get('rc_weight')).toMatch(/^Weight: /)
    expect(byColumn.get('rc_weight')).not.toMatch(/missing-data/)
    expect(await t.db.kysely.selectFrom('form_record').select(['id', 'rev', 'data']).orderBy('id').execute()).toEqual(before)
  })

  /** A subject's stored values by CRF and visit, with its sub-form rows; the record id field left out (it is the subject's number). */
  const storedOf = async (subject: number) => {
    const db = t.db.kysely
    const out: Record<string, { data: Record<string, unknown>; rows: unknown[] }> = {}
    const recs = await db
      .selectFrom('form_record')
      .select(['id', 'template_id', 'visit_id', 'data'])
      .where('subject_id', '=', subjects[subject]!.id)
      .execute()
    for (const r of recs) {
      const rows = await db.selectFrom('form_row').select('data').where('record_id', '=', r.id).orderBy('sort').execute()
      const { [String(fieldIds.record_id)]: recordId, ...data } = fromJson<Record<string, unknown>>(r.data)
      if (recordId !== undefined) expect(recordId).toBe(subjects[subject]!.subjectNo)
      out[`${r.template_id}@${r.visit_id ?? ''}`] = { data, rows: rows.map((x) => fromJson<unknown>(x.data)) }
    }
    return out
  }

  it.runIf(uploadLanded)(
    'load a "CSV (labels)" export, told by its header, as the same values as the raw export of the same data',
    async () => {
      const [, , c, d] = subjects.map((s) => s.subjectNo)
      const { res, result } = await uploadCsv('redcap-labels.csv', labelRecords([c!, d!]), '')
      expect(result, res.body).toMatchObject({ outcome: 'loaded', errorsTotal: 0 })
      const raw = await storedOf(0)
      expect(Object.keys(raw)).toHaveLength(4)
      expect(await storedOf(2)).toEqual(raw)
      expect(await storedOf(3)).toEqual(await storedOf(1))
    },
  )

  it.runIf(uploadLanded)(
    'name the cell of the REDCap file, not of our sheets, for what the row checks refuse; so does the report',
    async () => {
      const e = subjects[4]!.subjectNo
      const text = [
        'record_id,redcap_event_name,redcap_repeat_instrument,redcap_repeat_instance,rc_dob,rc_symptoms___1,rc_symptoms___2,rc_symptoms___3,rc_med_name,rc_med_dose',
        `${e},baseline_arm_1,,,1970-01-01,0,0,0,,`,
        `${e},baseline_arm_1,rc_medications,1,,0,0,0,aspirin,100`,
        `${e},baseline_arm_1,rc_medications,2,,0,0,0,metformin,lots`,
        'NOPE-1,baseline_arm_1,rc_medications,1,,0,0,0,insulin,10',
      ].join('\n')
      const { res, result } = await uploadCsv('redcap-refused.csv', text, '&format=redcap')
      expect(result?.outcome, res.body).toBe('refused')
      const named = [
        ['', '2', 'rc_symptoms___1', '0'],
        ['', '4', 'rc_med_dose', 'lots'],
        ['', '5', 'record_id', 'NOPE-1'],
      ]
      expect(result!.errors.map((x) => [x.sheet, String(x.row), x.column, x.value])).toEqual(named)
      expect(result!.errors[0]!.message).toMatch(/^Symptoms: /)
      const { report_sha256: sha } = await t.db.kysely
        .selectFrom('data_upload')
        .select('report_sha256')
        .where('id', '=', result!.uploadId)
        .executeTakeFirstOrThrow()
      const report = await readXlsx(fs.readFileSync(path.join(t.app.ctx.dataDir, 'loads', sha!)))
      expect(report.rows.map((r) => r.cells.slice(0, 4))).toEqual(named)
    },
  )

  it.runIf(uploadLanded)('in a labels export, name the column by its label and the value as written', async () => {
    const e = subjects[4]!.subjectNo
    const text = [
      'Record ID,Event Name,Repeat Instrument,Repeat Instance,Date of birth,Symptoms (choice=Cough),Symptoms (choice=Fever),Symptoms (choice=Fatigue),Medication,Dose',
      `${e},Baseline (Arm 1: Arm 1),,,1970-01-01,Unchecked,Unchecked,Unchecked,,`,
      `${e},Baseline (Arm 1: Arm 1),Medications,2,,Unchecked,Unchecked,Unchecked,metformin,lots`,
    ].join('\n')
    const { res, result } = await uploadCsv('redcap-labels-refused.csv', text, '&format=redcap')
    expect(result?.outcome, res.body).toBe('refused')
    expect(result!.errors.map((x) => [x.sheet, x.row, x.column, x.value])).toEqual([
      ['', 2, 'Symptoms (choice=Cough)', 'Unchecked'],
      ['', 3, 'Dose', 'lots'],
    ])
  })
})
