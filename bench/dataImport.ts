/**
 * Importing data uploads (issue 11, Performance): 100,000 rows × 20 fields, as xlsx and as CSV,
 * through uploadFile (app.inject: multipart received to a temp file, read in the worker thread,
 * every cell checked, written in one transaction), on SQLite and on PostgreSQL, against the bare
 * parsers of the same files in the same run (exceljs' streaming WorkbookReader, csv-parse's sync
 * parse; each in a fresh process of its own, bench/dataLoad.ts runChild; median of three after a
 * warm-up).
 *
 * The study is bench/dataStudy.ts's (the reader bench's 20 fields, ranges on the numbers); the
 * files are the reader bench's own (writeLoadXlsx / writeLoadCsv: a header of codes, a label row,
 * one row per subject). The subjects exist before the upload (inserted in multi-row statements,
 * not measured) and have no records yet, so every row creates one. Each case is uploaded `runs`
 * times (default 3), each time a file of its own naming subjects of their own (a run loads what
 * the others did not), and its median time and median peak are reported: single runs here
 * sometimes took ~1.8× as long (the reader alone and the bare parser too, now and then).
 *
 * Each upload runs in a fresh process of its own too (this file with --child and the server's Node
 * flags, scripts/server.mjs: the app on the study's database, the reader thread warmed as a
 * running server has it, signed in), so its time and its peak RSS (VmHWM, worker threads
 * included) are its own, set against the bare parser's whole-process peak. The bare parsers run
 * with Node's defaults.
 *
 * Run alone: `npx tsx bench/dataImport.ts [--rows N] [--runs N] [--no-postgres]`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { buildApp } from '../server/app.ts'
import { connect } from '../server/db/connect.ts'
import type { PlanBatch } from '../server/services/dataLoader/checkRows.ts'
import { warmReader } from '../server/services/dataLoader/readUpload.ts'
import { PlanWriter } from '../server/services/dataLoader/writeRows.ts'
import { multipartFromFile } from '../tests/support/multipart.ts'
import { serverNodeFlags } from '../scripts/server.mjs'
import { runJsonChild } from './childRun.ts'
import { peakRss, runChild, writeLoadCsv, writeLoadXlsx, type ChildResult, type Measure } from './dataLoad.ts'
import { dataStudyLogin, fieldCount, openDataStudy, ownPostgres, subjectNo, type DataStudy } from './dataStudy.ts'

type Format = 'xlsx' | 'csv'

export interface ImportCase {
  database: 'SQLite' | 'PostgreSQL'
  format: Format
  /** The median upload, and every run's. */
  ms: number
  runsMs: number[]
  bareMs: number
  /** The upload over the bare parse of the same file. */
  ratio: number
  /** The median peak, and every run's. */
  peakRssMb: number
  runsRssMb: number[]
  bareRssMb: number
  rssRatio: number
  outcome: string
  created: number
  /** The median upload's CPU time over all its threads (on SQLite the writes are among them). */
  cpuMs: number
  /** The median upload's time in PlanWriter.write: the database writes and the statements' rows made for them. */
  writeMs: number
  /** The least time two cores could take for that CPU time, over the bare parse: cpuMs / 2 / bareMs. */
  twoCoreFloor: number
}

