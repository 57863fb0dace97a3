/**
 * The save of one 50-field form (issue 10, Tests and bench), as a ratio to its raw inserts
 * measured in the same run on the same database.
 *
 * A temp SQLite file (WAL, as in production) gets all migrations, the reference data, a user, 50
 * indicators (integers with a range, decimals, single choices, dates, text) on one published CRF
 * pinned by an active project, and enrolled subjects. Then, alternating within every run:
 *   - api: POST saveOneFormInfo by app.inject on the real app: session, guard, scope lookup of the
 *          subject, the version, every value validated by the shared rules, the dependent-field
 *          rule, the subject lock, the record, one audit row per field, the subject summary;
 *   - raw: the same rows written straight through a better-sqlite3 connection with prepared
 *          statements in one transaction: the record, its 51 audit rows, the summary;
 *   - floor: an authenticated call that reads nothing (studyObjectButtonAuthority): what every
 *          request costs before any route's work (session, actor, guard, envelope), so the part
 *          of a save that is the save itself reads as (api - floor) / raw.
 * Each save is the first save of a fresh subject, so both write the same rows. A warm-up run is
 * discarded; each figure is the median over the runs of the mean time per save.
 *
 * Run alone with `npx tsx bench/formSave.ts [--saves N] [--runs N]`, or as part of `npm run bench`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import SQLite from 'better-sqlite3'
import { superRoleKey } from '../contract/permissions.ts'
import { buildApp } from '../server/app.ts'
import { connect } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { findBuiltinRole } from '../server/db/repositories/roles.ts'
import { insertUserWithAccount } from '../server/db/repositories/users.ts'
import { hashPassword } from '../server/services/passwordHash.ts'
import { seedReferenceData } from '../server/services/seed.ts'
import { call, type Api } from './dataStudy.ts'

export interface FormSaveBenchOptions {
  /** A directory this bench may write its database into; removed by the caller. */
  dir: string
  saves?: number
  runs?: number
  log?: (line: string) => void
}

export interface FormSaveBenchFigures {
  fields: number
  saves: number
  runs: number
  apiMs: number
  rawMs: number
  floorMs: number
  auditRowsPerSave: number
  apiOverRaw: number
  /** The save's own work (api minus the per-request floor) over the raw inserts. */
  saveOverRaw: number
}

const fieldCount = 50

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** The 50 fields: five kinds, ten of each, and a value of each kind that the rules accept. */
function fieldSpec(i: number) {
  const code = `FS_${i}`
  switch (i % 5) {
    case 0:
      return {
        input: { code, nameZh: `整数${i}`, type: 'blank', display: 'input', dataType: 'integer', minimum: 0, maximum: 200 },
        value: String(i),
      }
    case 1:
      return { input: { code, nameZh: `小数${i}`, type: 'blank', display: 'input', dataType: 'decimal' }, value: `${i}.5` }
    case 2:
      return {
        input: {
          code,
          nameZh: `单选${i}`,
          type: 'single',
          display: 'radio',
          options: [
            { code: '1', labelZh: '是', labelEn: 'Yes' },
            { code: '2', labelZh: '否', labelEn: 'No' },
          ],
        },
        value: '1',
      }
    case 3:
      return { input: { code, nameZh: `日期${i}`, type: 'date', display: 'input', dateFormat: 'YYYY-MM-DD' }, value: '2026-11-26' }
    default:
      return { input: { code, nameZh: `文本${i}`, type: 'blank', display: 'input' }, value: `text ${i}` }
  }
}

