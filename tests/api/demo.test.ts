import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { connect } from '../../server/db/connect.ts'
import { fromJson } from '../../server/db/json.ts'
import { createDemoStudy, demoNumber, type DemoResult } from '../../server/demo/study.ts'
import { seedAccessData } from '../../server/services/accessSeed.ts'
import { seedReferenceData } from '../../server/services/seed.ts'
import { freshDb } from '../support/testDb.ts'

/**
 * The demo study (issue 10 item 11): on a fresh database of this run (api-sqlite or api-postgres)
 * it enrols 1,000 subjects over 3 centers and 2 queues with entered values in the stored layout,
 * the API then answers them, and a second run changes nothing; on SQLite, `npm run demo`'s own
 * script against a temp data directory.
 */

const password = 'Demo2026test'
let db: Awaited<ReturnType<typeof freshDb>>
let app: Awaited<ReturnType<typeof buildApp>>
let clock: Date | null = null
let result: DemoResult | null

beforeAll(async () => {
  db = await freshDb()
  await seedReferenceData(db.kysely, new Date())
  await seedAccessData(db.kysely, new Date())
  app = await buildApp({ db, now: () => clock ?? new Date() })
  await app.ready()
  result = await createDemoStudy(app, db.kysely, { password, clock: { set: (at) => (clock = at) } })
}, 120_000)
afterAll(async () => {
  await app.close()
  await db.drop()
})

