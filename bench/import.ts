/**
 * Import of a 5,000-row dictionary (issue 4 item 9), as ratios against the bare parse of the same
 * file measured in the same run (DESIGN §8: an import may take ≤ 1.5× the bare parse of a large
 * xlsx; 1.46× was reached there at 100 k × 20).
 *
 * A temp SQLite file (WAL, as in production) gets all migrations, the reference data and a user.
 * Three files of 5,000 rows are generated: our layout as CSV and as xlsx, and a REDCap data
 * dictionary CSV (20 forms, so 20 CRFs too). For each, alternating within every run:
 *   - parse:  the bare parse of the bytes: csv-parse (sync) for CSV, exceljs' streaming reader
 *             (styles 'cache', what the import uses) for xlsx;
 *   - read:   our reader alone (content sniffing, decoding, the same parsers, cell texts);
 *   - import: POST /api/dictionary/import by app.inject on the real app: multipart, session,
 *             reading, mapping, every rule, the database checks, one transaction writing the
 *             indicators (and CRFs) and the audit row.
 * Every run imports fresh codes (a per-run prefix), so each import writes 5,000 new indicators;
 * the upsert case first imports its file untimed, then times the update of every row.
 * A warm-up run is discarded; each figure is the median over the runs.
 *
 * Run alone with `npx tsx bench/import.ts [--rows N] [--runs N]`, or as part of `npm run bench`
 * (bench/run.ts), which passes its own temp dir.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { ownColumns } from '../contract/dictionaryExchange.ts'
import { buildApp } from '../server/app.ts'
import { connect } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { insertUserWithAccount } from '../server/db/repositories/users.ts'
import { findBuiltinRole } from '../server/db/repositories/roles.ts'
import { superRoleKey } from '../contract/permissions.ts'
import { readCsv } from '../server/services/dictionaryExchange/csv.ts'
import { detectContainer } from '../server/services/dictionaryExchange/formats.ts'
import { redcapColumns } from '../server/services/dictionaryExchange/redcap.ts'
import { readXlsx } from '../server/services/dictionaryExchange/xlsx.ts'
import { hashPassword } from '../server/services/passwordHash.ts'
import { seedReferenceData } from '../server/services/seed.ts'

export interface ImportBenchOptions {
  /** A directory this bench may write its database into; removed by the caller. */
  dir: string
  rows?: number
  runs?: number
  log?: (line: string) => void
}

export interface ImportCase {
  label: string
  bytes: number
  rows: number
  indicators: number
  templates: number
  parseMs: number
  readMs: number
  importMs: number
  /** The headline: the whole import through the API over the bare parse. */
  importOverParse: number
  readOverParse: number
  rowsPerSecond: number
}

