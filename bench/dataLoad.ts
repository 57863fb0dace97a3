/**
 * Reading a data upload (issue 11): 100,000 rows × 20 fields in our layout, as xlsx and as CSV,
 * read by our reader (readUpload: a worker thread parsing and posting batches) against the bare
 * parsers measured in the same run:
 *   - xlsx: exceljs' own streaming WorkbookReader over the file, styles 'cache' (what dates need,
 *           and what we use) and styles 'ignore' (to show what the styles cost);
 *   - CSV:  csv-parse (sync) over the file's bytes.
 * Each measurement runs in a fresh child process (this file with --child), so its time and its
 * peak RSS (VmHWM, worker threads included) are its own. Medians of the runs after a
 * discarded warm-up run.
 *
 * The file generators are exported for the upload bench: `benchFields` is the CRF they fill (20
 * fields: integer, decimal, date, choice, text in turn), `writeLoadXlsx` / `writeLoadCsv` write the
 * layout of server/services/dataLoader/layout.ts: a header row of codes
 * (subject_id, center, queue, the 20 field codes), a label row, then one row per subject.
 *
 * Run alone with `npx tsx bench/dataLoad.ts [--rows N] [--runs N]`.
 */
import { createWriteStream } from 'node:fs'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { readUpload, warmReader } from '../server/services/dataLoader/readUpload.ts'
import { runJsonChild } from './childRun.ts'

export type BenchFieldKind = 'integer' | 'decimal' | 'date' | 'choice' | 'text'

export interface BenchField {
  code: string
  label: string
  kind: BenchFieldKind
  /** Choice codes. */
  options?: string[]
  min?: number
  max?: number
}

const kinds: BenchFieldKind[] = ['integer', 'decimal', 'date', 'choice', 'text']

/** The CRF the generated files fill: 20 fields, the five kinds in turn. */
export const benchFields: BenchField[] = Array.from({ length: 20 }, (_, i) => {
  const kind = kinds[i % 5]!
  const code = `bench_f${String(i + 1).padStart(2, '0')}`
  const label = `字段 ${i + 1} Field ${i + 1}`
  if (kind === 'integer') return { code, label, kind, min: 0, max: 300 }
  if (kind === 'decimal') return { code, label, kind, min: 0, max: 1000 }
  if (kind === 'choice') return { code, label, kind, options: ['1', '2', '3', '4'] }
  return { code, label, kind }
})

export interface LoadFileOptions {
  rows: number
  /** Center codes and queue keys spread over the rows (the demo study's by default). */
  centers?: string[]
  queues?: string[]
  /** The subject id of row i (0-based). */
  subjectId?: (i: number) => string
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** The cell of field j in data row i: a number, a date (UTC midnight) or text. */
export function benchCell(i: number, j: number): string | number | Date {
  const f = benchFields[j]!
  const k = i * 31 + j * 7
  switch (f.kind) {
    case 'integer':
      return k % 301
    case 'decimal':
      return Math.round((k % 10_000) * 7.3) / 100
    case 'date':
      return new Date(Date.UTC(2000 + (k % 25), k % 12, 1 + (k % 28)))
    case 'choice':
      return f.options![k % 4]!
    default:
      return `随访记录 ${k} note ${i}`
  }
}

/** The cells of data row i: numbers as numbers, dates as dates (xlsx) or Y-M-D text (CSV). */
function rowCells(i: number, o: LoadFileOptions): (string | number | Date)[] {
  const centers = o.centers ?? ['DBJ', 'DSH', 'DGZ']
  const queues = o.queues ?? ['A', 'B']
  return [
    o.subjectId?.(i) ?? `B${pad(i + 1, 6)}`,
    centers[i % centers.length]!,
    queues[i % queues.length]!,
    ...benchFields.map((_, j) => benchCell(i, j)),
  ]
}

const header = () => ['subject_id', 'center', 'queue', ...benchFields.map((f) => f.code)]
const labels = () => ['Subject ID', 'Center code', 'Queue key', ...benchFields.map((f) => f.label)]

/** One sheet named after the CRF, written with exceljs' streaming writer (shared strings off, as our exports). */
export async function writeLoadXlsx(file: string, o: LoadFileOptions, sheetName = 'Bench CRF'): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false })
  const ws = wb.addWorksheet(sheetName)
  ws.addRow(header()).commit()
  ws.addRow(labels()).commit()
  const dateCols = benchFields.flatMap((f, j) => (f.kind === 'date' ? [j + 4] : []))
  for (let i = 0; i < o.rows; i++) {
    const row = ws.addRow(rowCells(i, o))
    for (const c of dateCols) row.getCell(c).numFmt = 'yyyy-mm-dd'
    row.commit()
  }
  ws.commit()
  await wb.commit()
}

