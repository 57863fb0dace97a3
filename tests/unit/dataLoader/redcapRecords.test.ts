import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import type { CellError } from '../../../contract/dataLoader.ts'
import type { SheetBatch } from '../../../server/services/dataLoader/model.ts'
import { isRedcapRecordHeader } from '../../../server/services/dataLoader/redcapHeader.ts'
import { redcapSheets, uploadSheets, type RedcapOptions } from '../../../server/services/dataLoader/redcapRecords.ts'
import { fieldCoded, loadForm } from '../../support/loadForm.ts'

/**
 * REDCap "CSV (raw data)" record exports turned into the sheets of our layout: events as visits,
 * repeating instruments as sub-form rows (or, without events, as the visits of the schedule),
 * checkbox columns as choice lists, REDCap's bookkeeping ignored, and every bad column or cell
 * named at the file's own row.
 */

const choices = (...codes: string[]) => codes.map((code) => ({ code, labelZh: `选项${code}`, labelEn: `Choice ${code}` }))

// What the REDCap dictionary import makes: one CRF per instrument, one field per variable. The
// designer then made vitals a follow-up CRF and the medications section repeating.
const demographics = loadForm('demographics', 'single', [
  {
    key: 's1',
    fields: [
      fieldCoded('record_id'),
      fieldCoded('dob', { type: 'date', dateFormat: 'YYYY-MM-DD' }),
      fieldCoded('sex', { type: 'single', display: 'radio', options: choices('1', '2') }),
      fieldCoded('symptoms', { type: 'multiple', display: 'checkbox', options: choices('1', '2', '-3') }),
    ],
  },
])
const vitals = loadForm('vitals', 'visit', [
  { key: 's1', fields: [fieldCoded('weight', { dataType: 'decimal' }), fieldCoded('sbp', { dataType: 'integer' })] },
])
const medications = loadForm('medications', 'single', [
  { key: 'meds', repeating: true, fields: [fieldCoded('med_name'), fieldCoded('med_dose', { dataType: 'decimal' })] },
])
const biosample = loadForm('biosample', 'sample', [{ key: 's1', fields: [fieldCoded('tube')] }])
const forms = [demographics, vitals, medications, biosample]
const visits = [
  { id: 11, name: 'Baseline' },
  { id: 12, name: 'Visit 1' },
]

async function* read(csv: string): AsyncGenerator<SheetBatch> {
  const records = parse(csv.trim(), { relax_column_count: true }) as string[][]
  yield { sheet: '', header: records[0]!, rows: records.slice(1).map((cells, i) => ({ row: i + 2, cells })) }
}

async function run(csv: string, over: Partial<RedcapOptions> = {}, list = forms) {
  const problems: CellError[] = []
  const sheets = new Map<string, { header: string[]; rows: [number, string[]][] }>()
  for await (const b of redcapSheets(list, visits, read(csv), { lang: 'en', problem: (e) => problems.push(e), ...over })) {
    const s = sheets.get(b.sheet) ?? { header: b.header ?? [], rows: [] }
    expect(s.header, 'the header comes with the first batch of a sheet').toEqual(b.header ?? s.header)
    s.rows.push(...b.rows.map((r): [number, string[]] => [r.row, r.cells]))
    sheets.set(b.sheet, s)
  }
  return { sheets, problems: problems.map((p) => `${p.row} ${p.column}: ${p.message}`) }
}

const header =
  'record_id,redcap_event_name,redcap_repeat_instrument,redcap_repeat_instance,redcap_data_access_group,dob,sex,symptoms___1,symptoms___2,symptoms____3,demographics_complete,weight,sbp,vitals_complete,med_name,med_dose,medications_complete'