export interface ImportBenchFigures {
  rows: number
  runs: number
  cases: ImportCase[]
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

const csvCell = (v: string | number | null) => {
  const s = v === null ? '' : String(v)
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}
const csvText = (rows: (string | number | null)[][]) => '\uFEFF' + rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n'

/** Our layout: the five kinds of field in turn, one in five depending on a choice three rows up. */
function ownRows(n: number, prefix: string): (string | number | null)[][] {
  const out: (string | number | null)[][] = [[...ownColumns]]
  for (let i = 0; i < n; i++) {
    const code = `${prefix}f${i}`
    const base = {
      code,
      nameZh: `指标${i}`,
      nameEn: `Indicator ${i}`,
      comment: `第${i}个指标的说明`,
      indexClass: `分类${i % 50}`,
      category: 'all',
      disease: '肺癌',
      status: 1,
    }
    let row: Record<string, string | number | null>
    switch (i % 5) {
      case 0:
        row = { type: 'blank', display: 'input', dataType: 'integer', unit: 'mmHg', minimum: 0, maximum: 300, defaultValue: '120' }
        break
      case 1:
        row = { type: 'single', display: 'radio', options: '无|轻度|中度|重度', defaultValue: '无' }
        break
      case 2:
        row = { type: 'multiple', display: 'checkbox', options: '高血压|糖尿病|冠心病|其他' }
        break
      case 3:
        row = { type: 'date', display: 'input', dateFormat: 'YYYY-MM-DD' }
        break
      default:
        row = { type: 'blank', display: 'textarea', dependentCode: `${prefix}f${i - 3}`, dependentValue: '重度' }
    }
    const all: Record<string, string | number | null> = { ...base, ...row }
    out.push(ownColumns.map((c) => all[c] ?? null))
  }
  return out
}

/** A REDCap dictionary of 20 forms: text / integer / number / date, radio, checkbox, dropdown, yesno, notes, a calc now and then, simple branching. */
function redcapRows(n: number, prefix: string): string[][] {
  const out: string[][] = [redcapColumns.map((c) => c.header)]
  const perForm = Math.ceil(n / 20)
  for (let i = 0; i < n; i++) {
    const form = `${prefix}form_${Math.floor(i / perForm)}`
    const r: Record<string, string> = {
      field_name: `${prefix}v${i}`,
      form_name: form,
      section_header: i % 25 === 0 ? `Section ${i / 25}` : '',
      field_label: `Question ${i}`,
      required_field: i % 3 === 0 ? 'y' : '',
    }
    switch (i % 10) {
      case 0:
        Object.assign(r, {
          field_type: 'text',
          text_validation_type_or_show_slider_number: 'integer',
          text_validation_min: '0',
          text_validation_max: '150',
        })
        break
      case 1:
        Object.assign(r, { field_type: 'radio', select_choices_or_calculations: '1, Male | 2, Female' })
        break
      case 2:
        Object.assign(r, {
          field_type: 'checkbox',
          select_choices_or_calculations: '1, Diabetes | 2, Hypertension | 3, Asthma | 99, Other',
        })
        break
      case 3:
        Object.assign(r, { field_type: 'dropdown', select_choices_or_calculations: '0, Never | 1, Former | 2, Current' })
        break
      case 4:
        Object.assign(r, { field_type: 'yesno', branching_logic: `[${prefix}v${i - 3}] = '2'` })
        break
      case 5:
        Object.assign(r, { field_type: 'text', text_validation_type_or_show_slider_number: 'date_ymd' })
        break
      case 6:
        Object.assign(r, {
          field_type: 'text',
          text_validation_type_or_show_slider_number: 'number',
          text_validation_min: '0.5',
          text_validation_max: '300',
        })
        break
      case 7:
        Object.assign(
          r,
          i % 50 === 7
            ? { field_type: 'calc', select_choices_or_calculations: `[${prefix}v${i - 1}] * 2` }
            : { field_type: 'notes', field_note: 'Free text' },
        )
        break
      case 8:
        Object.assign(r, { field_type: 'text', branching_logic: `[${prefix}v${i - 6}(99)] = '1'` })
        break
      default:
        Object.assign(r, { field_type: 'truefalse', field_annotation: "@DEFAULT='1'" })
    }
    out.push(redcapColumns.map((c) => r[c.key] ?? ''))
  }
  return out
}

async function xlsxBuffer(rows: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('dictionary')
  for (const r of rows) ws.addRow(r)
  return Buffer.from(await wb.xlsx.writeBuffer())
}

/** exceljs' streaming reader over every row, cell values only: what the import's reading costs at least. */
async function bareXlsx(data: Buffer): Promise<number> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  })
  let n = 0
  for await (const sheet of reader) {
    for await (const row of sheet) if (row.values) n++
    break
  }
  return n - 1 // the header row
}

function multipart(filename: string, data: Buffer) {
  const boundary = '----bench' + Math.random().toString(16).slice(2)
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  )
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

