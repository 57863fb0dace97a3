/**
 * Data download at scale (issue 11, Performance): 100,000 subjects × one 20-field CRF, exported by
 * the download service itself (keyset pages from SQLite, the caller's scope in the SQL, the tee
 * to the kept file with its SHA-256, the record) into a sink that only counts bytes, against, in
 * the same run:
 *   - xlsx: a plain exceljs streaming WorkbookWriter (same options) writing the same cells;
 *   - CSV:  the same cells joined into CSV lines by hand (the least work CSV can be);
 *   - ODM:  judged against our own CSV of the same data;
 *   - RSS:  the peak resident set while our xlsx of 10,000 subjects (one center) and of all
 *           100,000 is written — flat means the second is not ten times the first.
 * Each timing is the median of `runs` runs.
 *
 * A temp SQLite file gets all migrations; the fields, the CRF (published) and the project go
 * through the API, the subjects and their records are bulk-inserted (setup, not measured).
 *
 * Run alone with `npx tsx bench/dataExport.ts [--subjects N] [--runs N]`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import v8 from 'node:v8'
import vm from 'node:vm'
import SQLite from 'better-sqlite3'
import ExcelJS from 'exceljs'
import { serverNodeFlags } from '../scripts/server.mjs'
import { runJsonChild } from './childRun.ts'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../server/app.ts'
import { connect } from '../server/db/connect.ts'
import { actorOf, withMemberships } from '../server/services/actor.ts'
import { authenticate } from '../server/services/auth.ts'
import { startDownload, type DownloadInput } from '../server/services/dataLoader/download.ts'
import { dataStudyLogin, fieldCount, fieldSpecs, isNumberField, openDataStudy, subjectNo, valueOf } from './dataStudy.ts'

export interface DataExportBenchOptions {
  dir: string
  subjects?: number
  runs?: number
  log?: (line: string) => void
}

export interface DataExportBenchFigures {
  subjects: number
  fields: number
  runs: number
  xlsx: { oursMs: number; plainMs: number; ratio: number; bytes: number }
  csv: { oursMs: number; plainMs: number; ratio: number; bytes: number; readMs: number; ratioWithRead: number }
  odm: { oursMs: number; csvMs: number; ratio: number; bytes: number }
  rss: { smallSubjects: number; smallPeakMb: number; fullPeakMb: number; ratio: number; baseMb: number; plainPeakMb: number }
}

/**
 * A full collection, with or without --expose-gc (bench/run.ts runs without it): each RSS figure
 * starts from a collected heap, else it measures how much garbage V8 had let pile up before.
 */
const collect = (() => {
  v8.setFlagsFromString('--expose-gc')
  return vm.runInNewContext('gc') as () => void
})()

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

const codes = ['subject_id', 'center', 'queue', ...fieldSpecs.map((f) => f.code)]
const labels = ['Subject ID', 'Center code', 'Queue key', ...fieldSpecs.map((f) => f.nameEn)]
const numberAt = fieldSpecs.map((_, j) => isNumberField(j))
/** The cells of subject i as our xlsx holds them: the first tenth in center EX1, the rest in EX2. */
const cellsOf = (i: number, smallCount: number): (string | number)[] => [
  subjectNo(i),
  i < smallCount ? 'EX1' : 'EX2',
  'A',
  ...fieldSpecs.map((_, j) => (numberAt[j] ? Number(valueOf(i, j)) : valueOf(i, j))),
]

/** exceljs' plain streaming writer of the same cells. */
async function plainXlsx(subjects: number, smallCount: number): Promise<number> {
  const c = counter()
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: c.sink, useStyles: false, useSharedStrings: false })
  const ws = wb.addWorksheet('Export bench')
  ws.addRow(codes).commit()
  ws.addRow(labels).commit()
  for (let i = 0; i < subjects; i++) ws.addRow(cellsOf(i, smallCount)).commit()
  ws.commit()
  await wb.commit()
  return c.bytes()
}