/** UTF-8 with a BOM, CRLF, dates Y-M-D: what our CSV download writes. */
export async function writeLoadCsv(file: string, o: LoadFileOptions): Promise<void> {
  const out = createWriteStream(file)
  const line = (cells: (string | number | Date)[]) =>
    cells
      .map((c) => (c instanceof Date ? `${c.getUTCFullYear()}-${pad(c.getUTCMonth() + 1)}-${pad(c.getUTCDate())}` : String(c)))
      .join(',') + '\r\n'
  let chunk = '\uFEFF' + line(header()) + line(labels())
  for (let i = 0; i < o.rows; i++) {
    chunk += line(rowCells(i, o))
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()))
      chunk = ''
    }
  }
  await new Promise<void>((resolve, reject) => out.end(chunk, () => resolve()).once('error', reject))
}

// ---------------------------------------------------------------------------------------------
// The measurements, each in a child process

export type Measure = 'xlsx-bare' | 'xlsx-bare-nostyles' | 'xlsx-ours' | 'csv-bare' | 'csv-ours'

export interface ChildResult {
  ms: number
  rows: number
  /** Peak resident set of the whole process, bytes. */
  peakRss: number
}

/** Data rows a measurement saw: every row after the header (the label row counts, in both). */
async function measure(kind: Measure, file: string): Promise<number> {
  if (kind === 'csv-bare') return (parse(fs.readFileSync(file), { bom: true, relax_column_count: true }) as unknown[]).length - 1
  if (kind === 'xlsx-bare' || kind === 'xlsx-bare-nostyles') {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      styles: kind === 'xlsx-bare' ? 'cache' : 'ignore',
      hyperlinks: 'ignore',
      entries: 'ignore',
    })
    let n = 0
    for await (const sheet of reader) for await (const row of sheet) if (row.values) n++
    return n - 1
  }
  const container = kind === 'xlsx-ours' ? 'xlsx' : 'csv'
  const size = fs.statSync(file).size
  let n = 0
  for await (const b of readUpload({ path: file, fileName: path.basename(file), size, sha256: '', container })) n += b.rows.length
  return n
}

/**
 * The peak resident set of this process, bytes, worker threads included: VmHWM, which starts
 * afresh with the process image. getrusage's maxrss does not: Linux carries it over from the
 * parent through fork and exec, so a child of a big bench process reported the parent's size.
 */
export function peakRss(): number {
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))
  return hwm ? Number(hwm[1]) * 1024 : process.resourceUsage().maxRSS * 1024
}

/** One measurement in a fresh process of its own: its time, and the peak RSS of that process. */
export function runChild(kind: Measure, file: string): Promise<ChildResult> {
  return runJsonChild<ChildResult>(fileURLToPath(import.meta.url), ['--child', kind, '--file', file], kind)
}

export interface DataLoadBenchOptions {
  /** A directory this bench may write its files into; removed by the caller. */
  dir: string
  rows?: number
  runs?: number
  log?: (line: string) => void
}

export interface DataLoadCase {
  label: string
  bytes: number
  rows: number
  bareMs: number
  bareRss: number
  oursMs: number
  oursRss: number
  timeRatio: number
  rssRatio: number
  /** xlsx only: the bare parse without styles (dates come back as serial numbers then). */
  noStylesMs?: number
  noStylesRss?: number
}