interface CaseDef {
  label: string
  filename: string
  /** A file with codes (and forms) of its own for run r. */
  make: (prefix: string) => Promise<Buffer>
  parse: (data: Buffer) => Promise<number>
  read: (data: Buffer, filename: string) => Promise<number>
  /** Imported untimed first: the timed import then updates what it wrote (mode=upsert). */
  seed?: (prefix: string) => Promise<Buffer>
}

export async function runImportBench(opts: ImportBenchOptions): Promise<ImportBenchFigures> {
  const n = opts.rows ?? 5000
  const runs = opts.runs ?? 5
  const log = opts.log ?? (() => {})
  const dbFile = path.join(opts.dir, 'import-bench.db')
  const db = connect(`sqlite:${dbFile}`)
  await migrateToLatest(db)
  await seedReferenceData(db.kysely, new Date())
  const app = await buildApp({ db, staticRoot: null })
  try {
    await insertUserWithAccount(db.kysely, {
      name: 'Importer',
      username: 'importer',
      passwordHash: await hashPassword('Import2024'),
      roleIds: [(await findBuiltinRole(db.kysely, superRoleKey))!.id],
      now: new Date().toISOString(),
    })
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: 'importer', password: 'Import2024', platform: 'bench' },
    })
    const token = (signIn.json() as { data?: { token?: string } }).data?.token
    if (!token) throw new Error(`sign-in failed: ${signIn.body}`)

    const csvParse = async (data: Buffer) => (parse(data, { bom: true, relax_column_count: true }) as unknown[]).length - 1
    const ourRead = async (data: Buffer, filename: string) => {
      const container = await detectContainer(data, filename, undefined)
      return (container === 'xlsx' ? await readXlsx(data) : await readCsv(data)).rows.length
    }
    const cases: CaseDef[] = [
      {
        label: 'ours, CSV (UTF-8 BOM)',
        filename: 'dictionary.csv',
        make: async (p) => Buffer.from(csvText(ownRows(n, p)), 'utf8'),
        parse: csvParse,
        read: ourRead,
      },
      { label: 'ours, xlsx', filename: 'dictionary.xlsx', make: (p) => xlsxBuffer(ownRows(n, p)), parse: bareXlsx, read: ourRead },
      {
        label: 'REDCap CSV, 20 forms',
        filename: 'redcap.csv',
        make: async (p) => Buffer.from(csvText(redcapRows(n, p)), 'utf8'),
        parse: csvParse,
        read: ourRead,
      },
      {
        label: 'ours, CSV, upsert: every name edited',
        filename: 'dictionary.csv',
        seed: async (p) => Buffer.from(csvText(ownRows(n, p)), 'utf8'),
        make: async (p) =>
          Buffer.from(
            csvText(ownRows(n, p).map((r, i) => (i === 0 ? r : r.map((v, j) => (ownColumns[j] === 'nameZh' ? `${v}改` : v))))),
            'utf8',
          ),
        parse: csvParse,
        read: ourRead,
      },
    ]

    const out: ImportCase[] = []
    for (const [ci, c] of cases.entries()) {
      const times = { parse: [] as number[], read: [] as number[], import: [] as number[] }
      let last = { bytes: 0, indicators: 0, templates: 0 }
      for (let run = 0; run <= runs; run++) {
        const data = await c.make(`c${ci}r${run}_`)
        let t0 = performance.now()
        const parsed = await c.parse(data)
        const parseMs = performance.now() - t0
        if (parsed !== n) throw new Error(`${c.label}: the bare parse saw ${parsed} rows, not ${n}`)
        t0 = performance.now()
        const read = await c.read(data, c.filename)
        const readMs = performance.now() - t0
        if (read !== n) throw new Error(`${c.label}: our reader saw ${read} rows, not ${n}`)
        if (c.seed) {
          const seed = multipart(c.filename, await c.seed(`c${ci}r${run}_`))
          const seeded = await app.inject({
            method: 'POST',
            url: '/api/dictionary/import',
            payload: seed.payload,
            headers: { 'content-type': seed.contentType, 'kr-d-token': token },
          })
          if (seeded.statusCode !== 200)
            throw new Error(`${c.label}: seed import answered ${seeded.statusCode} ${seeded.body.slice(0, 300)}`)
        }
        const { payload, contentType } = multipart(c.filename, data)
        const url = c.seed ? '/api/dictionary/import?mode=upsert' : '/api/dictionary/import'
        t0 = performance.now()
        const res = await app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType, 'kr-d-token': token } })
        const importMs = performance.now() - t0
        if (res.statusCode !== 200) throw new Error(`${c.label}: import answered ${res.statusCode} ${res.body.slice(0, 300)}`)
        const body = res.json() as { data: { indicators: number; templates: number } }
        if (body.data.indicators !== n) throw new Error(`${c.label}: imported ${body.data.indicators} indicators, not ${n}`)
        last = { bytes: data.length, indicators: body.data.indicators, templates: body.data.templates }
        // Run 0 warms up parsers, the JIT and SQLite's page cache: not counted.
        if (run === 0) continue
        times.parse.push(parseMs)
        times.read.push(readMs)
        times.import.push(importMs)
      }
      const parseMs = median(times.parse)
      const readMs = median(times.read)
      const importMs = median(times.import)
      const row: ImportCase = {
        label: c.label,
        bytes: last.bytes,
        rows: n,
        indicators: last.indicators,
        templates: last.templates,
        parseMs,
        readMs,
        importMs,
        importOverParse: importMs / parseMs,
        readOverParse: readMs / parseMs,
        rowsPerSecond: n / (importMs / 1000),
      }
      log(`${c.label}: parse ${parseMs.toFixed(1)} ms, read ${readMs.toFixed(1)} ms, import ${importMs.toFixed(1)} ms`)
      out.push(row)
    }
    return { rows: n, runs, cases: out }
  } finally {
    await app.close()
    await db.close()
  }
}