describe('a REDCap record export as sheets of our layout', () => {
  it('maps events to visits, repeating instruments to sub-form rows and checkbox columns to choice lists', async () => {
    const { sheets, problems } = await run(`${header}
1,baseline_arm_1,,,site_a,1980-02-03,1,1,0,1,2,70.5,120,2,,,
1,baseline_arm_1,medications,1,site_a,,,0,0,0,,,,,aspirin,100,2
1,baseline_arm_1,medications,2,site_a,,,0,0,0,,,,,metformin,500,2
1,visit_1_arm_1,,,site_a,,,0,0,0,,71,118,2,,,
2,baseline_arm_1,,,,1990-12-31,2,0,0,0,1,60,110,1,,,
2,visit_1_arm_1,,,,,,0,0,0,,,,0,,,
`)
    expect(problems).toEqual([])
    expect([...sheets.keys()]).toEqual(['_layout', 'demographics', 'vitals', 'medications - meds'])
    expect(sheets.get('_layout')).toEqual({
      header: ['sheet', 'templateId', 'versionId', 'section'],
      rows: [
        [2, ['demographics', String(demographics.templateId), String(demographics.versionId), '']],
        [3, ['vitals', String(vitals.templateId), String(vitals.versionId), '']],
        [4, ['medications - meds', String(medications.templateId), String(medications.versionId), 'meds']],
      ],
    })
    // The record id is the subject and, as REDCap has it, the value of its field too.
    expect(sheets.get('demographics')).toEqual({
      header: ['subject_id', 'center', 'queue', 'record_id', 'dob', 'sex', 'symptoms'],
      rows: [
        [2, ['1', '', '', '1', '1980-02-03', '1', '1|-3']],
        [6, ['2', '', '', '2', '1990-12-31', '2', '']],
      ],
    })
    expect(sheets.get('vitals')).toEqual({
      header: ['subject_id', 'center', 'queue', 'visit', 'weight', 'sbp'],
      rows: [
        [2, ['1', '', '', 'Baseline', '70.5', '120']],
        [5, ['1', '', '', 'Visit 1', '71', '118']],
        [6, ['2', '', '', 'Baseline', '60', '110']],
      ],
    })
    expect(sheets.get('medications - meds')).toEqual({
      header: ['subject_id', 'row', 'med_name', 'med_dose'],
      rows: [
        [3, ['1', '1', 'aspirin', '100']],
        [4, ['1', '2', 'metformin', '500']],
      ],
    })
  })

  it('names every bad column and cell at the row of the REDCap file, and leaves those rows out', async () => {
    const { sheets, problems } =
      await run(`record_id,redcap_event_name,redcap_repeat_instrument,redcap_repeat_instance,dob,symptoms___1,symptoms___9,weight,tube,extra_note
1,baseline_arm_1,,,1980-02-03,2,,70,,
1,visit_1_arm_1,,,1980-02-04,0,,71,,
1,week_9_arm_1,,,,0,,72,,
1,baseline_arm_1,vitals,2,,0,,73,,
,baseline_arm_1,,,1999-01-01,0,,,,
3,baseline_arm_1,,x,1999-01-01,0,,,,
`)
    expect(problems).toEqual([
      '1 symptoms___9: Column symptoms___9: 9 is no choice of the checkbox field symptoms',
      "1 extra_note: Column extra_note is no field of the project's CRFs",
      '1 tube: CRF biosample is entered per sample; a REDCap record cannot say which sample',
      '2 symptoms___1: A checkbox column holds 1 or 0, not 2',
      '3 record_id: Record 1 fills CRF demographics (—) again; row 2 did already',
      '4 redcap_event_name: Event week_9_arm_1 matches no visit of the project (visits: Baseline, Visit 1)',
      '5 redcap_repeat_instance: CRF vitals holds one instance per visit, but event baseline_arm_1 has instance 2: make its section repeating, or export without events',
      '6 record_id: The record id is empty',
      '7 redcap_repeat_instance: redcap_repeat_instance must be a whole number of at least 1, not x',
    ])
    expect(sheets.get('demographics')?.rows.map((r) => r[0])).toEqual([2])
    expect(sheets.get('vitals')?.rows.map((r) => r[1])).toEqual([
      ['1', '', '', 'Baseline', '70'],
      ['1', '', '', 'Visit 1', '71'],
    ])
  })

  it('a mapping names the visit of an event by name or id; a mapping to no visit is named once, at its first row', async () => {
    const csv = `record_id,redcap_event_name,weight
7,enrolment_arm_1,80
7,week_4_arm_2,81
7,visit_1_arm_2,82
8,unscheduled_arm_1,83
9,unscheduled_arm_1,84`
    const mapped = await run(csv, {
      events: { enrolment_arm_1: 'Baseline', week_4_arm_2: '12', unscheduled_arm_1: 'Visit 9', never_arm_1: 'Visit 8' },
    })
    expect(mapped.problems).toEqual([
      '4 record_id: Record 7 fills CRF vitals (Visit 1) again; row 3 did already',
      '5 redcap_event_name: The event mapping sends unscheduled_arm_1 to visit Visit 9, which the project does not have',
      // A mapping no row uses is still wrong: named on the header's row.
      '1 redcap_event_name: The event mapping sends never_arm_1 to visit Visit 8, which the project does not have',
    ])
    expect(mapped.sheets.get('vitals')?.rows).toEqual([
      [2, ['7', '', '', 'Baseline', '80']],
      [3, ['7', '', '', 'Visit 1', '81']],
    ])
  })

  it('without events, instance n of a follow-up CRF is the n-th visit of the schedule', async () => {
    const { sheets, problems } = await run(`record_id,redcap_repeat_instrument,redcap_repeat_instance,weight,med_name
5,vitals,1,60,
5,vitals,2,61,
5,vitals,3,62,
5,medications,1,,aspirin
5,demographics,2,,`)
    expect(problems).toEqual([
      '4 redcap_repeat_instance: CRF vitals is entered per visit, the file has no redcap_event_name column, and instance 3 is past the 2 visits of the schedule',
    ])
    expect(sheets.get('vitals')?.rows).toEqual([
      [2, ['5', '', '', 'Baseline', '60']],
      [3, ['5', '', '', 'Visit 1', '61']],
    ])
    expect(sheets.get('medications - meds')?.rows).toEqual([[5, ['5', '1', 'aspirin']]])
  })

  it('a file without a record id column or without any field of the project is refused whole, in the user language', async () => {
    const noId = await run('redcap_event_name,weight\nbaseline_arm_1,70')
    expect(noId.problems).toEqual([
      '1 redcap_event_name: The first column of a REDCap records file must be the record id (such as record_id), not redcap_event_name',
    ])
    expect(noId.sheets.size).toBe(0)
    const none = await run('study_id,redcap_event_name,height\n1,baseline_arm_1,170', { lang: 'zh' })
    expect(none.problems).toEqual([
      '1 height: 列 height 不是本研究任何 CRF 的字段',
      '1 study_id: 没有一列是本研究 CRF 的字段：请确认 CRF 由同一份 REDCap 数据字典导入并已纳入研究',
    ])
    expect(none.sheets.size).toBe(0)
  })

  it('a single-mode CRF repeated without a repeating section is refused per instance', async () => {
    const { problems } = await run(`record_id,redcap_repeat_instrument,redcap_repeat_instance,dob
1,demographics,1,2000-01-01
1,demographics,2,2000-01-02`)
    expect(problems).toEqual([
      '3 redcap_repeat_instance: CRF demographics holds one instance per subject, but this is instance 2: make its section repeating, or make it a follow-up CRF',
    ])
  })
})