const count = async (table: 'subject' | 'form_record' | 'form_row' | 'data_audit' | 'project' | 'sample') =>
  Number(
    (
      await db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

describe('the demo study', () => {
  it('enrols 1,000 subjects over 3 centers and 2 queues, and the API answers them to the demo login', async () => {
    expect(result).toMatchObject({ subjects: 1000 })
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: 'demo', password, platform: 'web' },
    })
    const token = (signIn.json() as { data: { token: string } }).data.token
    const res = await app.inject({ method: 'GET', url: `/api/projects/${result!.projectId}`, headers: { 'kr-d-token': token } })
    expect(res.statusCode, res.body).toBe(200)
    const project = (
      res.json() as { data: { number: string; status: string; subjectCount: number; name: string; diseaseId: number | null } }
    ).data
    expect(project).toMatchObject({
      number: demoNumber,
      status: 'active',
      subjectCount: 1000,
      diseaseName: '示范：高血压（虚构）',
      diseaseNameEn: 'Hypertension (demo, fictional)',
    })
    expect(project.name).toMatch(/fictional/)
    // The disease holds the study's fields: the disease index counts them.
    const diseases = await app.inject({ method: 'GET', url: '/api/dictionary/diseases', headers: { 'kr-d-token': token } })
    const own = (diseases.json() as { data: { id: number; fieldCount: number }[] }).data.find((d) => d.id === project.diseaseId)
    expect(own?.fieldCount).toBeGreaterThanOrEqual(14)
    const spread = await db.kysely
      .selectFrom('subject')
      .select(['center_id', 'queue_id'])
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .groupBy(['center_id', 'queue_id'])
      .execute()
    expect(spread).toHaveLength(6)
    for (const cell of spread) expect(Number(cell.n)).toBeGreaterThan(100)
  })

  it('stores values as the entry screens do: records pinned to published versions, sub-form rows, summaries, trail rows', async () => {
    expect(await count('form_record')).toBe(result!.records)
    expect(await count('form_row')).toBe(result!.rows)
    expect(result!.rows).toBeGreaterThan(0)
    const pinned = await db.kysely
      .selectFrom('form_record as r')
      .innerJoin('project_form as f', (j) => j.onRef('f.project_id', '=', 'r.project_id').onRef('f.template_id', '=', 'r.template_id'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .whereRef('f.version_id', '=', 'r.version_id')
      .executeTakeFirstOrThrow()
    expect(Number(pinned.n)).toBe(result!.records)
    // Follow-up forms sit in the slots of the schedule's visits, sample forms in those of the subject's samples.
    const visits = await db.kysely.selectFrom('visit').select('id').where('project_id', '=', result!.projectId).execute()
    expect(visits).toHaveLength(3)
    const slots = await db.kysely.selectFrom('form_record').select(['slot', 'visit_id', 'sample_id']).distinct().execute()
    const visitSlots = slots.filter((r) => r.slot.startsWith('v'))
    expect(visitSlots.map((r) => r.slot).sort()).toEqual(visits.map((v) => `v${v.id}`).sort())
    for (const r of visitSlots) expect(r.slot).toBe(`v${r.visit_id}`)
    const unmatched = await db.kysely
      .selectFrom('form_record as r')
      .leftJoin('sample as x', (j) => j.onRef('x.id', '=', 'r.sample_id').onRef('x.subject_id', '=', 'r.subject_id'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('r.slot', 'like', 's%')
      .where('x.id', 'is', null)
      .executeTakeFirstOrThrow()
    expect(Number(unmatched.n)).toBe(0)
    expect(await count('sample')).toBe(250)
    expect(slots.filter((r) => r.slot.startsWith('s'))).toHaveLength(250)
    expect(slots.every((r) => r.slot === '' || /^[vs]\d+$/.test(r.slot))).toBe(true)
    const one = await db.kysely.selectFrom('subject').select('summary').orderBy('id').executeTakeFirstOrThrow()
    const summary = fromJson<Record<string, string>>(one.summary)
    expect(Object.keys(summary).length).toBeGreaterThanOrEqual(6)
    for (const [k, v] of Object.entries(summary)) {
      expect(k).toMatch(/^f\d+$/)
      expect(typeof v).toBe('string')
    }
    // The list's "updated" is each subject's latest record, as saves set it; not its enrolment.
    const stale = await db.kysely
      .selectFrom('subject as s')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) =>
        eb(
          's.updated_at',
          '<>',
          eb
            .selectFrom('form_record as r')
            .select((f) => f.fn.max('r.updated_at').as('m'))
            .whereRef('r.subject_id', '=', 's.id'),
        ),
      )
      .executeTakeFirstOrThrow()
    expect(Number(stale.n)).toBe(0)
    // The trail was appended in the order the values were entered, as saves append it.
    const times = (await db.kysely.selectFrom('data_audit').select('at').orderBy('id').execute()).map((r) => r.at)
    expect(times).toEqual([...times].sort())
    const trail = await db.kysely.selectFrom('data_audit').select(['action', 'reason']).distinct().execute()
    expect(trail).toEqual([{ action: 'import', reason: 'npm run demo' }])
    expect(await count('data_audit')).toBe(result!.records)
  })

  it('a demo subject opens as the detail screen reads it: its forms, their values and its audit trail', async () => {
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: 'demo', password, platform: 'web' },
    })
    const headers = { 'kr-d-token': (signIn.json() as { data: { token: string } }).data.token }
    const studyId = String(result!.projectId)
    const subject = await db.kysely
      .selectFrom('subject')
      .select('id')
      .where('project_id', '=', result!.projectId)
      .orderBy('id')
      .executeTakeFirstOrThrow()
    const objectId = String(subject.id)
    const records = await db.kysely
      .selectFrom('form_record')
      .select(['id', 'template_id'])
      .where('subject_id', '=', subject.id)
      .orderBy('id')
      .execute()
    expect(records.length).toBeGreaterThan(0)
    for (const r of records) {
      const query = { studyId, objectId, templateId: String(r.template_id), recordId: String(r.id) }
      const form = await app.inject({ method: 'GET', url: '/api/scientific/form/getOneFormInfo', query, headers })
      expect(form.statusCode, form.body).toBe(200)
      expect(Object.keys((form.json() as { data: { values: object } }).data.values).length).toBeGreaterThan(0)
    }
    const trail = await app.inject({ method: 'GET', url: `/api/projects/${studyId}/subjects/${objectId}/history`, headers })
    expect(trail.statusCode, trail.body).toBe(200)
    const entries = (trail.json() as { data: { entries: { action: string; recordId: number | null; formName: string }[] } }).data.entries
    expect(entries.every((e) => e.formName.includes('Demo'))).toBe(true)
    expect(
      entries
        .filter((e) => e.action === 'import')
        .map((e) => e.recordId)
        .sort(),
    ).toEqual(records.map((r) => r.id).sort())
    const first = records[0]!.id
    const one = await app.inject({
      method: 'GET',
      url: `/api/projects/${studyId}/subjects/${objectId}/history`,
      query: { recordId: String(first) },
      headers,
    })
    expect(one.statusCode, one.body).toBe(200)
    // A demo value's field history opens on the import that gave it, with that value.
    const stored = await db.kysely.selectFrom('form_record').select('data').where('id', '=', first).executeTakeFirstOrThrow()
    const [field, value] = Object.entries(fromJson<Record<string, unknown>>(stored.data)).find(
      ([, v]) => typeof v === 'string' && v !== '',
    )!
    const fieldTrail = await app.inject({
      method: 'GET',
      url: `/api/projects/${studyId}/subjects/${objectId}/history`,
      query: { recordId: String(first), field },
      headers,
    })
    expect(fieldTrail.statusCode, fieldTrail.body).toBe(200)
    const fieldEntries = (fieldTrail.json() as { data: { entries: { action: string; field: number; newValue: unknown }[] } }).data.entries
    expect(fieldEntries).toEqual([expect.objectContaining({ action: 'import', field: Number(field), newValue: value })])
  })

  it('randomizes every subject at enrolment, stratified by center and sex, and the baseline records the sex it was stratified by', async () => {
    const projectId = result!.projectId
    const k = db.kysely
    const sexId = (await k.selectFrom('indicator').select('id').where('code', '=', 'demo_sex').executeTakeFirstOrThrow()).id
    const groups = await k.selectFrom('project_group').select(['id', 'code']).where('project_id', '=', projectId).orderBy('sort').execute()
    expect(groups.map((g) => g.code)).toEqual(['T', 'C'])
    const taken = await k
      .selectFrom('allocation as a')
      .innerJoin('subject as s', 's.id', 'a.subject_id')
      .select(['a.stratum', 'a.group_id', 's.group_id as subject_group', 's.center_id', 's.summary'])
      .where('a.project_id', '=', projectId)
      .execute()
    // Each subject holds one entry of the list, and its group is that entry's.
    expect(taken).toHaveLength(1000)
    for (const t of taken) expect(t.subject_group).toBe(t.group_id)
    const arms = new Map<string, { T: number; C: number }>()
    for (const t of taken) {
      const sex = fromJson<Record<string, string>>(t.summary)[`f${sexId}`]
      // The stratum is the subject's center and the sex its baseline records.
      expect(t.stratum).toBe(`c${t.center_id}|demo_sex=${sex}`)
      const cell = arms.get(t.stratum) ?? { T: 0, C: 0 }
      cell[t.group_id === groups[0]!.id ? 'T' : 'C']++
      arms.set(t.stratum, cell)
    }
    // Three centers by two sexes; blocks of 4 and 6 keep the arms within 3 of each other in each.
    expect(arms.size).toBe(6)
    for (const cell of arms.values()) expect(Math.abs(cell.T - cell.C)).toBeLessThanOrEqual(3)
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: 'demo', password, platform: 'web' },
    })
    const headers = { 'kr-d-token': (signIn.json() as { data: { token: string } }).data.token }
    const plan = await app.inject({ method: 'GET', url: `/api/projects/${projectId}/randomization`, headers })
    expect(plan.statusCode, plan.body).toBe(200)
    expect((plan.json() as { data: { method: string; access: string } }).data).toMatchObject({ method: 'stratified', access: 'full' })
  })

  it('runs once: a second run changes nothing', async () => {
    const before = await Promise.all([count('subject'), count('form_record'), count('project')])
    expect(await createDemoStudy(app, db.kysely, { password, clock: { set: (at) => (clock = at) } })).toBeNull()
    expect(await Promise.all([count('subject'), count('form_record'), count('project')])).toEqual(before)
  })
})