export interface DataImportBenchFigures {
  rows: number
  runs: number
  fields: number
  bytes: Record<Format, number>
  cases: ImportCase[]
  postgresSkipped: string | null
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!

/** The bare parse of a file, median of three fresh processes after a warm-up. */
async function bare(kind: Measure, file: string, log: (line: string) => void): Promise<{ ms: number; rssMb: number }> {
  const seen: ChildResult[] = []
  for (let run = 0; run <= 3; run++) {
    const r = await runChild(kind, file)
    log(`${kind} run ${run}: ${r.ms.toFixed(0)} ms, peak RSS ${(r.peakRss / 1e6).toFixed(0)} MB`)
    if (run > 0) seen.push(r)
  }
  return { ms: median(seen.map((r) => r.ms)), rssMb: median(seen.map((r) => r.peakRss)) / 1e6 }
}

/** `count` subjects numbered subjectNo(0..count-1), without records, spread over the study's centers. */
async function insertSubjects(study: DataStudy, count: number): Promise<void> {
  const at = new Date().toISOString()
  await study.db.kysely.transaction().execute(async (tx) => {
    for (let i = 0; i < count; i += 1000) {
      const part = Array.from({ length: Math.min(1000, count - i) }, (_, j) => ({
        project_id: study.projectId,
        queue_id: study.queueId,
        center_id: study.centers[(i + j) % study.centers.length]!.id,
        subject_no: subjectNo(i + j),
        status: 'enrolled',
        enrolled_at: at,
        created_at: at,
        updated_at: at,
      }))
      await tx.insertInto('subject').values(part).execute()
    }
  })
  // A PostgreSQL server in use has statistics of its tables (autovacuum keeps them); without
  // them the first upload after this insert planned its subject reads badly (41 s, then 24, 15).
  if (study.db.dialect === 'postgres') await sql`analyze`.execute(study.db.kysely)
}

interface UploadJob {
  url: string
  dataDir: string
  projectId: number
  templateId: number
  file: string
}

interface UploadResult {
  ms: number
  /** User and system CPU time of the whole process (main and reader thread) while the upload ran. */
  cpuMs: number
  /** Time spent in PlanWriter.write (each batch's writes, awaited before the next batch is checked). */
  writeMs: number
  peakRssMb: number
  outcome: string
  created: number
}

/** In the child: the app on the study's database, signed in, one upload timed. */
async function uploadHere(job: UploadJob): Promise<UploadResult> {
  const db = connect(job.url)
  const app = await buildApp({ db, staticRoot: null, dataDir: job.dataDir })
  try {
    await app.ready()
    await warmReader()
    const signIn = await app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { ...dataStudyLogin, platform: 'bench' } })
    const token = (signIn.json() as { data?: { token?: string } }).data?.token
    if (!token) throw new Error(`sign-in failed: ${signIn.body}`)
    const { payload, contentType } = multipartFromFile(path.basename(job.file), job.file)
    let writeMs = 0
    const write = PlanWriter.prototype.write
    PlanWriter.prototype.write = async function (this: PlanWriter, batch: PlanBatch) {
      const t = performance.now()
      try {
        await write.call(this, batch)
      } finally {
        writeMs += performance.now() - t
      }
    }
    const started = performance.now()
    const cpuBefore = process.cpuUsage()
    const res = await app.inject({
      method: 'POST',
      url: `/api/scientific/dataloader/uploadFile?studyId=${job.projectId}&templateId=${job.templateId}`,
      payload,
      headers: { 'content-type': contentType, 'kr-d-token': token, 'accept-language': 'en' },
    })
    const ms = performance.now() - started
    const cpu = process.cpuUsage(cpuBefore)
    const body = res.json() as { data?: { outcome?: string; created?: number } }
    if (body.data?.outcome !== 'loaded') throw new Error(`upload: ${res.statusCode} ${res.body.slice(0, 600)}`)
    return {
      ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      writeMs,
      peakRssMb: peakRss() / 1e6,
      outcome: body.data.outcome,
      created: body.data.created ?? 0,
    }
  } finally {
    await app.close()
    await db.close()
  }
}

function uploadInChild(job: UploadJob): Promise<UploadResult> {
  return runJsonChild<UploadResult>(fileURLToPath(import.meta.url), ['--child', JSON.stringify(job)], 'upload', serverNodeFlags)
}

export async function runDataImportBench(opts: {
  dir: string
  rows?: number
  runs?: number
  postgres?: boolean
  log?: (line: string) => void
}): Promise<DataImportBenchFigures> {
  const rows = opts.rows ?? 100_000
  const runs = opts.runs ?? 3
  const log = opts.log ?? (() => {})
  // Run r's CSV names subjects 2r·rows.., its xlsx (2r+1)·rows..: each upload creates every record.
  const layout = { rows, centers: ['EX1', 'EX2'], queues: ['A'] }
  const files: Record<Format, string[]> = { csv: [], xlsx: [] }
  for (let r = 0; r < runs; r++) {
    const csv = path.join(opts.dir, `import-${r}.csv`)
    const xlsx = path.join(opts.dir, `import-${r}.xlsx`)
    await writeLoadCsv(csv, { ...layout, subjectId: (i) => subjectNo(2 * r * rows + i) })
    await writeLoadXlsx(xlsx, { ...layout, subjectId: (i) => subjectNo((2 * r + 1) * rows + i) }, 'Data bench')
    files.csv.push(csv)
    files.xlsx.push(xlsx)
  }
  const bareOf: Record<Format, { ms: number; rssMb: number }> = {
    csv: await bare('csv-bare', files.csv[0]!, log),
    xlsx: await bare('xlsx-bare', files.xlsx[0]!, log),
  }
  const cases: ImportCase[] = []
  const runOn = async (database: ImportCase['database'], url: string) => {
    const subjects = 2 * rows * runs
    log(`${database}: setting up the study and ${subjects} subjects…`)
    const dataDir = path.join(opts.dir, `data-${database}`)
    const study = await openDataStudy(url, dataDir, subjects)
    const job = { url, dataDir, projectId: study.projectId, templateId: study.templateId }
    try {
      await insertSubjects(study, subjects)
    } finally {
      await study.close()
    }
    for (const format of ['csv', 'xlsx'] as const) {
      const seen: UploadResult[] = []
      for (const file of files[format]) {
        const r = await uploadInChild({ ...job, file })
        log(
          `${database}: uploaded ${rows} ${format} rows in ${r.ms.toFixed(0)} ms (CPU ${r.cpuMs.toFixed(0)} ms), peak RSS ${r.peakRssMb.toFixed(0)} MB`,
        )
        if (r.outcome !== 'loaded' || r.created !== rows) throw new Error(`${database} ${format}: ${r.outcome}, created ${r.created}`)
        seen.push(r)
      }
      const ms = median(seen.map((r) => r.ms))
      const { cpuMs, writeMs } = seen.find((r) => r.ms === ms)!
      const peakRssMb = median(seen.map((r) => r.peakRssMb))
      const b = bareOf[format]
      cases.push({
        database,
        format,
        ms,
        runsMs: seen.map((r) => r.ms),
        bareMs: b.ms,
        ratio: ms / b.ms,
        peakRssMb,
        runsRssMb: seen.map((r) => r.peakRssMb),
        bareRssMb: b.rssMb,
        rssRatio: peakRssMb / b.rssMb,
        outcome: seen[0]!.outcome,
        created: seen[0]!.created,
        cpuMs,
        writeMs,
        twoCoreFloor: cpuMs / 2 / b.ms,
      })
    }
  }
  const sqliteFile = path.join(opts.dir, 'import.db')
  try {
    await runOn('SQLite', `sqlite:${sqliteFile}`)
  } finally {
    for (const f of [sqliteFile, `${sqliteFile}-wal`, `${sqliteFile}-shm`]) fs.rmSync(f, { force: true })
  }
  let postgresSkipped: string | null = opts.postgres === false ? 'not asked for' : null
  if (opts.postgres !== false) {
    const own = await ownPostgres('import', log)
    if (typeof own === 'string') postgresSkipped = own
    else {
      try {
        await runOn('PostgreSQL', own.url)
      } finally {
        await own.drop()
      }
    }
  }
  return {
    rows,
    runs,
    fields: fieldCount,
    bytes: { csv: fs.statSync(files.csv[0]!).size, xlsx: fs.statSync(files.xlsx[0]!).size },
    cases,
    postgresSkipped,
  }
}