describe('telling a REDCap record export from a sheet of ours', () => {
  const sheetsOf = async (batches: AsyncIterable<SheetBatch>, format: 'auto' | 'redcap') => {
    const out: string[] = []
    for await (const b of uploadSheets(forms, visits, batches, { lang: 'en', format, problem: () => undefined })) out.push(b.sheet)
    return out
  }
  it('an upload in our layout passes as read; a REDCap export, told by its header or by the format, is mapped', async () => {
    async function* ours(): AsyncGenerator<SheetBatch> {
      yield {
        sheet: '',
        header: ['subject_id', 'center', 'queue', 'visit', 'weight'],
        rows: [{ row: 3, cells: ['1', '', '', 'Baseline', '70'] }],
      }
      yield { sheet: '', rows: [{ row: 4, cells: ['2', '', '', 'Baseline', '71'] }] }
    }
    expect(await sheetsOf(ours(), 'auto')).toEqual(['', ''])
    expect(await sheetsOf(read('record_id,redcap_event_name,weight\n1,baseline_arm_1,70'), 'auto')).toEqual(['_layout', 'vitals'])
    expect(await sheetsOf(read('record_id,weight\n1,70'), 'auto')).toEqual(['_layout', 'vitals'])
    expect(await sheetsOf(read('height,weight\n170,70'), 'auto')).toEqual([''])
    expect(await sheetsOf(read('id,weight\n1,70'), 'redcap')).toEqual(['_layout', 'vitals'])
  })

  it('events match visits by their label as REDCap shortens it, arms aside', async () => {
    const schedule = [
      { id: 1, name: 'V1 · 3 个月 / month 3' },
      { id: 2, name: 'Follow-up at twelve months' },
    ]
    const out: string[] = []
    const problems: string[] = []
    const csv = 'record_id,redcap_event_name,weight\n1,v1_3_month_3_arm_1,70\n1,followup_at_twelve_arm_2,71\n2,v1_3_month_3_arm_2,72'
    for await (const b of redcapSheets(forms, schedule, read(csv), { lang: 'en', problem: (e) => problems.push(e.message) }))
      if (b.sheet === 'vitals') out.push(...b.rows.map((r) => r.cells[3]!))
    expect(problems).toEqual([])
    expect(out).toEqual(['V1 · 3 个月 / month 3', 'Follow-up at twelve months', 'V1 · 3 个月 / month 3'])
  })

  it('by REDCap columns, instrument status columns, or a first column and another that are field codes', () => {
    expect(isRedcapRecordHeader(['record_id', 'redcap_event_name', 'dob'])).toBe(true)
    expect(isRedcapRecordHeader(['study_id', 'dob', 'demographics_complete'])).toBe(true)
    expect(isRedcapRecordHeader(['record_id', 'dob', 'symptoms___1'])).toBe(false)
    expect(isRedcapRecordHeader(['record_id', 'dob', 'symptoms___1'], forms)).toBe(true)
    expect(isRedcapRecordHeader(['record_id', 'height'], forms)).toBe(false)
    expect(isRedcapRecordHeader(['subject_id', 'center', 'queue', 'redcap_event_name'], forms)).toBe(false)
    expect(isRedcapRecordHeader(['sheet', 'templateId', 'versionId', 'section'])).toBe(false)
    expect(isRedcapRecordHeader([])).toBe(false)
  })
})

