/**
 * Importing a data upload (issue 11): a file's bytes sent to uploadFile through app.inject on a
 * temp SQLite database holding the demo study and as many subjects as the file names, checked
 * and written in one transaction. Answers the time of the upload call and the peak RSS of the
 * process (getrusage maxrss: run it in a fresh process for a figure of its own).
 *
 * Setup (not measured): all migrations, the demo study (small), then `subjects` subjects
 * numbered by `subjectNo(i)` inserted straight in multi-row statements.
 *
 * Run alone: `npx tsx bench/dataImport.ts [--rows N]` uploads a CSV of the demo baseline CRF
 * (sex, age, height, weight, smoker, diagnosed) for N new subjects.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { parse } from 'csv-parse/sync'
import { buildApp } from '../server/app.ts'
import { connect } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { createDemoStudy, demoUsername } from '../server/demo/study.ts'
import { seedAccessData } from '../server/services/accessSeed.ts'
import { seedReferenceData } from '../server/services/seed.ts'
import { multipart } from '../tests/support/multipart.ts'

export interface ImportBenchOptions {
  /** A temp directory of its own (the database and DATA_DIR). */
  dir: string
  fileName: string
  bytes: Buffer
  /** Subjects to create before the upload, numbered subjectNo(0..subjects-1). */
  subjects: number
  subjectNo: (i: number) => string
  /** The CRF the file is for (a CSV); by default the demo baseline. */
  templateName?: string
}

export interface ImportBenchResult {
  ms: number
  peakRssMb: number
  status: number
  outcome: string
  created: number
}

const password = 'Bench-2026-import'

export async function importOnce(o: ImportBenchOptions): Promise<ImportBenchResult> {
  const db = connect(`sqlite:${path.join(o.dir, 'import.db')}`)
  await migrateToLatest(db)
  await seedReferenceData(db.kysely, new Date())
  await seedAccessData(db.kysely, new Date())
  const app = await buildApp({ db, dataDir: o.dir })
  try {
    await app.ready()
    const demo = await createDemoStudy(app, db.kysely, { password, clock: { set: () => undefined }, subjects: 6 })
    const k = db.kysely
    const projectId = demo!.projectId
    const templateId = (
      await k
        .selectFrom('project_form as pf')
        .innerJoin('template as t', 't.id', 'pf.template_id')
        .select('t.id')
        .where('pf.project_id', '=', projectId)
        .where('t.name', 'like', `%${o.templateName ?? 'baseline'}%`)
        .executeTakeFirstOrThrow()
    ).id
    const one = await k
      .selectFrom('subject')
      .select(['queue_id', 'center_id'])
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow()
    const at = new Date().toISOString()
    await k.transaction().execute(async (tx) => {
      for (let i = 0; i < o.subjects; i += 500) {
        const part = Array.from({ length: Math.min(500, o.subjects - i) }, (_, j) => ({
          project_id: projectId,
          queue_id: one.queue_id,
          center_id: one.center_id,
          subject_no: o.subjectNo(i + j),
          created_at: at,
          updated_at: at,
        }))
        await tx.insertInto('subject').values(part).execute()
      }
    })
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: demoUsername, password, platform: 'web' },
    })
    const token = String((signIn.json() as { data: { token: string } }).data.token)
    const { payload, contentType } = multipart(o.fileName, o.bytes)
    const started = performance.now()
    const res = await app.inject({
      method: 'POST',
      url: `/api/scientific/dataloader/uploadFile?studyId=${projectId}&templateId=${templateId}`,
      payload,
      headers: { 'content-type': contentType, 'kr-d-token': token, 'accept-language': 'en' },
    })
    const ms = performance.now() - started
    const body = res.json() as { msg: string; data?: { outcome?: string; created?: number } }
    return {
      ms,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      status: res.statusCode,
      outcome: body.data?.outcome ?? body.msg,
      created: body.data?.created ?? 0,
    }
  } finally {
    await app.close()
    await db.close()
  }
}

/** A CSV of the demo baseline for subjects subjectNo(0..rows-1). */
export function baselineCsv(rows: number, subjectNo: (i: number) => string): Buffer {
  const lines = ['subject_id,demo_sex,demo_age,demo_height,demo_weight,demo_smoker,demo_diagnosed']
  for (let i = 0; i < rows; i++) {
    lines.push(
      `${subjectNo(i)},${1 + (i % 2)},${18 + (i % 70)},${150 + (i % 40)}.5,${50 + (i % 60)},${i % 2},20${10 + (i % 15)}-0${1 + (i % 9)}-1${i % 9}`,
    )
  }
  return Buffer.from(lines.join('\n') + '\n')
}

export interface DataImportBenchFigures {
  rows: number
  bytes: number
  parseMs: number
  importMs: number
  /** The headline: the whole upload through the API over the bare csv-parse of the same bytes. */
  importOverParse: number
  peakRssMb: number
  outcome: string
  created: number
}

/**
 * One upload of `rows` rows (CSV, the demo baseline's 6 fields) for as many existing subjects,
 * through uploadFile on a fresh SQLite database, against csv-parse's bare synchronous parse of the
 * same bytes in the same run (median of three parses).
 */
export async function runDataImportBench(opts: {
  dir: string
  rows?: number
  log?: (line: string) => void
}): Promise<DataImportBenchFigures> {
  const rows = opts.rows ?? 100_000
  const subjectNo = (i: number) => `B${String(i + 1).padStart(6, '0')}`
  const bytes = baselineCsv(rows, subjectNo)
  const parses: number[] = []
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now()
    parse(bytes)
    parses.push(performance.now() - t0)
  }
  const parseMs = parses.sort((a, b) => a - b)[1]!
  opts.log?.(`bare csv-parse of ${rows} rows: ${parseMs.toFixed(0)} ms; uploading…`)
  const r = await importOnce({ dir: opts.dir, fileName: 'bench.csv', bytes, subjects: rows, subjectNo })
  return {
    rows,
    bytes: bytes.length,
    parseMs,
    importMs: r.ms,
    importOverParse: r.ms / parseMs,
    peakRssMb: r.peakRssMb,
    outcome: r.outcome,
    created: r.created,
  }
}

export function printDataImportBench(f: DataImportBenchFigures): void {
  console.log(
    `upload of ${f.rows} CSV rows (${(f.bytes / 1024 / 1024).toFixed(1)} MB): ${f.importMs.toFixed(0)} ms vs bare csv-parse ${f.parseMs.toFixed(0)} ms = ${f.importOverParse.toFixed(1)}×; peak RSS ${f.peakRssMb.toFixed(0)} MB; ${f.outcome}, created ${f.created}`,
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '100000' } } })
  const rows = Number(values.rows)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-import-'))
  const subjectNo = (i: number) => `B${String(i + 1).padStart(6, '0')}`
  try {
    const r = await importOnce({ dir, fileName: 'bench.csv', bytes: baselineCsv(rows, subjectNo), subjects: rows, subjectNo })
    console.log(
      `import ${rows} rows (CSV, demo baseline): ${r.ms.toFixed(0)} ms, peak RSS ${r.peakRssMb.toFixed(0)} MB, ${r.status} ${r.outcome}, created ${r.created}`,
    )
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
