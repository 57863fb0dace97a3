import fs from 'node:fs'
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

/** The REDCap export of the two subjects' records, with their subject numbers as record ids. */
const records = () => {
  const [a, b] = subjects.map((s) => s.subjectNo)
  return [
    'record_id,redcap_event_name,redcap_repeat_instrument,redcap_repeat_instance,redcap_data_access_group,rc_dob,rc_sex,rc_symptoms___1,rc_symptoms___2,rc_symptoms___3,rc_demographics_complete,rc_weight,rc_sbp,rc_vitals_complete,rc_med_name,rc_med_dose,rc_medications_complete',
    `${a},baseline_arm_1,,,ca,1980-02-03,1,1,0,1,2,70.5,120,2,,,`,
    `${a},baseline_arm_1,rc_medications,1,ca,,,0,0,0,,,,,aspirin,100,2`,
    `${a},baseline_arm_1,rc_medications,2,ca,,,0,0,0,,,,,metformin,500,2`,
    `${a},visit_1_arm_1,,,ca,,,0,0,0,,71,118,2,,,`,
    `${b},baseline_arm_1,,,,1990-12-31,2,0,1,0,1,60,110,1,,,`,
  ].join('\n')
}

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
  for (let i = 0; i < 2; i++)
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

  // The upload route is the `apply` area's (server/services/dataLoader/upload.ts); until it is
  // merged this part does not run. It is the whole path: uploadFile?format=redcap → form_record.
  const uploadLanded = fs.existsSync(new URL('../../server/services/dataLoader/upload.ts', import.meta.url))
  it.runIf(uploadLanded)('load through uploadFile?format=redcap into form records and sub-form rows', async () => {
    const { payload, contentType } = multipart('redcap-records.csv', Buffer.from(records()))
    const res = await t.app.inject({
      method: 'POST',
      url: `/${dataLoaderPaths.upload}?studyId=${project.id}&format=redcap`,
      payload,
      headers: { 'content-type': contentType, 'kr-d-token': tokens.ra!, 'accept-language': 'en' },
    })
    const result = data<UploadResult>(res)
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

  it.runIf(uploadLanded)('refuse a file with an unknown column and an unknown event, naming both, and write nothing', async () => {
    const [a] = subjects.map((s) => s.subjectNo)
    const text = `record_id,redcap_event_name,rc_weight,rc_height\n${a},week_9_arm_1,72,170`
    const before = await t.db.kysely
      .selectFrom('form_record')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    const { payload, contentType } = multipart('redcap-bad.csv', Buffer.from(text))
    const res = await t.app.inject({
      method: 'POST',
      url: `/${dataLoaderPaths.upload}?studyId=${project.id}&format=redcap&again=true`,
      payload,
      headers: { 'content-type': contentType, 'kr-d-token': tokens.ra!, 'accept-language': 'en' },
    })
    const body = res.json() as { data?: UploadResult }
    expect(body.data?.outcome, res.body).toBe('refused')
    expect(body.data!.errors.map((e) => `${e.row} ${e.column}: ${e.message}`)).toEqual([
      "1 rc_height: Column rc_height is no field of the project's CRFs",
      '2 redcap_event_name: Event week_9_arm_1 matches no visit of the project (visits: Baseline, Visit 1)',
    ])
    const after = await t.db.kysely
      .selectFrom('form_record')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })
})