/** Our download of the study's CRF through the service, into a counting sink. */
async function ourDownload(
  app: FastifyInstance,
  token: string,
  job: { projectId: number; templateId: number },
  format: DownloadInput['format'],
  centerIds?: number[],
): Promise<number> {
  const ctx = app.ctx
  const actor = await withMemberships(ctx.db, await actorOf(ctx.db, await authenticate(ctx, token)))
  const who = { userId: actor.user.id, username: dataStudyLogin.username, ip: '' }
  const file = await startDownload(ctx, actor, who, {
    studyId: job.projectId,
    format,
    templateIds: [job.templateId],
    centerIds,
    lang: 'en',
  })
  const c = counter()
  await pipeline(file.body as Readable, c.sink)
  return c.bytes()
}

/** The resident set's growth while `run` runs, from a collected heap (sampled every 10 ms). */
async function peakDuring(run: () => Promise<number>): Promise<{ base: number; peak: number }> {
  collect()
  const base = process.memoryUsage().rss
  let peak = base
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
  try {
    await run()
  } finally {
    clearInterval(timer)
  }
  return { base, peak: Math.max(peak, process.memoryUsage().rss) }
}

interface RssJob {
  dbFile: string
  dataDir: string
  projectId: number
  templateId: number
  smallCenterId: number
  subjects: number
  smallCount: number
  kind: 'small' | 'all' | 'plain'
}

/** In a fresh process (--rss-child): the app on the bench's database, one warm-up, one measured xlsx. */
async function rssHere(job: RssJob): Promise<{ base: number; peak: number }> {
  const db = connect(`sqlite:${job.dbFile}`)
  const app = await buildApp({ db, staticRoot: null, dataDir: job.dataDir })
  try {
    await app.ready()
    const signIn = await app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { ...dataStudyLogin, platform: 'bench' } })
    const token = (signIn.json() as { data?: { token?: string } }).data?.token
    if (!token) throw new Error(`sign-in failed: ${signIn.body}`)
    await ourDownload(app, token, job, 'xlsx', [job.smallCenterId])
    return await peakDuring(() =>
      job.kind === 'plain'
        ? plainXlsx(job.subjects, job.smallCount)
        : ourDownload(app, token, job, 'xlsx', job.kind === 'small' ? [job.smallCenterId] : undefined),
    )
  } finally {
    await app.close()
    await db.close()
  }
}

/** The child stands for the server, so it runs with the server's V8 flags (the plain writer too, for a fair base). */
function rssInChild(job: RssJob): Promise<{ base: number; peak: number }> {
  return runJsonChild(fileURLToPath(import.meta.url), ['--rss-child', JSON.stringify(job)], `rss ${job.kind}`, serverNodeFlags)
}

/** A sink that counts and forgets. */
function counter() {
  let bytes = 0
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      bytes += chunk.length
      cb()
    },
  })
  return { sink, bytes: () => bytes }
}

async function timed(run: () => Promise<number>): Promise<{ ms: number; bytes: number }> {
  const started = performance.now()
  const bytes = await run()
  return { ms: performance.now() - started, bytes }
}

