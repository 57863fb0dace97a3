import type { VisitPlan } from '../../contract/followUp.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { templatePaths, type Template, type TemplateVersion } from '../../contract/crf.ts'
import { dictionaryPaths, type Indicator } from '../../contract/dictionary.ts'
import type { ProjectDetail } from '../../contract/projects.ts'
import type {
  DisplayForm,
  FormInstance,
  FormSaved,
  FormTree,
  HistoryPage,
  FormRowData,
  RecordHead,
  RowDeleted,
  RowSaved,
  SaveConflict,
  SaveInvalid,
  Unblinded,
} from '../../contract/studyData.ts'
import { studyDataPaths } from '../../contract/studyData.ts'
import type { EnrolledSubject } from '../../contract/subjects.ts'
import { subjectListPaths, type ViewInfo } from '../../contract/subjectList.ts'
import { apiCalls, type Method, type Payload } from '../support/apiCalls.ts'
import { addProjectMember, userSwitch } from '../support/projectMembers.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/**
 * Issue 10 items 3–6, server side: a subject's forms, entry validated by the shared rules, the
 * dependent-field rule, rev conflicts, the reason and editData rules, per-field audit rows
 * (append-only), sub-form rows, delete and sign, history, the header and emergency unblinding;
 * and every call refused for a subject of another center. On the database of this run.
 */

let t: TestApp
const tokens: Record<string, string> = {}
const userIds: Record<string, number> = {}
const { current, by } = userSwitch('admin')
const { call, json, data } = apiCalls(
  () => t,
  () => tokens[current()]!,
  '/',
)
const get = (path: string, query: Record<string, string | number>, lang?: 'zh' | 'en') =>
  call('GET', `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`, undefined, lang)
const post = (path: string, body?: Payload, lang?: 'zh' | 'en', method: Method = 'POST') => call(method, path, body, lang)

let centers: number[] = []
let project: ProjectDetail
const f: Record<string, Indicator> = {}
let baseline: Template
let followUp: Template
let symptoms: Template
let sA: EnrolledSubject
let sB: EnrolledSubject
const visitIds: number[] = []
const key = (name: string) => String(f[name]!.id)

const coded = (...labels: string[]) => labels.map((l, i) => ({ code: String(i + 1), labelZh: l, labelEn: `${l} (en)` }))
async function crf(
  name: string,
  collectType: string,
  sections: { key: string; repeating?: boolean; items: [string, boolean][] }[],
  preposeIds: number[] = [],
) {
  const tpl = data<Template>(await post(templatePaths.list, { kind: 'crf', name, collectType, preposeIds }))
  const layout = {
    sections: sections.map((s) => ({
      key: s.key,
      title: s.key,
      repeating: s.repeating ?? false,
      items: s.items.map(([n, required]) => ({ indicatorId: f[n]!.id, required })),
    })),
  }
  data(await call('PUT', templatePaths.layout(tpl.id), layout))
  data(await post(`${templatePaths.publishCrf}?id=${tpl.id}`))
  return tpl
}

beforeAll(async () => {
  t = await testApp()
  userIds.admin = await t.createUser('admin', 'Research1')
  for (const u of ['ra', 'auditor', 'entryA', 'editor', 'otherB', 'reader'])
    userIds[u] = await t.createUser(u, 'Research1', { roles: ['researchAdmin'] })
  for (const u of ['admin', 'ra', 'auditor', 'entryA', 'editor', 'otherB', 'reader']) tokens[u] = await t.signIn(u, 'Research1')
  const at = new Date().toISOString()
  centers = (
    await t.db.kysely
      .insertInto('center')
      .values(['CA', 'CB'].map((code) => ({ code, name_zh: `中心${code}`, name_en: `Center ${code}`, created_at: at, updated_at: at })))
      .returning('id')
      .execute()
  ).map((r) => r.id)

  const indicator = async (name: string, p: Payload) =>
    (f[name] = data<Indicator>(await post(dictionaryPaths.indicators, { code: `SD_${name}`, nameZh: name, nameEn: name, ...p })))
  await indicator('AGE', { type: 'blank', display: 'input', dataType: 'integer', minimum: 0, maximum: 120 })
  await indicator('SEX', { type: 'single', display: 'radio', options: coded('男', '女') })
  await indicator('NOTE', { type: 'blank', display: 'input', dependentFieldId: f.SEX!.id, dependentValue: '1' })
  await indicator('DRUG', { type: 'blank', display: 'input' })
  await indicator('DOSE', { type: 'blank', display: 'input', dataType: 'decimal' })
  await indicator('WEIGHT', { type: 'blank', display: 'input', dataType: 'decimal' })
  await indicator('SYM', { type: 'multiple', display: 'checkbox', options: coded('咳嗽', '发热', '乏力') })
  baseline = await crf('基线', 'object', [
    {
      key: 's1',
      items: [
        ['AGE', true],
        ['SEX', false],
        ['NOTE', false],
      ],
    },
    {
      key: 'meds',
      repeating: true,
      items: [
        ['DRUG', true],
        ['DOSE', false],
      ],
    },
  ])
  followUp = await crf('随访', 'followUp', [{ key: 'v', items: [['WEIGHT', false]] }], [baseline.id])
  symptoms = await crf('症状', 'interview', [{ key: 's', items: [['SYM', false]] }])
  const versionOf = async (tpl: Template) => data<TemplateVersion>(await call('GET', templatePaths.version(tpl.id, 1))).id

  project = await by('ra', async () =>
    data<ProjectDetail>(
      await post('api/projects', {
        scope: 'multi',
        base: { type: 'prospective', name: '录入研究', number: 'SD-1', groupType: 'group', plannedQuantity: 50, plannedGroups: 2 },
        queues: [{ name: '队列甲', key: 'A' }],
        // The follow-up form first: the detail still shows the baseline before it (its prepose).
        forms: [
          { templateId: followUp.id, versionId: await versionOf(followUp) },
          { templateId: baseline.id, versionId: await versionOf(baseline) },
          { templateId: symptoms.id, versionId: await versionOf(symptoms) },
        ],
        centerIds: centers,
      }),
    ),
  )
  await by('ra', async () => data(await post(`api/projects/${project.id}/submit`)))
  await by('auditor', async () => data(await post(`api/projects/${project.id}/pass`)))
  for (const [name, dayOffset] of [['V1', 30] as const, ['V2', 90] as const]) {
    const visit = { name, dayOffset, windowBefore: 3, windowAfter: 7, templateIds: [followUp.id] }
    const plan = data<VisitPlan>(await by('ra', () => post(`api/projects/${project.id}/visits`, visit)))
    visitIds.push(plan.visits.find((v) => v.name === name)!.id)
  }
  await addProjectMember(t, project.id, userIds.entryA!, { authorities: ['enterData'], centers: [centers[0]!] })
  await addProjectMember(t, project.id, userIds.editor!, {
    authorities: ['enterData', 'editData', 'delete', 'sign', 'unblind'],
    blinded: true,
  })
  await addProjectMember(t, project.id, userIds.otherB!, {
    authorities: ['enterData', 'editData', 'delete', 'sign', 'unblind'],
    centers: [centers[1]!],
  })
  await addProjectMember(t, project.id, userIds.reader!, { authorities: [] })
  const enrol = async (centerId: number) =>
    by('ra', async () =>
      data<EnrolledSubject>(
        await post(`api/projects/${project.id}/subjects`, {
          queueId: project.queues[0]!.id,
          centerId,
          checklist: { inclusion: [], exclusion: [] },
        }),
      ),
    )
  sA = await enrol(centers[0]!)
  sB = await enrol(centers[1]!)
  // Sets up a dictionary, two published CRFs and a passed project through the API: slow on a busy shared database.
}, 60_000)
afterAll(() => t.close())