export async function runFormSaveBench(opts: FormSaveBenchOptions): Promise<FormSaveBenchFigures> {
  const saves = opts.saves ?? 100
  const runs = opts.runs ?? 5
  const log = opts.log ?? (() => {})
  const dbFile = path.join(opts.dir, 'form-save-bench.db')
  const db = connect(`sqlite:${dbFile}`)
  await migrateToLatest(db)
  await seedReferenceData(db.kysely, new Date())
  const app = await buildApp({ db, staticRoot: null })
  const raw = new SQLite(dbFile)
  raw.pragma('journal_mode = WAL')
  try {
    const userId = (
      await insertUserWithAccount(db.kysely, {
        name: 'Entry',
        username: 'entry',
        passwordHash: await hashPassword('Entry2024'),
        roleIds: [(await findBuiltinRole(db.kysely, superRoleKey))!.id],
        now: new Date().toISOString(),
      })
    ).userId
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: 'entry', password: 'Entry2024', platform: 'bench' },
    })
    const token = (signIn.json() as { data?: { token?: string } }).data?.token
    if (!token) throw new Error(`sign-in failed: ${signIn.body}`)
    const api: Api = { app, token }

    log(`setting up ${fieldCount} fields, a published CRF, an active project and ${(runs + 1) * saves * 2 + 1} subjects…`)
    const specs = Array.from({ length: fieldCount }, (_, i) => fieldSpec(i))
    const ids: number[] = []
    for (const s of specs) ids.push((await call<{ id: number }>(api, 'POST', 'api/dictionary/indicators', s.input)).id)
    const crf = await call<{ id: number }>(api, 'POST', 'api/templates', { kind: 'crf', name: 'Form save bench', collectType: 'object' })
    await call(api, 'PUT', `api/templates/${crf.id}/layout`, {
      sections: [{ key: 's1', title: '', repeating: false, items: ids.map((indicatorId) => ({ indicatorId, required: true })) }],
    })
    await call(api, 'POST', `api/scientific/form/saveCrfFormGenerateToDb?id=${crf.id}`)
    const versionId = (await call<{ id: number }>(api, 'GET', `api/templates/${crf.id}/versions/1`)).id
    const at = new Date().toISOString()
    const centerId = Number(
      raw
        .prepare(`insert into center (code, name_zh, name_en, region, created_at, updated_at) values ('FS', '基准中心', 'Bench', '', ?, ?)`)
        .run(at, at).lastInsertRowid,
    )
    const needed = (runs + 1) * saves * 2 + 1
    const project = await call<{ id: number; queues: { id: number }[] }>(api, 'POST', 'api/projects', {
      scope: 'multi',
      base: { type: 'prospective', name: '录入基准', number: 'FS-1', groupType: 'group', plannedQuantity: needed, plannedGroups: 2 },
      queues: [{ name: '队列', key: 'A' }],
      forms: [{ templateId: crf.id, versionId }],
      centerIds: [centerId],
    })
    // Passing a project is the auditor's step and not what is measured here.
    raw.prepare(`update project set status = 'active' where id = ?`).run(project.id)
    const queueId = project.queues[0]!.id
    const insertSubject = raw.prepare(
      `insert into subject (project_id, queue_id, center_id, subject_no, created_by, created_at, updated_at, status, enrolled_by, enrolled_at)
       values (?, ?, ?, ?, ?, ?, ?, 'enrolled', ?, ?)`,
    )
    const subjects = raw.transaction(() =>
      Array.from({ length: needed }, (_, i) =>
        Number(insertSubject.run(project.id, queueId, centerId, `FS-${i}`, userId, at, at, userId, at).lastInsertRowid),
      ),
    )()
    let next = 0
    const values = Object.fromEntries(ids.map((id, i) => [String(id), specs[i]!.value]))
    const summary = JSON.stringify(Object.fromEntries(ids.map((id, i) => [`f${id}`, specs[i]!.value])))

    const insertRecord = raw.prepare(
      `insert into form_record (project_id, subject_id, center_id, queue_id, template_id, version_id, slot, data, status, rev, created_by, created_at, updated_by, updated_at)
       values (?, ?, ?, ?, ?, ?, '', ?, 'saved', 1, ?, ?, ?, ?)`,
    )
    const insertAudit = raw.prepare(
      `insert into data_audit (at, user_id, username, ip, project_id, subject_id, record_id, template_id, version_id, field, action, old_value, new_value, reason)
       values (?, ?, 'entry', '127.0.0.1', ?, ?, ?, ?, ?, ?, 'create', null, ?, '')`,
    )
    const updateSummary = raw.prepare(`update subject set summary = ?, updated_at = ? where id = ?`)
    const rawSave = raw.transaction((subjectId: number) => {
      const now = new Date().toISOString()
      const data = JSON.stringify(values)
      const recordId = Number(
        insertRecord.run(project.id, subjectId, centerId, queueId, crf.id, versionId, data, userId, now, userId, now).lastInsertRowid,
      )
      insertAudit.run(now, userId, project.id, subjectId, recordId, crf.id, versionId, '', null)
      for (const [field, v] of Object.entries(values))
        insertAudit.run(now, userId, project.id, subjectId, recordId, crf.id, versionId, field, JSON.stringify(v))
      updateSummary.run(summary, now, subjectId)
    })

    const apiSave = (subjectId: number) =>
      call<{ changed: number }>(api, 'POST', 'api/scientific/form/saveOneFormInfo', {
        studyId: project.id,
        objectId: subjectId,
        templateId: crf.id,
        rev: 0,
        values,
      })
    const first = await apiSave(subjects[next++]!)
    if (first.changed !== fieldCount + 1) throw new Error(`a save wrote ${first.changed} audit rows, not ${fieldCount + 1}`)

    const apiRuns: number[] = []
    const rawRuns: number[] = []
    const floorRuns: number[] = []
    for (let run = 0; run <= runs; run++) {
      const t0 = performance.now()
      for (let i = 0; i < saves; i++) await apiSave(subjects[next++]!)
      const t1 = performance.now()
      for (let i = 0; i < saves; i++) rawSave(subjects[next++]!)
      const t2 = performance.now()
      for (let i = 0; i < saves; i++) await call(api, 'GET', 'api/scientific/studyObject/studyObjectButtonAuthority')
      const t3 = performance.now()
      // Run 0 warms up both paths.
      if (run > 0) {
        apiRuns.push((t1 - t0) / saves)
        rawRuns.push((t2 - t1) / saves)
        floorRuns.push((t3 - t2) / saves)
        log(
          `run ${run}: api ${((t1 - t0) / saves).toFixed(2)} ms, raw ${((t2 - t1) / saves).toFixed(2)} ms per save, floor ${((t3 - t2) / saves).toFixed(2)} ms`,
        )
      }
    }
    const apiMs = median(apiRuns)
    const rawMs = median(rawRuns)
    const floorMs = median(floorRuns)
    return {
      fields: fieldCount,
      saves,
      runs,
      apiMs,
      rawMs,
      floorMs,
      auditRowsPerSave: fieldCount + 1,
      apiOverRaw: apiMs / rawMs,
      saveOverRaw: Math.max(0, apiMs - floorMs) / rawMs,
    }
  } finally {
    raw.close()
    await app.close()
    await db.close()
  }
}

export function printFormSaveBench(f: FormSaveBenchFigures): void {
  console.log(
    `\n  save of one ${f.fields}-field form (first save: record + ${f.auditRowsPerSave} audit rows + summary): ` +
      `API ${f.apiMs.toFixed(2)} ms vs raw inserts ${f.rawMs.toFixed(2)} ms per save = ${f.apiOverRaw.toFixed(2)}×`,
  )
  console.log(
    `  an authenticated call that does nothing costs ${f.floorMs.toFixed(2)} ms; the save's own work over the raw inserts = ${f.saveOverRaw.toFixed(2)}×`,
  )
  console.log(
    `  (medians of ${f.runs} runs of ${f.saves} saves after a warm-up; SQLite file in WAL mode; API = POST saveOneFormInfo by app.inject)`,
  )
}

// Alone: `npx tsx bench/formSave.ts [--saves N] [--runs N]`.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { saves: { type: 'string', default: '100' }, runs: { type: 'string', default: '5' } } })
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-form-save-'))
  try {
    printFormSaveBench(
      await runFormSaveBench({ dir, saves: Number(values.saves), runs: Number(values.runs), log: (l) => console.log(`bench: ${l}`) }),
    )
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