export async function runDataExportBench(opts: DataExportBenchOptions): Promise<DataExportBenchFigures> {
  const subjects = opts.subjects ?? 100_000
  const runs = opts.runs ?? 3
  const log = opts.log ?? (() => {})
  const dbFile = path.join(opts.dir, 'data-export-bench.db')
  log(`setting up ${fieldCount} fields, a published CRF and a project…`)
  const study = await openDataStudy(`sqlite:${dbFile}`, path.join(opts.dir, 'data'), subjects)
  const { app, projectId, queueId } = study
  const [small, large] = study.centers.map((c) => c.id) as [number, number]
  const specs = fieldSpecs
  const ids = study.fieldIds
  const crf = { id: study.templateId }
  const versionId = study.versionId
  const raw = new SQLite(dbFile)
  raw.pragma('journal_mode = WAL')
  const at = new Date().toISOString()
  try {
    log(`inserting ${subjects} subjects and their records…`)
    const smallCount = Math.max(1, Math.floor(subjects / 10))
    const insertSubject = raw.prepare(
      `insert into subject (project_id, queue_id, center_id, subject_no, created_at, updated_at, status, enrolled_at) values (?, ?, ?, ?, ?, ?, 'enrolled', ?)`,
    )
    const insertRecord = raw.prepare(
      `insert into form_record (project_id, subject_id, center_id, queue_id, template_id, version_id, slot, data, status, rev, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, '', ?, 'saved', 1, ?, ?)`,
    )
    raw.transaction(() => {
      for (let i = 0; i < subjects; i++) {
        const centerId = i < smallCount ? small : large
        const sid = Number(insertSubject.run(projectId, queueId, centerId, subjectNo(i), at, at, at).lastInsertRowid)
        const data: Record<string, string> = {}
        ids.forEach((id, j) => (data[String(id)] = valueOf(i, j)))
        insertRecord.run(projectId, sid, centerId, queueId, crf.id, versionId, JSON.stringify(data), at, at)
      }
    })()
    raw.exec('ANALYZE')

    const job = { projectId, templateId: crf.id }
    const ours = (format: DownloadInput['format'], centerIds?: number[]) => ourDownload(app, study.api.token, job, format, centerIds)
    const plain = () => plainXlsx(subjects, smallCount)
    const needsQuotes = /[",\r\n]/
    const plainCsv = async () => {
      const c = counter()
      const line = (cells: readonly (string | number)[]) =>
        cells.map((v) => (typeof v === 'string' && needsQuotes.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v))).join(',') + '\r\n'
      let text = '\uFEFF' + line(codes)
      for (let i = 0; i < subjects; i++) {
        text += line(specs.length ? cellsOf(i, smallCount).map(String) : [])
        if ((i + 1) % 1000 === 0) {
          if (!c.sink.write(text)) await new Promise((r) => c.sink.once('drain', r))
          text = ''
        }
      }
      c.sink.end(text)
      await new Promise((r) => c.sink.once('finish', r))
      return c.bytes()
    }

    /** Reading the same rows, bare: one prepared statement on a second connection, each record's JSON parsed. */
    const readRows = () => {
      let n = 0
      const stmt = raw.prepare(
        'select s.subject_no, r.data from form_record r join subject s on s.id = r.subject_id where r.template_id = ? order by r.subject_id',
      )
      for (const row of stmt.iterate(crf.id) as Iterable<{ subject_no: string; data: string }>)
        n += Object.keys(JSON.parse(row.data) as object).length
      return Promise.resolve(n)
    }

    log('warm-up…')
    await ours('csv', [small])
    await ours('xlsx', [small])
    // Each in a fresh process: in this one the heap already holds what ran before (in npm run
    // bench, over a gigabyte), and V8 lets a big heap grow far before it collects.
    log('peak RSS at 10% and 100% of the subjects, each in a fresh process…')
    const rssJob = {
      dbFile,
      dataDir: path.join(opts.dir, 'data'),
      projectId,
      templateId: crf.id,
      smallCenterId: small,
      subjects,
      smallCount,
    }
    const smallRss = await rssInChild({ ...rssJob, kind: 'small' })
    const fullRss = await rssInChild({ ...rssJob, kind: 'all' })
    // exceljs' own writer of the same rows, for what its growth alone is.
    const plainRss = await rssInChild({ ...rssJob, kind: 'plain' })

    const samples = {
      oursXlsx: [] as number[],
      plainXlsx: [] as number[],
      oursCsv: [] as number[],
      plainCsv: [] as number[],
      read: [] as number[],
      odm: [] as number[],
    }
    const bytes = { xlsx: 0, csv: 0, odm: 0 }
    for (let r = 0; r < runs; r++) {
      log(`run ${r + 1} of ${runs}…`)
      const a = await timed(() => ours('xlsx'))
      const b = await timed(plain)
      const c = await timed(() => ours('csv'))
      const d = await timed(plainCsv)
      const e = await timed(() => ours('odm'))
      samples.read.push((await timed(readRows)).ms)
      samples.oursXlsx.push(a.ms)
      samples.plainXlsx.push(b.ms)
      samples.oursCsv.push(c.ms)
      samples.plainCsv.push(d.ms)
      samples.odm.push(e.ms)
      bytes.xlsx = a.bytes
      bytes.csv = c.bytes
      bytes.odm = e.bytes
    }
    const mb = (n: number) => n / 1024 / 1024
    const xo = median(samples.oursXlsx)
    const xp = median(samples.plainXlsx)
    const co = median(samples.oursCsv)
    const cp = median(samples.plainCsv)
    const od = median(samples.odm)
    return {
      subjects,
      fields: fieldCount,
      runs,
      xlsx: { oursMs: xo, plainMs: xp, ratio: xo / xp, bytes: bytes.xlsx },
      csv: {
        oursMs: co,
        plainMs: cp,
        ratio: co / cp,
        bytes: bytes.csv,
        readMs: median(samples.read),
        ratioWithRead: co / (cp + median(samples.read)),
      },
      odm: { oursMs: od, csvMs: co, ratio: od / co, bytes: bytes.odm },
      rss: {
        smallSubjects: smallCount,
        baseMb: mb(smallRss.base),
        smallPeakMb: mb(smallRss.peak - smallRss.base),
        fullPeakMb: mb(fullRss.peak - fullRss.base),
        // A growth under 1 MB counts as 1 MB: the ratio of two near-zero figures says nothing.
        ratio: (fullRss.peak - fullRss.base) / Math.max(1024 * 1024, smallRss.peak - smallRss.base),
        plainPeakMb: mb(plainRss.peak - plainRss.base),
      },
    }
  } finally {
    raw.close()
    await study.close()
  }
}

