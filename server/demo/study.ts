import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { Layout, TemplateInput } from '../../contract/crf.ts'
import type { IndicatorInput } from '../../contract/dictionary.ts'
import { createDisease, createIndicator } from '../../contract/dictionaryEndpoints.ts'
import type { Endpoint } from '../../contract/endpoint.ts'
import { createCenter, createProject, passProject, submitProject } from '../../contract/projectEndpoints.ts'
import { enrolInput, type EnrolledSubject } from '../../contract/subjects.ts'
import { visitSlot } from '../../contract/followUp.ts'
import { createTemplate, getTemplate, publish, saveLayout } from '../../contract/templateEndpoints.ts'
import { createVisit } from '../../contract/followUp.ts'
import { createSample } from '../../contract/samples.ts'
import { generateAllocation, saveRandomization } from '../../contract/randomization.ts'
import type { Database } from '../db/database.ts'
import { toJson } from '../db/json.ts'
import { findProjectByNumber, insertDataAudit, insertFormRecords, insertFormRows, setSubjectSummary } from '../db/repositories/demo.ts'
import { findBuiltinRole } from '../db/repositories/roles.ts'
import { findAccountByUsername } from '../db/repositories/accounts.ts'
import { insertUserWithAccount } from '../db/repositories/users.ts'
import { actorOf, withMemberships } from '../services/actor.ts'
import { authenticate } from '../services/auth.ts'
import { enrolSubject } from '../services/enrolment.ts'
import { hashPassword } from '../services/passwordHash.ts'
import { authorize } from '../services/policy.ts'

/**
 * The demo study of `npm run demo` (issue 10 item 11): a fictional, clearly labelled multi-center
 * study for newcomers — 3 centers, 2 queues, 4 published CRFs (baseline, medical history with a
 * sub form, follow-up visits, biomaterial), 1,000 enrolled subjects with entered values, each
 * randomized at enrolment to treatment or control (blocks of 4 and 6, stratified by center and
 * sex), so the allocation list, the group column and its download show real work too.
 *
 * The set-up (indicators, CRFs, centers, the project and its audit, every enrolment) goes through
 * the API in-process, so it obeys every rule the app does and keeps whatever enrolment keeps
 * (numbers, counters, the audit log). The entered values are bulk-inserted in the stored layout
 * (contract/studyData.ts, server/db/tables/studyData.ts): one form_record per form instance with
 * its plain values as JSON, one form_row per sub-form row, subject.summary holding the non-visit,
 * non-sample forms' plain values keyed `f<indicatorId>`, and one data_audit row ('import', naming
 * no field, as an upload writes it) per record written. The follow-up CRF is entered per visit of a three-visit schedule (slots
 * `v<visitId>`), and every fourth subject has a serum sample, registered through the API, whose
 * biomaterial CRF is entered (slot `s<sampleId>`).
 */

export const demoNumber = 'DEMO-2026'
export const demoUsername = 'demo'
const defaultSubjects = 1000

export interface DemoResult {
  projectId: number
  subjects: number
  records: number
  rows: number
}

/** Deterministic pseudo-random numbers, so two demo databases hold the same values. */
function randomFrom(seed: number) {
  let s = seed >>> 0
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  }
}

const day = 24 * 60 * 60 * 1000
const isoDate = (d: Date) => d.toISOString().slice(0, 10)

type Inject = <I, O>(endpoint: Endpoint<I, O>, input: I) => Promise<O>

function caller(app: FastifyInstance, token: string): Inject {
  return async (endpoint, input) => {
    const req = endpoint.request(endpoint.input.parse(input))
    const query = new URLSearchParams()
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) query.set(k, String(v))
    const qs = query.toString()
    const res = await app.inject({
      method: endpoint.method,
      url: `/${req.path}${qs ? `?${qs}` : ''}`,
      payload: req.body as object | undefined,
      headers: { 'kr-d-token': token, 'accept-language': 'en' },
    })
    const body = z.object({ code: z.number(), msg: z.string(), data: z.unknown().optional() }).parse(res.json())
    if (body.code !== 0) throw new Error(`demo: ${endpoint.method} ${req.path} refused: ${body.msg}`)
    return endpoint.output.parse(body.data)
  }
}