const fmt = (x: number, digits = 1) => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

export function printImportBench(f: ImportBenchFigures): void {
  const rows = [
    [`import, ${fmt(f.rows, 0)} rows`, 'size', 'parse ms', 'our read ms', 'API import ms', 'read/parse', 'import/parse', 'rows/s'],
    ...f.cases.map((c) => [
      c.label + (c.templates ? ` → ${c.templates} CRFs` : ''),
      `${fmt(c.bytes / 1e6, 2)} MB`,
      fmt(c.parseMs),
      fmt(c.readMs),
      fmt(c.importMs),
      fmt(c.readOverParse, 2),
      fmt(c.importOverParse, 2),
      fmt(c.rowsPerSecond, 0),
    ]),
  ]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]) =>
    '│ ' + r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' │ ') + ' │'
  const rule = (l: string, m: string, r: string) => l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r
  console.log('\n' + [rule('┌', '┬', '┐'), line(rows[0]!), rule('├', '┼', '┤'), ...rows.slice(1).map(line), rule('└', '┴', '┘')].join('\n'))
  for (const c of f.cases)
    console.log(`  ${c.label}: import / bare parse = ${fmt(c.importOverParse, 2)}  (${fmt(c.importMs)} vs ${fmt(c.parseMs)} ms)`)
  console.log(
    `  (medians of ${f.runs} runs after a warm-up; SQLite file in WAL mode; import = POST /api/dictionary/import by app.inject, everything included)`,
  )
}

// Alone: `npx tsx bench/import.ts [--rows N] [--runs N]`.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '5000' }, runs: { type: 'string', default: '5' } } })
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'))
  try {
    const figures = await runImportBench({
      dir,
      rows: Number(values.rows),
      runs: Number(values.runs),
      log: (l) => console.log(`bench: ${l}`),
    })
    printImportBench(figures)
    console.log('BENCH_IMPORT_JSON ' + JSON.stringify(figures))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