export function printDataExportBench(f: DataExportBenchFigures): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
  const kb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`
  console.log(`Data download, ${f.subjects} subjects × ${f.fields} fields (medians of ${f.runs} runs):`)
  console.log(
    `  xlsx: ours ${s(f.xlsx.oursMs)} vs plain exceljs ${s(f.xlsx.plainMs)} = ${f.xlsx.ratio.toFixed(2)}× (target ≤ 1.2×), ${kb(f.xlsx.bytes)}`,
  )
  console.log(
    `  CSV:  ours ${s(f.csv.oursMs)} vs plain join ${s(f.csv.plainMs)} = ${f.csv.ratio.toFixed(2)}× (target ≤ 1.2×), ${kb(f.csv.bytes)}`,
  )
  console.log(
    `        reading the same rows bare takes ${s(f.csv.readMs)}: ours vs plain join + bare read = ${f.csv.ratioWithRead.toFixed(2)}×`,
  )
  console.log(`  ODM:  ${s(f.odm.oursMs)} vs our CSV ${s(f.odm.csvMs)} = ${f.odm.ratio.toFixed(2)}× (target ≤ 2×), ${kb(f.odm.bytes)}`)
  console.log(
    `  RSS growth while writing xlsx: ${f.rss.smallSubjects} subjects +${f.rss.smallPeakMb.toFixed(0)} MB, all ${f.subjects} +${f.rss.fullPeakMb.toFixed(0)} MB (${f.rss.ratio.toFixed(2)}×; base ${f.rss.baseMb.toFixed(0)} MB); plain exceljs, all: +${f.rss.plainPeakMb.toFixed(0)} MB`,
  )
}

// Alone: `npx tsx bench/dataExport.ts [--subjects N] [--runs N]`.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { subjects: { type: 'string', default: '100000' }, runs: { type: 'string', default: '3' }, 'rss-child': { type: 'string' } },
  })
  if (values['rss-child']) console.log('CHILD ' + JSON.stringify(await rssHere(JSON.parse(values['rss-child']) as RssJob)))
  else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-data-export-'))
    try {
      printDataExportBench(
        await runDataExportBench({
          dir,
          subjects: Number(values.subjects),
          runs: Number(values.runs),
          log: (l) => console.log(`bench: ${l}`),
        }),
      )
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}