async function signIn(app: FastifyInstance, username: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username, password, platform: 'web' } })
  const token = z.object({ data: z.object({ token: z.string() }) }).safeParse(res.json())
  if (!token.success) throw new Error(`demo: the account "${username}" cannot sign in (${res.body}); set DEMO_PASSWORD to its password`)
  return token.data.data.token
}

/** The demo login: a research administrator, so it may set up, approve and see the whole study. */
async function ensureDemoUser(db: Kysely<Database>, password: string, now: Date): Promise<number> {
  const found = await findAccountByUsername(db, demoUsername)
  if (found) return found.user_id
  const passwordHash = await hashPassword(password)
  return db.transaction().execute(async (trx) => {
    const role = await findBuiltinRole(trx, 'researchAdmin')
    if (!role) throw new Error('demo: the built-in roles are missing; start the server once first')
    const { userId } = await insertUserWithAccount(trx, {
      name: '示范用户 Demo user',
      username: demoUsername,
      passwordHash,
      roleIds: [role.id],
      now: now.toISOString(),
    })
    return userId
  })
}

const yesNo = [
  { code: '1', labelZh: '是', labelEn: 'Yes' },
  { code: '0', labelZh: '否', labelEn: 'No' },
]
const field = (code: string, nameZh: string, nameEn: string, diseaseId: number, rest: Partial<IndicatorInput>): IndicatorInput => ({
  code: `demo_${code}`,
  nameZh,
  nameEn,
  comment: '示范数据（虚构） Demo data (fictional)',
  type: 'blank',
  display: 'input',
  dataType: 'text',
  options: [],
  dependentFieldId: null,
  dependentValue: null,
  unit: '',
  minimum: null,
  maximum: null,
  dateFormat: null,
  defaultValue: null,
  status: 1,
  indexClass: 'Demo',
  category: 'all',
  diseaseId,
  ...rest,
})

/**
 * Fills the database behind `app` with the demo study, or answers null when it is there already
 * (the project numbered DEMO-2026). `clock` is the app's clock: enrolments are spread over the
 * past year by moving it.
 */