describe.runIf(process.env.TEST_DB !== 'postgres')('npm run demo', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-'))
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('refuses a DEMO_PASSWORD the password rule refuses, before it touches anything', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-bad-'))
    try {
      const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/demo/main.ts'], {
        env: { ...process.env, DATA_DIR: empty, DATABASE_URL: '', DEMO_PASSWORD: 'Demo2026!x' },
      })
      await expect(run).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('DEMO_PASSWORD must be at least 6 letters and digits'),
      })
      expect(fs.readdirSync(empty)).toEqual([])
    } finally {
      fs.rmSync(empty, { recursive: true, force: true })
    }
  }, 60_000)

  it('fills the configured SQLite database, then refuses to do it twice', async () => {
    const run = () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/demo/main.ts'], {
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', DEMO_PASSWORD: password, ADMIN_PASSWORD: 'Admin2026pass' },
      })
    const first = await run()
    expect(first.stdout).toMatch(/1000 subjects/)
    // Run before the first `npm start`, it still leaves the administrator's account.
    expect(first.stdout).toContain('First start: account "admin" created with ADMIN_PASSWORD.')
    expect((await run()).stdout).toMatch(/already in this database: nothing changed/)
    const file = connect(`sqlite:${path.join(dir, 'clinical.db')}`)
    try {
      const n = await file.kysely
        .selectFrom('subject')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
      expect(Number(n.n)).toBe(1000)
      const admin = await file.kysely.selectFrom('account').select('username').where('username', '=', 'admin').executeTakeFirst()
      expect(admin).toEqual({ username: 'admin' })
    } finally {
      await file.close()
    }
  }, 120_000)
})