const ref = () => ({ studyId: project.id, objectId: sA.id })

async function counts() {
  const n = async (table: 'form_record' | 'form_row' | 'data_audit') =>
    Number(
      (
        await t.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const s = await t.db.kysely.selectFrom('subject').select(['summary', 'updated_at']).where('id', '=', sA.id).executeTakeFirstOrThrow()
  return { records: await n('form_record'), rows: await n('form_row'), audit: await n('data_audit'), summary: JSON.stringify(s.summary) }
}

async function refused(res: Promise<LightMyRequestResponse>, status: number, text?: string) {
  const r = await res
  expect(r.statusCode, r.body).toBe(status)
  if (text) expect(json(r).msg).toContain(text)
  return json(r)
}

const form = (over: Payload = {}) =>
  by('entryA', async () => data<FormInstance>(await get(studyDataPaths.form, { ...ref(), templateId: baseline.id, ...over })))
const save = (body: Payload, user = 'entryA', lang?: 'zh' | 'en') =>
  by(user, () => post(studyDataPaths.saveForm, { ...ref(), templateId: baseline.id, ...body }, lang))

describe('the forms of a subject', () => {
  it('display forms default to project order with prepose forms first; a saved choice is kept per user', async () => {
    const forms = await by('entryA', async () => data<DisplayForm[]>(await get(studyDataPaths.displayForms, { studyId: project.id })))
    expect(forms.map((x) => [x.templateId, x.shown, x.preposeIds])).toEqual([
      [baseline.id, true, []],
      [followUp.id, true, [baseline.id]],
      [symptoms.id, true, []],
    ])
    data(
      await by('reader', () =>
        post(studyDataPaths.saveDisplayForms, { studyId: project.id, forms: [{ templateId: followUp.id, shown: false }] }),
      ),
    )
    const mine = await by('reader', async () => data<DisplayForm[]>(await get(studyDataPaths.displayForms, { studyId: project.id })))
    expect(mine.map((x) => [x.templateId, x.shown])).toEqual([
      [followUp.id, false],
      [baseline.id, true],
      [symptoms.id, true],
    ])
    await refused(
      by('reader', () =>
        post(studyDataPaths.saveDisplayForms, { studyId: project.id, forms: [{ templateId: 999999, shown: true }] }, 'en'),
      ),
      400,
      'does not collect template 999999',
    )
  })

  it('the tree puts prepose forms first and says what a form waits for; a new instance reads the pinned version', async () => {
    const tree = await by('entryA', async () => data<FormTree>(await get(studyDataPaths.formTree, ref())))
    expect(tree.nodes.map((n) => [n.templateId, n.mode, n.waitingFor, n.records.length])).toEqual([
      [baseline.id, 'single', [], 0],
      [followUp.id, 'visit', [baseline.id], 0],
      [symptoms.id, 'single', [], 0],
    ])
    const fresh = await form()
    expect(fresh.record).toBeNull()
    expect(fresh.version.templateId).toBe(baseline.id)
    expect(fresh.version.indicators.map((i) => i.code)).toEqual(['SD_AGE', 'SD_SEX', 'SD_NOTE', 'SD_DRUG', 'SD_DOSE'])
  })
})

describe('saveOneFormInfo', () => {
  let record: RecordHead

  it('refuses invalid values with the field’s message, in the caller’s language, writing nothing', async () => {
    const before = await counts()
    let b = await refused(save({ rev: 0, values: { [key('AGE')]: 'abc' } }, 'entryA', 'en'), 400, 'AGE: Please enter an integer')
    expect((b.data as SaveInvalid).errors).toEqual({ [`f:${key('AGE')}`]: { key: 'validatorMsg.integer', params: [] } })
    await refused(save({ rev: 0, values: { [key('AGE')]: '130' } }, 'entryA', 'zh'), 400, 'AGE：请输入0到120之间的值')
    await refused(save({ rev: 0, values: {} }, 'entryA', 'zh'), 400, '请输入AGE')
    await refused(save({ rev: 0, values: { [key('AGE')]: '30', [key('SEX')]: '9' } }, 'entryA', 'en'), 400, '"9" is not an option of SEX')
    b = await refused(
      save({ rev: 0, values: { [key('AGE')]: '30' }, rows: { meds: [{ values: { [key('DOSE')]: '1' } }] } }, 'entryA', 'en'),
      400,
      'meds row 1, DRUG: Please input DRUG',
    )
    // A pasted control character: kept, the value could never be downloaded as xlsx or ODM.
    for (const note of ['ctl\u0001A', 'B\ufffe', 'lone \ud800'])
      await refused(
        save({ rev: 0, values: { [key('AGE')]: '30', [key('SEX')]: '1', [key('NOTE')]: note } }, 'entryA', 'en'),
        400,
        'NOTE: Contains a control character that cannot be kept (often from a paste); remove it and try again',
      )
    await refused(save({ rev: 0, values: { [key('WEIGHT')]: '3' } }, 'entryA', 'en'), 400, `Field ${key('WEIGHT')} is not on version 1`)
    // On the version, but in another part of the form than the one it is sent under.
    await refused(
      save({ rev: 0, values: { [key('AGE')]: '30', [key('DRUG')]: 'x' } }, 'entryA', 'en'),
      400,
      'Field "DRUG" belongs to sub form "meds", so it cannot be saved under the form itself (outside its sub forms)',
    )
    await refused(
      save({ rev: 0, values: { [key('AGE')]: '30', [key('DRUG')]: 'x' } }, 'entryA', 'zh'),
      400,
      '字段“DRUG”属于子表单“meds”，不能保存在表单主体（子表单以外）中',
    )
    const ageInRow = { rev: 0, values: { [key('AGE')]: '30' }, rows: { meds: [{ values: { [key('DRUG')]: 'x', [key('AGE')]: '3' } }] } }
    await refused(
      save(ageInRow, 'entryA', 'en'),
      400,
      'Field "AGE" belongs to the form itself (outside its sub forms), so it cannot be saved under sub form "meds"',
    )
    await refused(save(ageInRow, 'entryA', 'zh'), 400, '字段“AGE”属于表单主体（子表单以外），不能保存在子表单“meds”中')
    await refused(save({ rev: 0, values: {}, rows: { v: [] } }, 'entryA', 'en'), 400, 'Sub form v is not on version 1')
    await refused(save({ rev: 0, values: { [key('AGE')]: 1 } }, 'entryA', 'en'), 400)
    await refused(
      save({ rev: 0, values: { [key('AGE')]: '3', [key('SEX')]: ['1', '2'] } }, 'entryA', 'en'),
      400,
      'The value of SEX has the wrong type',
    )
    await refused(save({ rev: 0, slot: 'v3', values: { [key('AGE')]: '3' } }, 'entryA', 'en'), 400, 'Instance "v3" does not fit')
    // A form collected once has one instance: a second one would hide behind the first in lists and exports.
    await refused(save({ rev: 0, slot: '#1', values: { [key('AGE')]: '3' } }, 'entryA', 'en'), 400, 'Instance "#1" does not fit')
    expect(await counts()).toEqual(before)
  })

  it('a first save writes the record, its rows, one audit row per field and the subject summary', async () => {
    const before = await counts()
    const saved = data<FormSaved>(
      await save({
        rev: 0,
        values: { [key('AGE')]: '30', [key('SEX')]: '1', [key('NOTE')]: 'n1' },
        rows: { meds: [{ values: { [key('DRUG')]: 'aspirin', [key('DOSE')]: '5' } }] },
      }),
    )
    record = saved.record
    expect(record).toMatchObject({ templateId: baseline.id, slot: '', status: 'saved', rev: 1, updatedBy: 'entryA' })
    expect(saved.changed).toBe(7)
    const after = await counts()
    expect([after.records - before.records, after.rows - before.rows, after.audit - before.audit]).toEqual([1, 1, 7])
    const trail = await t.db.kysely.selectFrom('data_audit').selectAll().where('record_id', '=', record.id).orderBy('id').execute()
    expect(trail.map((r) => [r.action, r.field, r.old_value, r.new_value, r.username, r.section_key])).toEqual([
      ['create', '', null, null, 'entryA', null],
      ['create', key('AGE'), null, '"30"', 'entryA', null],
      ['create', key('SEX'), null, '"1"', 'entryA', null],
      ['create', key('NOTE'), null, '"n1"', 'entryA', null],
      ['rowAdd', '', null, null, 'entryA', 'meds'],
      ['create', key('DRUG'), null, '"aspirin"', 'entryA', 'meds'],
      ['create', key('DOSE'), null, '"5"', 'entryA', 'meds'],
    ])
    expect(trail[0]!.ip).not.toBe('')
    expect(JSON.parse(after.summary.startsWith('"') ? (JSON.parse(after.summary) as string) : after.summary)).toEqual({
      [`f${key('AGE')}`]: '30',
      [`f${key('SEX')}`]: '1',
      [`f${key('NOTE')}`]: 'n1',
    })
    const read = await form({ recordId: record.id })
    expect(read.values).toEqual({ [key('AGE')]: '30', [key('SEX')]: '1', [key('NOTE')]: 'n1' })
    expect(read.rows.meds?.map((r) => r.values)).toEqual([{ [key('DRUG')]: 'aspirin', [key('DOSE')]: '5' }])
  })

  it('a changed saved value needs editData (403) and a reason (400); nothing is written', async () => {
    const before = await counts()
    const change = { recordId: record.id, rev: record.rev, values: { [key('AGE')]: '31', [key('SEX')]: '1', [key('NOTE')]: 'n1' } }
    await refused(save(change, 'entryA', 'en'), 403, 'You may not change data that has been saved')
    await refused(save(change, 'editor', 'en'), 400, 'A reason is required')
    await refused(save({ ...change, reason: '   ' }, 'editor', 'zh'), 400, '必须填写原因')
    expect(await counts()).toEqual(before)
    // Adding a value where there was none is not a change of saved data.
    const rows = (await form({ recordId: record.id })).rows.meds!
    const added = data<FormSaved>(
      await save({
        ...change,
        values: { ...change.values, [key('AGE')]: '30' },
        rows: { meds: [...rows.map((r) => ({ id: r.id, rev: r.rev, values: r.values })), { values: { [key('DRUG')]: 'ibuprofen' } }] },
      }),
    )
    expect(added.changed).toBe(2)
    expect(added.record.rev).toBe(2)
    record = added.record
  })

  it('with a reason the change is saved; a field the answer hides is cleared, each in its own audit row', async () => {
    const saved = data<FormSaved>(
      await save(
        {
          recordId: record.id,
          rev: record.rev,
          values: { [key('AGE')]: '32', [key('SEX')]: '2', [key('NOTE')]: 'n1' },
          reason: '录入错误',
        },
        'editor',
      ),
    )
    expect(saved.changed).toBe(3)
    record = saved.record
    const read = await form({ recordId: record.id })
    expect(read.values).toEqual({ [key('AGE')]: '32', [key('SEX')]: '2' })
    const trail = await t.db.kysely
      .selectFrom('data_audit')
      .selectAll()
      .where('record_id', '=', record.id)
      .orderBy('id', 'desc')
      .limit(3)
      .execute()
    expect(trail.reverse().map((r) => [r.action, r.field, r.old_value, r.new_value, r.reason, r.username])).toEqual([
      ['update', key('AGE'), '"30"', '"32"', '录入错误', 'editor'],
      ['update', key('SEX'), '"1"', '"2"', '录入错误', 'editor'],
      ['clear', key('NOTE'), '"n1"', null, '录入错误', 'editor'],
    ])
    const summary = await t.db.kysely.selectFrom('subject').select('summary').where('id', '=', sA.id).executeTakeFirstOrThrow()
    const parsed = (typeof summary.summary === 'string' ? JSON.parse(summary.summary) : summary.summary) as Record<string, string>
    expect(parsed).toEqual({ [`f${key('AGE')}`]: '32', [`f${key('SEX')}`]: '2' })
  })

  it('two concurrent saves from one rev: one is saved, the other told 409 with the current values', async () => {
    const body = (age: string) => ({ recordId: record.id, rev: record.rev, values: { [key('AGE')]: age, [key('SEX')]: '2' }, reason: 'r' })
    const [a, b] = await Promise.all([save(body('40'), 'editor', 'en'), save(body('41'), 'editor', 'en')])
    const results = [a, b].map((r) => r.statusCode).sort()
    expect(results).toEqual([200, 409])
    const lost = [a, b].find((r) => r.statusCode === 409)!
    const winner = [a, b].find((r) => r.statusCode === 200)!
    expect(json(lost).msg).toContain('Someone else saved this form')
    const current = (json(lost).data as SaveConflict).current
    expect(current.record?.rev).toBe(record.rev + 1)
    expect(current.values[key('AGE')]).toBe(winner === a ? '40' : '41')
    expect(current.rows.meds).toHaveLength(2)
    record = current.record!
    // A stale rev later is told the same way, nothing written.
    const before = await counts()
    const stale = await refused(save({ ...body('50'), rev: record.rev - 1 }, 'editor'), 409)
    expect((stale.data as SaveConflict).kind).toBe('conflict')
    // A first save of a slot already saved is stale too.
    await refused(save({ rev: 0, values: { [key('AGE')]: '9' } }, 'editor'), 409)
    expect(await counts()).toEqual(before)
  })

  it('a sub-form row of another record is refused; a deleted saved row needs a reason', async () => {
    const read = await form({ recordId: record.id })
    const rows = read.rows.meds!
    const before = await counts()
    await refused(
      save(
        { recordId: record.id, rev: record.rev, values: read.values, rows: { meds: [{ id: 999999, rev: 1, values: {} }] } },
        'editor',
        'en',
      ),
      400,
      'Row 999999 is not a row of sub form meds',
    )
    await refused(
      save(
        { recordId: record.id, rev: record.rev, values: read.values, rows: { meds: [{ id: rows[0]!.id, values: rows[0]!.values }] } },
        'editor',
        'en',
      ),
      400,
      'needs the rev',
    )
    await refused(
      save({ recordId: record.id, rev: record.rev, values: read.values, rows: { meds: [rows[0]!] } }, 'editor', 'en'),
      400,
      'A reason is required',
    )
    expect(await counts()).toEqual(before)
    const saved = data<FormSaved>(
      await save({ recordId: record.id, rev: record.rev, values: read.values, rows: { meds: [rows[0]!] }, reason: '重复录入' }, 'editor'),
    )
    expect(saved.rows.meds).toEqual([{ id: rows[0]!.id, rev: rows[0]!.rev }])
    const trail = await t.db.kysely.selectFrom('data_audit').selectAll().where('row_id', '=', rows[1]!.id).orderBy('id').execute()
    expect(trail.map((r) => [r.action, r.field, r.old_value, r.reason]).slice(-2)).toEqual([
      ['rowDelete', '', null, '重复录入'],
      ['clear', key('DRUG'), '"ibuprofen"', '重复录入'],
    ])
    record = saved.record
    // The subject's whole trail says which row each entry is of: the row left is the first, the other is gone.
    const whole = await by('reader', async () => data<HistoryPage>(await get(studyDataPaths.history(project.id, sA.id), { limit: 200 })))
    const places = new Map<number, Set<number | null>>()
    for (const e of whole.entries.filter((e) => e.rowId !== null)) places.set(e.rowId!, (places.get(e.rowId!) ?? new Set()).add(e.rowNo))
    expect(places.get(rows[0]!.id)).toEqual(new Set([1]))
    expect(places.get(rows[1]!.id)).toEqual(new Set([null]))
    expect(whole.entries.filter((e) => e.rowId === null).every((e) => e.rowNo === null)).toBe(true)
  })
})

describe('rows, sign, delete and history', () => {
  /** A new meds row saved alone, by the editor, from the form's rev in `from`. */
  const addRow = (from: RecordHead, drug: string) =>
    by('editor', () =>
      post(studyDataPaths.saveRow, {
        ...ref(),
        recordId: from.id,
        recordRev: from.rev,
        sectionKey: 'meds',
        row: { values: { [key('DRUG')]: drug } },
      }),
    )

  it('saveOneRowInfo adds and changes a row; deleteOneRowInfo needs a reason', async () => {
    let head = (await form()).record!
    const recordId = head.id
    const rowCall = (path: string, body: Payload, lang?: 'zh' | 'en') =>
      by('editor', () => post(path, { ...ref(), recordId, recordRev: head.rev, ...body }, lang))
    const added = data<RowSaved>(await rowCall(studyDataPaths.saveRow, { sectionKey: 'meds', row: { values: { [key('DRUG')]: 'x' } } }))
    expect(added.row.rev).toBe(1)
    expect(added.record.rev).toBe(head.rev + 1)
    head = added.record
    await refused(
      rowCall(studyDataPaths.saveRow, { sectionKey: 'meds', row: { id: added.row.id, rev: 1, values: { [key('DRUG')]: '' } } }, 'en'),
      400,
      'meds row 2, DRUG: Please input DRUG',
    )
    await refused(
      rowCall(studyDataPaths.saveRow, { sectionKey: 'meds', row: { id: added.row.id, rev: 1, values: { [key('DRUG')]: 'y' } } }, 'en'),
      400,
      'A reason is required',
    )
    const beforeMisplaced = await counts()
    const misplaced = { sectionKey: 'meds', row: { values: { [key('DRUG')]: 'z', [key('AGE')]: '3' } } }
    await refused(
      rowCall(studyDataPaths.saveRow, misplaced, 'en'),
      400,
      'Field "AGE" belongs to the form itself (outside its sub forms), so it cannot be saved under sub form "meds"',
    )
    await refused(rowCall(studyDataPaths.saveRow, misplaced, 'zh'), 400, '字段“AGE”属于表单主体（子表单以外），不能保存在子表单“meds”中')
    expect(await counts()).toEqual(beforeMisplaced)
    const changed = data<RowSaved>(
      await rowCall(studyDataPaths.saveRow, {
        sectionKey: 'meds',
        row: { id: added.row.id, rev: 1, values: { [key('DRUG')]: 'y' } },
        reason: 'typo',
      }),
    )
    expect(changed.row).toEqual({ id: added.row.id, rev: 2 })
    expect(changed.record.rev).toBe(head.rev + 1)
    head = changed.record
    await refused(rowCall(studyDataPaths.deleteRow, { rowId: added.row.id, rev: 1, reason: 'x' }), 409)
    await refused(rowCall(studyDataPaths.deleteRow, { rowId: added.row.id, rev: 2 }, 'en'), 400, 'A reason is required')
    await refused(
      rowCall(studyDataPaths.deleteRow, { rowId: 999999, rev: 1, reason: 'x' }, 'en'),
      400,
      'Row 999999 is not a row of this form',
    )
    const deleted = data<RowDeleted>(await rowCall(studyDataPaths.deleteRow, { rowId: added.row.id, rev: 2, reason: 'dup' }))
    expect(deleted.record.rev).toBe(head.rev + 1)
    const read = await form()
    expect(read.rows.meds).toHaveLength(1)
    expect(read.record!.rev).toBe(deleted.record.rev)
  })

  it('a row save or delete from an old rev of its form is told 409 with the other save, nothing written', async () => {
    const seen = (await form()).record!
    // Someone else saves a row of the form after this user read it.
    const other = data<RowSaved>(await addRow(seen, 'other'))
    const before = await counts()
    const stale = { ...ref(), recordId: seen.id, recordRev: seen.rev }
    const lost = await refused(addRow(seen, 'z'), 409)
    const current = (lost.data as SaveConflict).current
    expect(current.record?.rev).toBe(other.record.rev)
    expect(current.rows.meds!.map((r) => r.values[key('DRUG')])).toContain('other')
    const row = (await form()).rows.meds![0]!
    await refused(
      by('editor', () => post(studyDataPaths.deleteRow, { ...stale, rowId: row.id, rev: row.rev, reason: 'x' })),
      409,
    )
    expect(await counts()).toEqual(before)
  })

  it('reordering saved rows is a change of saved data: editData and a reason; a rowOrder audit row, the next rev', async () => {
    const read = await form()
    const head = read.record!
    const added = data<RowSaved>(await addRow(head, 'second'))
    const [first, second, ...rest] = (await form()).rows.meds! as [FormRowData, FormRowData, ...FormRowData[]]
    const swap = { recordId: head.id, rev: added.record.rev, values: read.values, rows: { meds: [second, first, ...rest] } }
    const before = await counts()
    // The order of saved rows is saved data: one who may only enter data may not change it, and a reason is asked.
    await refused(save({ ...swap, reason: '顺序' }, 'entryA', 'en'), 403, 'You may not change data that has been saved')
    await refused(save(swap, 'editor', 'en'), 400, 'A reason is required')
    expect(await counts()).toEqual(before)
    const saved = data<FormSaved>(
      await save(
        { recordId: head.id, rev: added.record.rev, values: read.values, rows: { meds: [second, first, ...rest] }, reason: '顺序' },
        'editor',
      ),
    )
    expect(saved.changed).toBe(1)
    expect(saved.record.rev).toBe(added.record.rev + 1)
    const ids = [first, second, ...rest].map((r) => String(r.id))
    expect((await form()).rows.meds!.map((r) => String(r.id))).toEqual([ids[1], ids[0], ...ids.slice(2)])
    const [last] = await t.db.kysely
      .selectFrom('data_audit')
      .selectAll()
      .where('record_id', '=', head.id)
      .orderBy('id', 'desc')
      .limit(1)
      .execute()
    expect([last!.action, last!.section_key, last!.field, last!.old_value, last!.new_value, last!.reason, last!.username]).toEqual([
      'rowOrder',
      'meds',
      '',
      JSON.stringify(ids),
      JSON.stringify([ids[1], ids[0], ...ids.slice(2)]),
      '顺序',
      'editor',
    ])
  })

  it('the history of a sub-form field in one row has that row’s entries alone', async () => {
    const instance = await form()
    const recordId = instance.record!.id
    const [first, second] = instance.rows.meds!
    expect(second).toBeDefined()
    const historyOf = (rowId?: number) =>
      by('reader', async () =>
        data<HistoryPage>(
          await get(studyDataPaths.history(project.id, sA.id), {
            recordId,
            field: f.DRUG!.id,
            limit: 200,
            ...(rowId === undefined ? {} : { rowId }),
          }),
        ),
      )
    const rowsOf = (p: HistoryPage) => new Set(p.entries.map((e) => e.rowId))
    expect(rowsOf(await historyOf()).size).toBeGreaterThan(1)
    for (const row of [first!, second!]) {
      const own = await historyOf(row.id)
      expect(own.entries.length).toBeGreaterThan(0)
      expect(rowsOf(own)).toEqual(new Set([row.id]))
      // Its newest entry leaves the value the row holds.
      expect(own.entries[0]!.newValue).toEqual(row.values[key('DRUG')] ?? null)
    }
  })

  it('the history of a field, newest first, paged by keyset', async () => {
    const page = await by('reader', async () =>
      data<HistoryPage>(
        await get(studyDataPaths.history(project.id, sA.id), { recordId: (await form()).record!.id, field: f.AGE!.id, limit: 2 }),
      ),
    )
    expect(page.entries.map((e) => [e.action, e.oldValue, e.newValue])).toEqual([
      ['update', '32', expect.stringMatching(/^4[01]$/)],
      ['update', '30', '32'],
    ])
    expect(page.nextBefore).toBe(page.entries[1]!.id)
    const next = await by('reader', async () =>
      data<HistoryPage>(
        await get(studyDataPaths.history(project.id, sA.id), {
          recordId: (await form()).record!.id,
          field: f.AGE!.id,
          limit: 2,
          before: page.nextBefore!,
        }),
      ),
    )
    expect(next.entries.map((e) => [e.action, e.oldValue, e.newValue])).toEqual([['create', null, '30']])
    expect(next.nextBefore).toBeNull()
    const all = await by('reader', async () => data<HistoryPage>(await get(studyDataPaths.history(project.id, sA.id), { limit: 200 })))
    expect(all.entries.length).toBeGreaterThan(10)
    // Each entry names its CRF and field as the version it was saved against has them.
    expect(page.entries.map((e) => [e.formName, e.fieldNameZh, e.fieldNameEn])).toEqual([
      ['基线', 'AGE', 'AGE'],
      ['基线', 'AGE', 'AGE'],
    ])
    const named = (code: string) => all.entries.filter((e) => e.field === f[code]!.id)
    expect(named('DRUG').length).toBeGreaterThan(0)
    for (const e of named('DRUG')) expect([e.formName, e.fieldNameZh]).toEqual(['基线', 'DRUG'])
    for (const e of all.entries.filter((x) => x.field === null)) expect([e.fieldNameZh, e.fieldNameEn]).toEqual(['', ''])
    // A later rename in the dictionary leaves the history as the saved version asked it.
    await t.db.kysely
      .updateTable('indicator')
      .set({ name_zh: '年龄（改）', name_en: 'Age (renamed)' })
      .where('id', '=', f.AGE!.id)
      .execute()
    try {
      const again = await by('reader', async () =>
        data<HistoryPage>(
          await get(studyDataPaths.history(project.id, sA.id), { recordId: (await form()).record!.id, field: f.AGE!.id, limit: 2 }),
        ),
      )
      expect(again.entries.map((e) => [e.fieldNameZh, e.fieldNameEn])).toEqual([
        ['AGE', 'AGE'],
        ['AGE', 'AGE'],
      ])
    } finally {
      await t.db.kysely.updateTable('indicator').set({ name_zh: 'AGE', name_en: 'AGE' }).where('id', '=', f.AGE!.id).execute()
    }
  })

  it('the audit trail is append-only in the database', async () => {
    await expect(t.db.kysely.updateTable('data_audit').set({ reason: 'forged' }).execute()).rejects.toThrow(/append-only/)
    await expect(t.db.kysely.deleteFrom('data_audit').execute()).rejects.toThrow(/append-only/)
  })

  it('a signed form cannot be deleted; a stale sign is told; a delete needs a reason and is audited', async () => {
    const head = (await form()).record!
    await refused(
      by('editor', () => post(studyDataPaths.sign(project.id, head.id), { rev: head.rev + 5 })),
      409,
    )
    const signed = await by('editor', async () => data<RecordHead>(await post(studyDataPaths.sign(project.id, head.id), { rev: head.rev })))
    expect(signed).toMatchObject({ status: 'signed', rev: head.rev + 1 })
    await refused(
      by('editor', () => post(studyDataPaths.sign(project.id, head.id), { rev: signed.rev }, 'en')),
      409,
      'already signed',
    )
    const del = (q: Record<string, string | number>, lang?: 'zh' | 'en') =>
      by('editor', () =>
        post(
          `${studyDataPaths.deleteForm}?${new URLSearchParams(Object.entries({ ...ref(), ...q }).map(([k, v]) => [k, String(v)])).toString()}`,
          undefined,
          lang,
        ),
      )
    const before = await counts()
    await refused(del({ recordId: head.id, reason: 'x' }, 'en'), 409, 'The form is signed')
    expect(await counts()).toEqual(before)

    // Changing a signed form's values takes the signature off; then it can be deleted, with a reason.
    const read = await form()
    const resaved = data<FormSaved>(
      await save({ recordId: head.id, rev: signed.rev, values: { ...read.values, [key('AGE')]: '60' }, reason: 'r' }, 'editor'),
    )
    expect(resaved.record.status).toBe('saved')
    await refused(del({ recordId: head.id }, 'en'), 400, 'A reason is required')
    await refused(
      by('entryA', () => post(`${studyDataPaths.deleteForm}?studyId=${project.id}&objectId=${sA.id}&recordId=${head.id}&reason=x`)),
      403,
    )
    data(await del({ recordId: head.id, reason: '录错对象' }))
    const after = await counts()
    expect(after.records).toBe(before.records - 1)
    const trail = await t.db.kysely.selectFrom('data_audit').selectAll().where('record_id', '=', head.id).orderBy('id', 'desc').execute()
    expect(trail.filter((r) => r.action === 'formDelete')).toHaveLength(1)
    expect(trail.filter((r) => r.reason === '录错对象').length).toBeGreaterThanOrEqual(3)
    expect(JSON.stringify(after.summary)).not.toContain(`f${key('AGE')}`)
    expect((await form()).record).toBeNull()
  })

  it('a multiple choice is stored as its codes, joined with | in the summary, and audited as lists', async () => {
    const body = { templateId: symptoms.id, values: { [key('SYM')]: ['1', '3'] }, rev: 0 }
    await refused(save({ ...body, values: { [key('SYM')]: ['1', '7'] } }, 'entryA', 'en'), 400, '"7" is not an option of SYM')
    const saved = data<FormSaved>(await save(body))
    const summary = await t.db.kysely.selectFrom('subject').select('summary').where('id', '=', sA.id).executeTakeFirstOrThrow()
    const parsed = (typeof summary.summary === 'string' ? JSON.parse(summary.summary) : summary.summary) as Record<string, string>
    expect(parsed[`f${key('SYM')}`]).toBe('1|3')
    data(await save({ ...body, recordId: saved.record.id, rev: 1, values: { [key('SYM')]: ['2'] }, reason: '更正' }, 'editor'))
    const page = await by('reader', async () =>
      data<HistoryPage>(await get(studyDataPaths.history(project.id, sA.id), { recordId: saved.record.id, field: f.SYM!.id })),
    )
    expect(page.entries.map((e) => [e.action, e.oldValue, e.newValue, e.reason])).toEqual([
      ['update', ['1', '3'], ['2'], '更正'],
      ['create', null, ['1', '3'], ''],
    ])
  })

  it('a follow-up form is entered per visit slot and leaves the summary alone', async () => {
    const before = await counts()
    const body = { templateId: followUp.id, values: { [key('WEIGHT')]: '70.5' }, rev: 0 }
    await refused(save({ ...body, slot: '' }, 'entryA', 'en'), 400, 'Instance "" does not fit')
    await refused(save({ ...body, slot: 'v999999' }, 'entryA', 'en'), 400, 'Visit "v999999" is not in the project\'s schedule')
    expect(await counts()).toEqual(before)
    const v1 = `v${visitIds[0]}`
    const saved = data<FormSaved>(await save({ ...body, slot: v1 }))
    expect(saved.record).toMatchObject({ slot: v1, visitId: visitIds[0], sampleId: null })
    const list = await by('reader', async () =>
      data<RecordHead[]>(await get(studyDataPaths.formList, { ...ref(), templateId: followUp.id })),
    )
    expect(list.map((r) => r.slot)).toEqual([v1])
    expect((await counts()).summary).toBe(before.summary)
  })
})

describe('scope, closed projects, header and unblinding', () => {
  it('a subject of another center is refused on every call like an unknown one', async () => {
    const recordId = data<FormSaved>(await save({ templateId: followUp.id, values: {}, rev: 0, slot: `v${visitIds[1]}` })).record.id
    const q = { studyId: project.id, objectId: sA.id }
    const calls: (() => Promise<LightMyRequestResponse>)[] = [
      () => get(studyDataPaths.formTree, q, 'en'),
      () => get(studyDataPaths.formList, { ...q, templateId: followUp.id }, 'en'),
      () => get(studyDataPaths.form, { ...q, templateId: followUp.id, recordId }, 'en'),
      () => get(studyDataPaths.viewForm, { ...q, templateId: followUp.id, recordId }, 'en'),
      () => post(studyDataPaths.saveForm, { ...q, templateId: followUp.id, recordId, rev: 1, values: {} }, 'en'),
      () => post(studyDataPaths.saveRow, { ...q, recordId, recordRev: 1, sectionKey: 'meds', row: { values: {} } }, 'en'),
      () => post(studyDataPaths.deleteRow, { ...q, recordId, recordRev: 1, rowId: 1, rev: 1, reason: 'x' }, 'en'),
      () => post(`${studyDataPaths.deleteForm}?studyId=${project.id}&objectId=${sA.id}&recordId=${recordId}&reason=x`, undefined, 'en'),
      () => get(studyDataPaths.history(project.id, sA.id), {}, 'en'),
      () => get(subjectListPaths.viewInfo, q, 'en'),
      () => post(studyDataPaths.unblind(project.id, sA.id), { reason: 'x' }, 'en'),
    ]
    const before = await counts()
    for (const c of calls) await refused(by('otherB', c), 404, `Research object ${sA.id} does not exist`)
    // Signing names the record alone: it reads as an unknown record, its subject untold.
    await refused(
      by('otherB', () => post(studyDataPaths.sign(project.id, recordId), { rev: 1 }, 'en')),
      404,
      `Form record ${recordId} does not exist`,
    )
    expect(await counts()).toEqual(before)
    // And the same calls name nothing for an unknown subject.
    await refused(
      by('editor', () => get(studyDataPaths.formTree, { studyId: project.id, objectId: 999999 }, 'en')),
      404,
      'Research object 999999',
    )
    // otherB reaches their own center's subject.
    data(await by('otherB', () => get(studyDataPaths.formTree, { studyId: project.id, objectId: sB.id })))
  })

  it('the header shows no group to a blinded member; unblinding needs a reason and is logged', async () => {
    const group = await t.db.kysely
      .insertInto('project_group')
      .values({ project_id: project.id, code: 'T', name: '试验组', ratio: 1 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db.kysely.updateTable('subject').set({ group_id: group.id }).where('id', '=', sA.id).execute()
    const blind = await by('editor', async () => data<ViewInfo>(await get(subjectListPaths.viewInfo, ref(), 'en')))
    expect(blind).toMatchObject({
      id: sA.id,
      subjectNo: sA.subjectNo,
      centerName: 'Center CA',
      queueName: '队列甲',
      group: null,
      blinded: true,
      canUnblind: true,
    })
    const seeing = await by('ra', async () => data<ViewInfo>(await get(subjectListPaths.viewInfo, ref())))
    expect(seeing).toMatchObject({ group: '试验组', blinded: false, canUnblind: false, enrolledBy: 'ra', centerName: '中心CA' })
    // A blinded member who may not unblind is still told the group is hidden, not that there is none.
    const readerRole = t.db.kysely.updateTable('project_role').where('name', '=', `role of user ${userIds.reader}`)
    await readerRole.set({ blinded: 1 }).execute()
    const hidden = await by('reader', async () => data<ViewInfo>(await get(subjectListPaths.viewInfo, ref())))
    expect(hidden).toMatchObject({ group: null, blinded: true, canUnblind: false })
    await readerRole.set({ blinded: 0 }).execute()
    const unrandomized = await by('reader', async () =>
      data<ViewInfo>(await get(subjectListPaths.viewInfo, { studyId: project.id, objectId: sB.id })),
    )
    expect(unrandomized).toMatchObject({ group: null, blinded: false })
    const beforeBlank = await counts()
    // The reason is named as the user knows it, not as the contract spells it.
    for (const [reason, lang, msg] of [
      [' ', 'en', 'Please input reason'],
      [' ', 'zh', '请输入 原因'],
      ['x'.repeat(501), 'en', 'reason must be at most 500 characters'],
      ['x'.repeat(501), 'zh', '原因 长度不能超过 500 个字符'],
    ] as const) {
      const answer = await refused(
        by('editor', () => post(studyDataPaths.unblind(project.id, sA.id), { reason }, lang)),
        400,
      )
      expect(answer.msg).toBe(msg)
    }
    expect(await counts()).toEqual(beforeBlank)
    await refused(
      by('entryA', () => post(studyDataPaths.unblind(project.id, sA.id), { reason: 'x' }, 'en')),
      403,
    )
    const shown = await by('editor', async () =>
      data<Unblinded>(await post(studyDataPaths.unblind(project.id, sA.id), { reason: '严重不良事件' })),
    )
    expect(shown.group).toEqual({ code: 'T', name: '试验组' })
    const trail = await t.db.kysely
      .selectFrom('data_audit')
      .selectAll()
      .where('subject_id', '=', sA.id)
      .where('action', '=', 'unblind')
      .execute()
    expect(trail.map((r) => [r.username, r.reason, r.new_value])).toEqual([['editor', '严重不良事件', null]])
    const log = await t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', 'subject.unblind').execute()
    expect(log).toHaveLength(1)
    expect(log[0]!.detail).not.toContain('试验组')
    await refused(
      by('editor', () => post(studyDataPaths.unblind(project.id, sB.id), { reason: 'x' }, 'en')),
      409,
      'no randomized group',
    )
  })

  it('a closed project refuses every write, nothing written', async () => {
    await t.db.kysely.updateTable('project').set({ status: 'closed' }).where('id', '=', project.id).execute()
    const before = await counts()
    await refused(save({ rev: 0, values: { [key('AGE')]: '3' } }, 'editor', 'en'), 409, 'The project is closed')
    await refused(
      by('editor', () =>
        post(studyDataPaths.saveRow, { ...ref(), recordId: 1, recordRev: 1, sectionKey: 'meds', row: { values: {} } }, 'en'),
      ),
      409,
      'The project is closed',
    )
    const recordId = (await form({ templateId: symptoms.id })).record!.id
    await refused(
      by('editor', () => post(studyDataPaths.sign(project.id, recordId), { rev: 2 }, 'en')),
      409,
      'The project is closed',
    )
    await refused(
      by('editor', () =>
        post(`${studyDataPaths.deleteForm}?studyId=${project.id}&objectId=${sA.id}&recordId=${recordId}&reason=x`, undefined, 'en'),
      ),
      409,
      'The project is closed',
    )
    expect(await counts()).toEqual(before)
    // Reading stays possible.
    data(await by('reader', () => get(studyDataPaths.formTree, ref())))
    await t.db.kysely.updateTable('project').set({ status: 'active' }).where('id', '=', project.id).execute()
  })
})