export async function createDemoStudy(
  app: FastifyInstance,
  db: Kysely<Database>,
  opts: {
    password: string
    clock: { set(at: Date | null): void }
    log?: (line: string) => void
    /** Fewer subjects than the demo's 1,000: tests build the same study small. */
    subjects?: number
    /** false: no randomization plan, for tests whose own enrolments give no stratification answers. */
    randomized?: boolean
  },
): Promise<DemoResult | null> {
  const log = opts.log ?? (() => undefined)
  const subjectsWanted = opts.subjects ?? defaultSubjects
  const randomized = opts.randomized ?? true
  if (await findProjectByNumber(db, demoNumber)) return null
  const started = new Date()
  const userId = await ensureDemoUser(db, opts.password, started)
  const token = await signIn(app, demoUsername, opts.password)
  const call = caller(app, token)
  const rnd = randomFrom(2026)

  log('Dictionary fields and CRFs…')
  // The study's own disease, so that the disease index, the project's card and its fields say what it studies.
  const disease = await call(createDisease, { name: '示范：高血压（虚构）', nameEn: 'Hypertension (demo, fictional)', icon: 'heart' })
  const f = async (code: string, nameZh: string, nameEn: string, rest: Partial<IndicatorInput> = {}) =>
    (await call(createIndicator, field(code, nameZh, nameEn, disease.id, rest))).id
  const sex = await f('sex', '性别', 'Sex', {
    type: 'single',
    display: 'radio',
    options: [
      { code: '1', labelZh: '男', labelEn: 'Male' },
      { code: '2', labelZh: '女', labelEn: 'Female' },
    ],
  })
  const age = await f('age', '年龄', 'Age', { dataType: 'integer', unit: '岁', minimum: 18, maximum: 90 })
  const height = await f('height', '身高', 'Height', { dataType: 'decimal', unit: 'cm', minimum: 140, maximum: 200 })
  const weight = await f('weight', '体重', 'Weight', { dataType: 'decimal', unit: 'kg', minimum: 35, maximum: 150 })
  const smoker = await f('smoker', '吸烟', 'Smoker', { type: 'single', display: 'radio', options: yesNo })
  const diagnosed = await f('diagnosed', '确诊日期', 'Date of diagnosis', { type: 'date', display: 'input', dateFormat: 'YYYY-MM-DD' })
  const allergy = await f('allergy', '药物过敏史', 'Drug allergy', { type: 'single', display: 'radio', options: yesNo })
  const condition = await f('condition', '既往疾病', 'Past condition', {})
  const onset = await f('onset', '起病年份', 'Year of onset', { type: 'date', display: 'input', dateFormat: 'YYYY' })
  const sbp = await f('sbp', '收缩压', 'Systolic pressure', { dataType: 'integer', unit: 'mmHg', minimum: 70, maximum: 220 })
  const dbp = await f('dbp', '舒张压', 'Diastolic pressure', { dataType: 'integer', unit: 'mmHg', minimum: 40, maximum: 140 })
  const adverse = await f('adverse', '不良事件', 'Adverse event', { type: 'single', display: 'radio', options: yesNo })
  const tube = await f('tube', '采血管', 'Tube', {
    type: 'single',
    display: 'select',
    options: [
      { code: 'edta', labelZh: 'EDTA 抗凝管', labelEn: 'EDTA' },
      { code: 'serum', labelZh: '血清管', labelEn: 'Serum' },
    ],
  })
  const volume = await f('volume', '采样量', 'Volume', { dataType: 'decimal', unit: 'ml', minimum: 0, maximum: 50 })

  const crf = async (name: string, collectType: TemplateInput['collectType'], sections: Layout['sections'], preposeIds: number[] = []) => {
    const t = await call(createTemplate, {
      kind: 'crf',
      name,
      description: '示范数据（虚构） Demo (fictional)',
      collectType,
      preposeIds,
      status: 1,
    })
    await call(saveLayout, { id: t.id, layout: { sections } })
    await call(publish, { kind: 'crf', id: t.id })
    const published = (await call(getTemplate, { id: t.id })).published
    if (!published) throw new Error(`demo: ${name} was not published`)
    return { templateId: t.id, versionId: published.id }
  }
  const item = (indicatorId: number, required = false) => ({ indicatorId, required })
  const baseline = await crf('示范·基线 Demo baseline', 'object', [
    {
      key: 'base',
      title: '基线 Baseline',
      repeating: false,
      items: [item(sex, true), item(age, true), item(height), item(weight), item(smoker), item(diagnosed)],
    },
  ])
  const history = await crf(
    '示范·病史 Demo history',
    'object',
    [
      { key: 'main', title: '过敏 Allergy', repeating: false, items: [item(allergy)] },
      { key: 'past', title: '既往疾病 Past conditions', repeating: true, items: [item(condition, true), item(onset)] },
    ],
    [baseline.templateId],
  )
  const followUp = await crf('示范·随访 Demo follow-up', 'followUp', [
    { key: 'visit', title: '随访 Visit', repeating: false, items: [item(sbp), item(dbp), item(adverse)] },
  ])
  const sample = await crf('示范·生物样本 Demo biomaterial', 'biomaterial', [
    { key: 'tube', title: '样本 Sample', repeating: false, items: [item(tube), item(volume)] },
  ])

  log('Centers and the project…')
  const centers = [
    { code: 'DBJ', nameZh: '示范北京医院（虚构）', nameEn: 'Demo Beijing Hospital (fictional)', region: '北京' },
    { code: 'DSH', nameZh: '示范上海医院（虚构）', nameEn: 'Demo Shanghai Hospital (fictional)', region: '上海' },
    { code: 'DGZ', nameZh: '示范广州医院（虚构）', nameEn: 'Demo Guangzhou Hospital (fictional)', region: '广东' },
  ]
  const centerIds: number[] = []
  for (const c of centers) centerIds.push((await call(createCenter, c)).id)
  const project = await call(createProject, {
    scope: 'multi',
    base: {
      type: 'prospective',
      name: '示范研究（虚构数据）Demo study — fictional data',
      number: demoNumber,
      testStage: null,
      groupNumber: '',
      manageBiomaterial: true,
      groupType: 'group',
      diseaseId: disease.id,
      blinded: 'open',
      randomMethod: randomized ? 'stratified' : 'none',
      plannedQuantity: 1200,
      plannedGroups: 2,
      therapyTime: '12 周 / 12 weeks',
      followUpTime: '12 个月 / 12 months',
    },
    queues: [
      {
        name: '新确诊队列 Newly diagnosed (demo)',
        key: 'A',
        entryCondition: '年龄 18–90 岁 Age 18–90\n签署知情同意书 Informed consent signed',
        excludeCondition: '妊娠 Pregnancy',
      },
      { name: '复发队列 Relapsed (demo)', key: 'B', entryCondition: '年龄 18–90 岁 Age 18–90', excludeCondition: '' },
    ],
    forms: [baseline, history, followUp, sample].map(({ templateId, versionId }) => ({ templateId, versionId })),
    centerIds,
  })
  await call(submitProject, { id: project.id })
  await call(passProject, { id: project.id })
  if (randomized) {
    log('Randomization plan and allocation list…')
    const plan = {
      method: 'stratified' as const,
      groups: [
        { code: 'T', name: '试验组 Treatment', ratio: 1 },
        { code: 'C', name: '对照组 Control', ratio: 1 },
      ],
      blockSizes: [4, 6],
      strataByCenter: true,
      factorIds: [sex],
      seed: 'DEMO-2026',
      listSize: null,
    }
    await call(saveRandomization, { id: project.id, plan })
    await call(generateAllocation, { id: project.id })
  }
  log('Visit schedule…')
  let visitIds: number[] = []
  for (const n of [1, 2, 3]) {
    const visit = {
      name: `V${n} · ${n * 3} 个月 / month ${n * 3}`,
      dayOffset: n * 90,
      windowBefore: 14,
      windowAfter: 14,
      templateIds: [followUp.templateId],
    }
    visitIds = (await call(createVisit, { id: project.id, visit })).visits.map((v) => v.id)
  }

  log(`Enrolling ${subjectsWanted} subjects…`)
  const queueIds = project.queues.map((q) => q.id)
  // The enrolment service itself, as the route would call it after the guard's decision: the
  // thousand enrolments take seconds instead of the tens of seconds of as many requests.
  const actor = await withMemberships(db, await actorOf(db, await authenticate(app.ctx, token)))
  authorize(actor, 'subject.enrol', { type: 'subject', id: project.id })
  const who = { userId, username: demoUsername, ip: '' }
  const enrolled: { subject: EnrolledSubject; at: Date; sex: string }[] = []
  const yearAgo = started.getTime() - 365 * day
  for (let i = 0; i < subjectsWanted; i++) {
    // In order over the past year, so progress over time shows a curve.
    const at = new Date(yearAgo + Math.floor(((i + rnd.next()) / subjectsWanted) * 360 * day))
    opts.clock.set(at)
    const queue = queueIds[i % queueIds.length]!
    const first = queue === queueIds[0]
    // Drawn now: the sex is the plan's stratification answer, and the baseline then records it.
    const subjectSex = rnd.pick(['1', '2'])
    const input = enrolInput.parse({
      queueId: queue,
      centerId: rnd.pick(centerIds),
      checklist: { inclusion: first ? [true, true] : [true], exclusion: first ? [false] : [] },
      ...(randomized ? { factors: [{ indicatorId: sex, code: subjectSex }] } : {}),
    })
    enrolled.push({ subject: await enrolSubject(app.ctx, actor, who, project.id, input), at, sex: subjectSex })
  }
  opts.clock.set(null)

  log('Samples…')
  const samples = new Map<number, number>()
  for (const [i, { subject, at }] of enrolled.entries()) {
    if (i % 4 !== 0) continue
    const sample = {
      subjectId: subject.id,
      type: 'serum' as const,
      collectedAt: isoDate(at),
      quantity: 2,
      unit: 'mL' as const,
      freezer: 'F1',
      rack: `R${1 + Math.floor(i / 100)}`,
      box: `B${1 + (Math.floor(i / 4) % 25)}`,
      position: String(1 + (i % 81)),
      sampleNo: '',
      remarks: '示范样本（虚构） Demo sample (fictional)',
    }
    samples.set(subject.id, (await call(createSample, { studyId: project.id, sample })).id)
  }

  log('Entered values…')
  const result = await db.transaction().execute(async (trx) => {
    type Planned = {
      subjectId: number
      centerId: number
      queueId: number
      form: typeof baseline
      slot: string
      visitId?: number
      sampleId?: number
      data: Record<string, string>
      at: string
      rows?: Record<string, string>[]
    }
    const planned: Planned[] = []
    for (const { subject, at, sex: subjectSex } of enrolled) {
      const when = (days: number) => new Date(at.getTime() + days * day).toISOString()
      const common = { subjectId: subject.id, centerId: subject.centerId, queueId: subject.queueId }
      const base = {
        [sex]: subjectSex,
        [age]: String(rnd.int(18, 90)),
        [height]: (150 + rnd.next() * 40).toFixed(1),
        [weight]: (45 + rnd.next() * 55).toFixed(1),
        [smoker]: rnd.pick(['0', '0', '1']),
        [diagnosed]: isoDate(new Date(at.getTime() - rnd.int(10, 900) * day)),
      }
      planned.push({ ...common, form: baseline, slot: '', data: base, at: when(0) })
      if (rnd.next() < 0.7) {
        const rows = Array.from({ length: rnd.int(0, 3) }, () => ({
          [condition]: rnd.pick(['高血压 Hypertension', '2 型糖尿病 Type 2 diabetes', '哮喘 Asthma', '高脂血症 Hyperlipidaemia']),
          [onset]: String(rnd.int(1990, 2025)),
        }))
        planned.push({ ...common, form: history, slot: '', data: { [allergy]: rnd.pick(['0', '0', '0', '1']) }, at: when(1), rows })
      }
      const visitsDue = Math.min(3, Math.floor((started.getTime() - at.getTime()) / (90 * day)))
      for (let v = 1; v <= visitsDue; v++) {
        if (rnd.next() < 0.1) continue
        const data = { [sbp]: String(rnd.int(100, 165)), [dbp]: String(rnd.int(60, 100)), [adverse]: rnd.pick(['0', '0', '0', '0', '1']) }
        const visitId = visitIds[v - 1]!
        planned.push({ ...common, form: followUp, slot: visitSlot(visitId), visitId, data, at: when(v * 90) })
      }
      const sampleId = samples.get(subject.id)
      if (sampleId !== undefined) {
        const data = { [tube]: 'serum', [volume]: (1 + rnd.next() * 4).toFixed(1) }
        planned.push({ ...common, form: sample, slot: `s${sampleId}`, sampleId, data, at: when(0) })
      }
    }
    const recordIds = await insertFormRecords(
      trx,
      planned.map((p) => ({
        project_id: project.id,
        subject_id: p.subjectId,
        center_id: p.centerId,
        queue_id: p.queueId,
        template_id: p.form.templateId,
        version_id: p.form.versionId,
        slot: p.slot,
        visit_id: p.visitId ?? null,
        sample_id: p.sampleId ?? null,
        data: toJson(p.data),
        status: 'saved',
        rev: 1,
        created_by: userId,
        created_at: p.at,
        updated_by: userId,
        updated_at: p.at,
        signed_by: null,
        signed_at: null,
      })),
    )
    const rows = planned.flatMap((p, i) =>
      (p.rows ?? []).map((data, sort) => ({
        record_id: recordIds[i]!,
        section_key: 'past',
        sort,
        data: toJson(data),
        rev: 1,
        created_by: userId,
        created_at: p.at,
        updated_by: userId,
        updated_at: p.at,
      })),
    )
    await insertFormRows(trx, rows)
    // In the order they were entered, as saves append them: the trail reads in time order.
    await insertDataAudit(
      trx,
      planned
        .map((p, i) => ({
          at: p.at,
          user_id: userId,
          username: demoUsername,
          ip: '',
          project_id: project.id,
          subject_id: p.subjectId,
          record_id: recordIds[i]!,
          row_id: null,
          template_id: p.form.templateId,
          version_id: p.form.versionId,
          section_key: null,
          field: '',
          action: 'import',
          // A record's creation names no field, as an upload's does: its values are the record's own.
          old_value: null,
          new_value: null,
          reason: 'npm run demo',
          upload_id: null,
        }))
        .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)),
    )
    // The list's columns: the latest plain values of the single-instance forms; and the subject's
    // last change, its latest record's, as a save sets it.
    const summaries = new Map<number, Record<string, string>>()
    const latest = new Map<number, string>()
    for (const p of planned) {
      if (p.at > (latest.get(p.subjectId) ?? '')) latest.set(p.subjectId, p.at)
      if (p.slot !== '') continue
      const s = summaries.get(p.subjectId) ?? {}
      for (const [k, v] of Object.entries(p.data)) s[`f${k}`] = v
      summaries.set(p.subjectId, s)
    }
    for (const [subjectId, at] of latest) await setSubjectSummary(trx, subjectId, summaries.get(subjectId) ?? {}, at)
    return { records: planned.length, rows: rows.length }
  })
  return { projectId: project.id, subjects: enrolled.length, ...result }
}