export interface DataLoadBenchFigures {
  rows: number
  runs: number
  cases: DataLoadCase[]
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

export async function runDataLoadBench(opts: DataLoadBenchOptions): Promise<DataLoadBenchFigures> {
  const n = opts.rows ?? 100_000
  const runs = opts.runs ?? 3
  const log = opts.log ?? (() => {})
  const xlsx = path.join(opts.dir, 'load.xlsx')
  const csv = path.join(opts.dir, 'load.csv')
  let t0 = performance.now()
  await writeLoadXlsx(xlsx, { rows: n })
  await writeLoadCsv(csv, { rows: n })
  log(`files written in ${Math.round(performance.now() - t0)} ms`)
  const cases: { label: string; file: string; bare: Measure; ours: Measure; noStyles?: Measure }[] = [
    { label: 'xlsx', file: xlsx, bare: 'xlsx-bare', ours: 'xlsx-ours', noStyles: 'xlsx-bare-nostyles' },
    { label: 'CSV (UTF-8 BOM)', file: csv, bare: 'csv-bare', ours: 'csv-ours' },
  ]
  const out: DataLoadCase[] = []
  for (const c of cases) {
    const seen: Record<string, ChildResult[]> = {}
    for (let run = 0; run <= runs; run++) {
      // Alternating within a run, so a busy moment of the machine falls on both sides.
      for (const kind of [c.bare, c.ours, ...(c.noStyles ? [c.noStyles] : [])]) {
        t0 = performance.now()
        const r = await runChild(kind, c.file)
        // The label row is a data row to both sides.
        if (r.rows !== n + 1) throw new Error(`${kind}: saw ${r.rows} rows, not ${n + 1}`)
        log(`${kind} run ${run}: ${r.ms.toFixed(0)} ms, peak RSS ${(r.peakRss / 1e6).toFixed(0)} MB`)
        // Run 0 warms the disk cache and tsx's transform cache: not counted.
        if (run > 0) (seen[kind] ??= []).push(r)
      }
    }
    const ms = (k: Measure) => median(seen[k]!.map((r) => r.ms))
    const rss = (k: Measure) => median(seen[k]!.map((r) => r.peakRss))
    out.push({
      label: c.label,
      bytes: fs.statSync(c.file).size,
      rows: n,
      bareMs: ms(c.bare),
      bareRss: rss(c.bare),
      oursMs: ms(c.ours),
      oursRss: rss(c.ours),
      timeRatio: ms(c.ours) / ms(c.bare),
      rssRatio: rss(c.ours) / rss(c.bare),
      ...(c.noStyles ? { noStylesMs: ms(c.noStyles), noStylesRss: rss(c.noStyles) } : {}),
    })
  }
  return { rows: n, runs, cases: out }
}

const fmt = (x: number, digits = 1) => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

export function printDataLoadBench(f: DataLoadBenchFigures): void {
  const rows = [
    [`read, ${fmt(f.rows, 0)} rows × 20`, 'size', 'bare ms', 'ours ms', 'ours/bare', 'bare RSS', 'ours RSS', 'RSS ratio'],
    ...f.cases.map((c) => [
      c.label,
      `${fmt(c.bytes / 1e6, 1)} MB`,
      fmt(c.bareMs, 0),
      fmt(c.oursMs, 0),
      fmt(c.timeRatio, 2),
      `${fmt(c.bareRss / 1e6, 0)} MB`,
      `${fmt(c.oursRss / 1e6, 0)} MB`,
      fmt(c.rssRatio, 2),
    ]),
  ]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]) =>
    '│ ' + r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' │ ') + ' │'
  const rule = (l: string, m: string, r: string) => l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r
  console.log('\n' + [rule('┌', '┬', '┐'), line(rows[0]!), rule('├', '┼', '┤'), ...rows.slice(1).map(line), rule('└', '┴', '┘')].join('\n'))
  for (const c of f.cases) {
    if (c.noStylesMs !== undefined)
      console.log(
        `  ${c.label}: exceljs without styles ${fmt(c.noStylesMs, 0)} ms, ${fmt(c.noStylesRss! / 1e6, 0)} MB (styles 'cache' costs ${fmt((c.bareMs / c.noStylesMs - 1) * 100, 0)} %)`,
      )
  }
  console.log(
    `  (medians of ${f.runs} runs after a warm-up; each measurement in a fresh process: time from the call, worker start included)`,
  )
}

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    child: { type: 'string' },
    file: { type: 'string' },
  },
  strict: false,
})

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (typeof values.child === 'string' && typeof values.file === 'string') {
    // One measurement: the time of the call alone, the peak RSS of the whole process.
    // A server has its reader thread started ahead of need (readUpload.ts): so has this process.
    if (values.child.endsWith('-ours')) await warmReader()
    const t0 = performance.now()
    const rows = await measure(values.child as Measure, values.file)
    const ms = performance.now() - t0
    const result: ChildResult = { ms, rows, peakRss: peakRss() }
    console.log('CHILD ' + JSON.stringify(result))
  } else {
    // Alone: `npx tsx bench/dataLoad.ts [--rows N] [--runs N]`.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dataload-'))
    try {
      const figures = await runDataLoadBench({
        dir,
        rows: Number(values.rows),
        runs: Number(values.runs),
        log: (l) => console.log(`bench: ${l}`),
      })
      printDataLoadBench(figures)
      console.log('BENCH_DATALOAD_JSON ' + JSON.stringify(figures))
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}