export function printDataImportBench(f: DataImportBenchFigures): void {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`
  console.log(
    `Data upload, ${f.rows} rows × ${f.fields} fields (CSV ${mb(f.bytes.csv)}, xlsx ${mb(f.bytes.xlsx)}), each row a new record, medians of ${f.runs} uploads:`,
  )
  for (const c of f.cases) {
    const target = c.format === 'xlsx' ? '≤ 1.3×' : '≤ 1.5×'
    const each = (xs: number[], unit: string, scale = 1) => xs.map((x) => (x / scale).toFixed(unit === 's' ? 2 : 0)).join(', ') + ' ' + unit
    console.log(
      `  ${c.database.padEnd(10)} ${c.format.padEnd(4)}: ${(c.ms / 1000).toFixed(2)} s vs bare parse ${(c.bareMs / 1000).toFixed(2)} s = ${c.ratio.toFixed(2)}× (target ${target}); peak RSS ${c.peakRssMb.toFixed(0)} MB vs the parser's ${c.bareRssMb.toFixed(0)} MB = ${c.rssRatio.toFixed(2)}×; ${c.outcome}, created ${c.created} (runs: ${each(c.runsMs, 's', 1000)}; ${each(c.runsRssMb, 'MB')})`,
    )
  }
  // The machine has two cores: the work an upload did cannot take less than half its CPU time,
  // however its threads overlap. On PostgreSQL the database's own work runs elsewhere, so only SQLite's counts.
  // Its writes go through the one SQLite connection, one after another: the upload cannot end before they do.
  for (const c of f.cases.filter((c) => c.database === 'SQLite'))
    console.log(
      `  SQLite ${c.format} upload used ${(c.cpuMs / 1000).toFixed(2)} s of CPU over its threads: on two cores no overlap ends it before ${(c.cpuMs / 2000).toFixed(2)} s = ${c.twoCoreFloor.toFixed(2)}× the bare parse; its writes alone took ${(c.writeMs / 1000).toFixed(2)} s = ${(c.writeMs / c.bareMs).toFixed(2)}× the parse`,
    )
  if (f.postgresSkipped) console.log(`  PostgreSQL skipped: ${f.postgresSkipped}`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '100000' },
      runs: { type: 'string', default: '3' },
      'no-postgres': { type: 'boolean' },
      child: { type: 'string' },
    },
  })
  if (values.child) console.log('CHILD ' + JSON.stringify(await uploadHere(JSON.parse(values.child) as UploadJob)))
  else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-import-'))
    try {
      printDataImportBench(
        await runDataImportBench({
          dir,
          rows: Number(values.rows),
          runs: Number(values.runs),
          postgres: !values['no-postgres'],
          log: (l) => console.log(`bench: ${l}`),
        }),
      )
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}