describe('a REDCap "CSV (labels)" export', () => {
  // REDCap has one label per field and choice; the import keeps it in both languages.
  const one = (code: string, label: string) => ({ code, labelZh: label, labelEn: label })
  const screening = loadForm('screening', 'visit', [
    {
      key: 's1',
      fields: [
        fieldCoded('scr_id', { nameZh: 'Screening ID', nameEn: 'Screening ID' }),
        fieldCoded('scr_smoker', {
          nameZh: 'Smoker',
          nameEn: 'Smoker',
          type: 'single',
          display: 'radio',
          options: [one('1', 'Yes'), one('0', 'No')],
        }),
        fieldCoded('scr_diet', {
          nameZh: 'Diet',
          nameEn: 'Diet',
          type: 'multiple',
          display: 'checkbox',
          options: [one('1', 'Vegan'), one('2', 'Keto')],
        }),
        fieldCoded('scr_seen', { nameZh: 'Date', nameEn: 'Date' }),
        fieldCoded('scr_signed', { nameZh: 'Date', nameEn: 'Date' }),
      ],
    },
  ])
  const labelled = (csv: string, lang: 'en' | 'zh' = 'en') => run(csv, { lang }, [screening])

  it('reads labels as fields, Checked as ticked, choice and event labels as codes and visits', async () => {
    const { sheets, problems } = await labelled(`Screening ID,Event Name,Smoker,Diet (choice=Vegan),Diet (choice=Keto),Complete?
S1,Baseline (Arm 1: Arm 1),No,Unchecked,Checked,Complete
S2,Visit 1 (Arm 2: Second arm),Yes,Checked,Checked,Incomplete`)
    expect(problems).toEqual([])
    expect(sheets.get('screening')).toEqual({
      header: ['subject_id', 'center', 'queue', 'visit', 'scr_id', 'scr_smoker', 'scr_diet'],
      rows: [
        [2, ['S1', '', '', 'Baseline', 'S1', '0', '2']],
        [3, ['S2', '', '', 'Visit 1', 'S2', '1', '1|2']],
      ],
    })
  })

  it('names a checkbox cell that is neither Checked nor Unchecked, and refuses a label two fields share, in the user language', async () => {
    const csv = `Screening ID,Event Name,Diet (choice=Vegan),Date
S1,Baseline (Arm 1: Arm 1),yes,2024-01-01`
    expect((await labelled(csv)).problems).toEqual([
      '1 Date: Column Date could be several fields: scr_seen, scr_signed share this label. Export the records with variable names (CSV raw data), or give these fields distinct labels in REDCap',
      '2 Diet (choice=Vegan): A checkbox column of a labels export holds Checked or Unchecked (or the choice label), not yes',
    ])
    expect((await labelled(csv, 'zh')).problems[0]).toBe(
      '1 Date: 列 Date 无法确定是哪个字段：scr_seen, scr_signed 的标签相同。请改用变量名导出记录（CSV 原始数据），或在 REDCap 中让这些字段的标签各不相同',
    )
  })

  it('gives each mapped batch the origin of its cells: the file row, its column header and its text', async () => {
    const csv = `Screening ID,Event Name,Smoker,Diet (choice=Vegan),Diet (choice=Keto)
S1,Baseline (Arm 1: Arm 1),No,Unchecked,Unchecked
S2,Visit 1 (Arm 1: Arm 1),Yes,Unchecked,Checked`
    const batches: SheetBatch[] = []
    for await (const b of redcapSheets([screening], visits, read(csv), { lang: 'en', problem: () => undefined })) batches.push(b)
    const origin = batches.find((b) => b.sheet === 'screening')!.origin!
    const at = (row: number, column: string, value: string) => origin({ sheet: 'screening', row, column, value })
    expect(at(3, 'scr_diet', '2')).toEqual({ sheet: '', row: 3, column: 'Diet (choice=Keto)', value: 'Checked' })
    expect(at(2, 'scr_diet', '')).toEqual({ sheet: '', row: 2, column: 'Diet (choice=Vegan)', value: 'Unchecked' })
    expect(at(2, 'scr_smoker', '0')).toEqual({ sheet: '', row: 2, column: 'Smoker', value: 'No' })
    expect(at(3, 'subject_id', 'S2')).toEqual({ sheet: '', row: 3, column: 'Screening ID', value: 'S2' })
    expect(at(3, 'visit', 'Visit 1')).toEqual({ sheet: '', row: 3, column: 'Event Name', value: 'Visit 1 (Arm 1: Arm 1)' })
    expect(at(3, 'center', '')).toEqual({ sheet: '', row: 3, column: 'center', value: '' })
  })

  it('is told by its own columns, checkbox columns, or a first column and another that are field labels', () => {
    expect(isRedcapRecordHeader(['Record ID', 'Event Name', 'Date of birth'])).toBe(true)
    expect(isRedcapRecordHeader(['Record ID', 'Diet (choice=Vegan)'])).toBe(true)
    expect(isRedcapRecordHeader(['Screening ID', 'Smoker'])).toBe(false)
    expect(isRedcapRecordHeader(['Screening ID', 'Smoker'], [screening])).toBe(true)
  })
})
