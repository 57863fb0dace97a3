/**
 * `npm run bench`: the performance figures of DESIGN.md §7-§8, as ratios against a bare route
 * of the same server measured in the same run (issue 2 item 11).
 *
 * The real server (SQLite in a temp dir, all migrations, real scrypt) runs in a child process
 * (bench/server.ts) so that autocannon, here, does not compete with it for one event loop.
 * Each route gets a warm-up run whose figures are discarded, then a measured run of fixed length.
 *
 * Then the client (bench/palette.ts): the first-load bundle of a fresh build (gzip of the JS and
 * CSS index.html loads) against the 250 kB budget, and in headless Chromium the palette's open to
 * first paint and time per keystroke over 5,000 entries, as ratios against a plain cmdk list of
 * the same entries measured in the same run (issue 3 item 10).
 *
 * Timings are never asserted: machines differ, ratios are the point. The exit code is 1 only
 * when something went wrong (the server did not start, a request failed, a non-2xx answer, the
 * build or the browser failed, a list page's plan sorts). A first load over budget is reported,
 * not failed.
 *
 * Options: --duration S (default 5), --warmup S (default 1), --connections N (default 10),
 * --palette-budget S (default 40: the palette starts no new measuring cycle past it).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import {
  closePaletteBench,
  closePaletteBenchSync,
  firstLoadBudgetBytes,
  measureFirstLoad,
  runPaletteBench,
  type BundleFigures,
  type PaletteFigures,
} from './palette.ts'
import { printDictionaryBench, runDictionaryBench, type DictionaryBenchFigures } from './dictionary.ts'
import { printImportBench, runImportBench, type ImportBenchFigures } from './import.ts'
import { printFormSaveBench, runFormSaveBench, type FormSaveBenchFigures } from './formSave.ts'
import { printSubjectBench, runSubjectBench, type SubjectBenchFigures } from './subjects.ts'
import { printDataLoadBench, runDataLoadBench, type DataLoadBenchFigures } from './dataLoad.ts'
import { printDataExportBench, runDataExportBench, type DataExportBenchFigures } from './dataExport.ts'
import { printDataImportBench, runDataImportBench, type DataImportBenchFigures } from './dataImport.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '10' },
    'palette-budget': { type: 'string', default: '40' },
  },
})
const durationS = positive('duration', args.duration)
const warmupS = positive('warmup', args.warmup)
const connections = Math.round(positive('connections', args.connections))
const paletteBudgetS = positive('palette-budget', args['palette-budget'])
/**
 * A safety net well above the normal ~25 s of the server part (~35 s on a machine busy with other
 * work) plus the client part (builds, browser, one palette cycle over the budget: ~60 s): a hung
 * run still ends, and cleans up, without failing a run that is merely slow.
 */
// + 60 s for bench/dictionary.ts: ~5 s to insert 100,000 indicators, ~20 s of measuring, doubled.
// + 60 s for bench/import.ts: 18 imports of 5,000 rows, ~20 s on a busy machine, tripled.
// + 60 s for bench/formSave.ts: 1,200 saves of a 50-field form, ~15 s, quadrupled.
// + 180 s for bench/subjects.ts: ~20 s (SQLite) and ~45 s (PostgreSQL) to insert and index 1,000,000
// subjects, ~10 s of measuring each, doubled.
// + 240 s for bench/dataLoad.ts and bench/dataExport.ts: 100,000-row files parsed and written, ~2 min, doubled.
// + 600 s for bench/dataImport.ts: twelve uploads of 100,000 rows (three each of SQLite and
// PostgreSQL, CSV and xlsx) and eight bare parses, ~5 min on a busy machine, doubled.
const hardLimitMs =
  60_000 + 3 * (warmupS + durationS) * 1000 + 120_000 + paletteBudgetS * 1000 + 60_000 + 60_000 + 60_000 + 180_000 + 240_000 + 600_000

function positive(name: string, raw: string | undefined): number {
  const n = Number(raw)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (got ${raw})`)
  return n
}

// ---------------------------------------------------------------------------------------------
// The server child and cleanup

const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'))
let child: ChildProcess | undefined
let currentCannon: autocannon.Instance | undefined
let cleanedUp = false

function childAlive(): boolean {
  return child !== undefined && child.exitCode === null && child.signalCode === null
}

/** Stops the server (TERM, then KILL after 3 s) and removes the temp dir; safe to call twice. */
async function cleanup(): Promise<void> {
  if (cleanedUp) return
  cleanedUp = true
  currentCannon?.stop()
  if (child && childAlive()) {
    const c = child
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()))
    c.kill('SIGTERM')
    const timer = setTimeout(() => c.kill('SIGKILL'), 3000)
    await exited
    clearTimeout(timer)
  }
  await closePaletteBench()
  fs.rmSync(tmpDir, { recursive: true, force: true })
}

// Last resort if the process leaves by a path that skipped cleanup(): synchronous only.
process.on('exit', () => {
  if (childAlive()) child?.kill('SIGKILL')
  closePaletteBenchSync()
  fs.rmSync(tmpDir, { recursive: true, force: true })
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\nbench: ${signal}, stopping`)
    void cleanup().finally(() => process.exit(130))
  })
}

interface ServerInfo {
  port: number
  userId: number
  pid: number
}

function startServer(env: Record<string, string>): Promise<ServerInfo> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'server.ts')], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    child = c
    const timer = setTimeout(() => reject(new Error('the bench server did not report its port within 20 s')), 20_000)
    c.once('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    c.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (!cleanedUp) console.error(`bench: the server exited unexpectedly (code ${code}, signal ${signal})`)
      reject(new Error(`the bench server exited early (code ${code}, signal ${signal})`))
    })
    const lines = readline.createInterface({ input: c.stdout! })
    lines.on('line', (line) => {
      if (!line.startsWith('BENCH_SERVER ')) {
        console.log(`[server] ${line}`)
        return
      }
      clearTimeout(timer)
      resolve(JSON.parse(line.slice('BENCH_SERVER '.length)) as ServerInfo)
    })
  })
}

// ---------------------------------------------------------------------------------------------
// Measuring

interface Case {
  key: 'bare' | 'signIn' | 'userInfo'
  label: string
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
}

interface Figures {
  label: string
  route: string
  requests: number
  seconds: number
  rps: number
  latencyMs: { p50: number; p99: number; avg: number; max: number }
  errors: number
  timeouts: number
  non2xx: number
  statusCodes: Record<string, number>
}

function cannon(base: string, c: Case, duration: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    currentCannon = autocannon(
      {
        url: base + c.path,
        method: c.method,
        headers: c.headers ?? {},
        ...(c.body !== undefined ? { body: c.body } : {}),
        connections,
        pipelining: 1,
        duration,
        timeout: 10,
        title: c.key,
      },
      (err: unknown, result) => {
        currentCannon = undefined
        if (err) reject(err instanceof Error ? err : new Error(String(err)))
        else resolve(result)
      },
    )
  })
}

function statusCodes(r: autocannon.Result): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [code, stat] of Object.entries(r.statusCodeStats ?? {})) out[code] = Number(stat?.count ?? 0)
  return out
}

/** Problems in a run (warm-up or measured) as sentences; empty when the run was clean. */
function problems(phase: string, c: Case, r: autocannon.Result): string[] {
  const out: string[] = []
  if (r.errors > 0) out.push(`${c.label} ${phase}: ${r.errors} connection errors (${r.timeouts} timeouts)`)
  if (r.non2xx > 0) out.push(`${c.label} ${phase}: ${r.non2xx} non-2xx answers, status codes ${JSON.stringify(statusCodes(r))}`)
  // A 1 s warm-up of sign-in on a busy machine may finish no hash at all; that is no fault.
  if (phase === 'measured' && r.requests.total === 0) out.push(`${c.label} ${phase}: no request completed`)
  return out
}

function figures(c: Case, r: autocannon.Result): Figures {
  return {
    label: c.label,
    route: `${c.method} ${c.path}`,
    requests: r.requests.total,
    seconds: r.duration,
    // Completed requests over the measured time: exact even at tens per second, where the
    // per-second samples of autocannon would round away most of the precision.
    rps: r.duration > 0 ? r.requests.total / r.duration : 0,
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, avg: r.latency.average, max: r.latency.max },
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes: statusCodes(r),
  }
}

/** One request by hand before the load, so a broken route fails loudly with its body. */
async function check(base: string, c: Case): Promise<Record<string, unknown>> {
  const res = await fetch(base + c.path, {
    method: c.method,
    headers: c.headers ?? {},
    ...(c.body !== undefined ? { body: c.body } : {}),
    signal: AbortSignal.timeout(20_000),
  })
  const text = await res.text()
  let body: Record<string, unknown>
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    throw new Error(`${c.label}: ${res.status}, not JSON: ${text.slice(0, 200)}`)
  }
  if (res.status !== 200 || body.code !== 0) throw new Error(`${c.label}: expected 200 and code 0, got ${res.status} ${text.slice(0, 300)}`)
  return body
}

/**
 * autocannon ends a run by dropping its sockets, but the server still works off what was in
 * flight (for sign-in, up to `connections` scrypt hashes queued in the thread pool: most of a
 * second). One more request of the same kind queues behind them; once it is answered the server
 * is idle again, so the next run does not start with the previous one's backlog.
 */
async function drain(base: string, c: Case): Promise<void> {
  await check(base, c)
}

// ---------------------------------------------------------------------------------------------
// Output

const loadAvg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]) =>
    '│ ' + r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' │ ') + ' │'
  const rule = (l: string, m: string, r: string) => l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r
  return [rule('┌', '┬', '┐'), line(rows[0]!), rule('├', '┼', '┤'), ...rows.slice(1).map(line), rule('└', '┴', '┘')].join('\n')
}

const kB = (bytes: number) => fmt(bytes / 1000, 1) + ' kB'

function printBundle(b: BundleFigures): void {
  const verdict = b.withinBudget ? `within budget, ${kB(b.budget - b.totalGzip)} to spare` : `OVER BUDGET by ${kB(b.totalGzip - b.budget)}`
  console.log(
    `\n  first load (gzip)  = ${kB(b.totalGzip)} of ${kB(firstLoadBudgetBytes)}: ${verdict}  (JS ${kB(b.jsGzip)}, CSS ${kB(b.cssGzip)})`,
  )
  for (const f of b.files) console.log(`    ${f.file.padEnd(44)} ${kB(f.bytes).padStart(10)} → ${kB(f.gzip).padStart(9)} gzip`)
  if (b.englishGzip !== null)
    console.log(
      `    an English session also fetches its dictionary before the first render: ${kB(b.englishGzip)} (${kB(b.totalGzip + b.englishGzip)} in all)`,
    )
}

function printPalette(p: PaletteFigures): void {
  const ms = (n: number) => fmt(n, n < 100 ? 1 : 0)
  const rows = [
    ['palette, ' + fmt(p.entries, 0) + ' entries', 'n', 'ours p50', 'ours p95', 'cmdk p50', 'cmdk p95', 'ours/cmdk p50', 'ours/cmdk p95'],
    ...(
      [
        ['open → first paint, ms', 'open'],
        ['  of it to React commit', 'openCommit'],
        ['keystroke → next paint, ms', 'key'],
        ['  of it to React commit', 'keyCommit'],
      ] as const
    ).map(([label, k]) => {
      const o = p.ours[k]
      const c = p.cmdk[k]
      return [
        label,
        `${o.n}/${c.n}`,
        ms(o.median),
        ms(o.p95),
        ms(c.median),
        ms(c.p95),
        (o.median / c.median).toPrecision(3),
        (o.p95 / c.p95).toPrecision(3),
      ]
    }),
  ]
  console.log('\n' + table(rows))
  console.log(
    `  palette open / plain cmdk       = ${p.ratios.openMedian.toPrecision(3)}  (medians, ${ms(p.ours.open.median)} vs ${ms(p.cmdk.open.median)} ms)`,
  )
  console.log(
    `  palette keystroke / plain cmdk  = ${p.ratios.keyMedian.toPrecision(3)}  (medians, ${ms(p.ours.key.median)} vs ${ms(p.cmdk.key.median)} ms; p95 ratio ${p.ratios.keyP95.toPrecision(3)})`,
  )
  const shown = p.queries.map((q) => `'${q}' ours ${p.ours.itemsAfter[q] ?? '?'}, cmdk ${p.cmdk.itemsAfter[q] ?? '?'}`).join('; ')
  console.log(`  items in the DOM after the full query: ${shown}`)
  console.log(
    `  (Chromium ${p.chromium} headless; ${p.cycles} cycle(s) of ${p.queries.length} queries typed key by key; performance.now() in the page, ` +
      `from the keydown/input event to a setTimeout queued in the first frame after the commit; ${p.wallSeconds.toFixed(1)} s)`,
  )
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = Date.now()
  const username = 'bench'
  const password = 'Bench' + crypto.randomBytes(6).toString('hex') + '7'
  const info = await startServer({
    BENCH_DATABASE_URL: `sqlite:${path.join(tmpDir, 'bench.db')}`,
    BENCH_USERNAME: username,
    BENCH_PASSWORD: password,
    BENCH_TMPDIR: tmpDir,
  })
  const base = `http://127.0.0.1:${info.port}`
  console.log(`bench: server pid ${info.pid} on ${base} (SQLite in ${tmpDir}), started in ${Date.now() - started} ms`)
  console.log(
    `bench: ${connections} connections, ${warmupS} s warm-up + ${durationS} s measured per route; ` +
      `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load average ${loadAvg()}`,
  )
  const loadAtStart = os.loadavg()[0]

  const bare: Case = { key: 'bare', label: 'bare route', method: 'GET', path: '/api/health' }
  const signIn: Case = {
    key: 'signIn',
    label: 'sign-in (scrypt)',
    method: 'POST',
    path: '/api/auth/jwt/token',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, platform: 'bench' }),
  }
  await check(base, bare)
  const signedIn = await check(base, signIn)
  const token = (signedIn.data as { token?: unknown } | undefined)?.token
  if (typeof token !== 'string') throw new Error(`sign-in answered no token: ${JSON.stringify(signedIn)}`)
  const userInfo: Case = {
    key: 'userInfo',
    label: 'user info',
    method: 'GET',
    path: '/api/admin/user/front/info',
    headers: { 'kr-d-token': token },
  }
  const me = await check(base, userInfo)
  if ((me.data as { username?: unknown } | undefined)?.username !== username) {
    throw new Error(`user info answered another user: ${JSON.stringify(me)}`)
  }

  const results: Partial<Record<Case['key'], Figures>> = {}
  const failures: string[] = []
  for (const c of [bare, signIn, userInfo]) {
    process.stdout.write(`bench: ${c.label.padEnd(17)} warm-up… `)
    const warm = await cannon(base, c, warmupS)
    failures.push(...problems('warm-up', c, warm))
    await drain(base, c)
    process.stdout.write('measuring… ')
    const r = await cannon(base, c, durationS)
    failures.push(...problems('measured', c, r))
    await drain(base, c)
    results[c.key] = figures(c, r)
    console.log(`${fmt(results[c.key]!.rps)} req/s`)
  }

  const b = results.bare!
  const s = results.signIn!
  const u = results.userInfo!
  const ratio = (x: Figures) => (b.rps > 0 ? x.rps / b.rps : 0)
  const ratios = { signInOverBare: ratio(s), userInfoOverBare: ratio(u) }

  const rows = [
    ['route', 'req/s', 'vs bare', 'bare is ×', 'p50 ms', 'p99 ms', 'requests', 'non-2xx', 'errors'],
    ...[b, s, u].map((x) => [
      `${x.label}  ${x.route}`,
      fmt(x.rps),
      x === b ? '1' : ratio(x).toPrecision(3),
      x === b ? '1' : fmt(1 / ratio(x), 1),
      fmt(x.latencyMs.p50, 0),
      fmt(x.latencyMs.p99, 0),
      String(x.requests),
      String(x.non2xx),
      String(x.errors),
    ]),
  ]
  console.log('\n' + table(rows))
  console.log(`  sign-in / bare    = ${ratios.signInOverBare.toPrecision(3)}  (${fmt(s.rps)} vs ${fmt(b.rps)} req/s)`)
  console.log(`  user-info / bare  = ${ratios.userInfoOverBare.toPrecision(3)}  (${fmt(u.rps)} vs ${fmt(b.rps)} req/s)`)
  console.log('  (latency is autocannon’s, in whole milliseconds; the load generator runs in this process, the server in another)')
  console.log(`  load average ${loadAvg()} now: other work on this machine moves the figures, the ratios less so`)

  // The client: first-load bundle, then the palette in Chromium (bench/palette.ts).
  const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err))
  let bundle: BundleFigures | undefined
  let palette: PaletteFigures | undefined
  process.stdout.write('\nbench: building the app for the first-load figure… ')
  try {
    bundle = await measureFirstLoad()
    console.log(`${bundle.wallSeconds.toFixed(1)} s`)
  } catch (err) {
    console.log('failed')
    failures.push(`first-load bundle: ${errorText(err)}`)
  }
  console.log(`bench: palette, ours vs plain cmdk in Chromium (up to ${paletteBudgetS} s of measuring)…`)
  try {
    palette = await runPaletteBench({ budgetSeconds: paletteBudgetS, log: (line) => console.log(`bench: ${line}`) })
  } catch (err) {
    failures.push(`palette: ${errorText(err)}`)
  } finally {
    await closePaletteBench()
  }
  if (bundle) printBundle(bundle)
  if (palette) printPalette(palette)
  // The dictionary list at 100,000 indicators: API pages vs the best keyset page (bench/dictionary.ts).
  let dictionary: DictionaryBenchFigures | undefined
  console.log('\nbench: dictionary list, 100,000 indicators: API pages vs the best keyset page the database serves…')
  try {
    dictionary = await runDictionaryBench({ dir: tmpDir, runs: 7, iterations: 20, log: (line) => console.log(`bench: ${line}`) })
    printDictionaryBench(dictionary)
    if (dictionary.apiPlanSorts) failures.push(`dictionary: the page's plan sorts (${dictionary.plans.api.join(' | ')})`)
  } catch (err) {
    failures.push(`dictionary: ${errorText(err)}`)
  }
  // Import of a 5,000-row dictionary vs the bare parse of the same file (bench/import.ts).
  let importBench: ImportBenchFigures | undefined
  console.log('\nbench: dictionary import, 5,000 rows: API import vs the bare parse of the same file…')
  try {
    importBench = await runImportBench({ dir: tmpDir, log: (line) => console.log(`bench: ${line}`) })
    printImportBench(importBench)
  } catch (err) {
    failures.push(`import: ${errorText(err)}`)
  }
  // The save of one 50-field form through the API vs its raw inserts (bench/formSave.ts).
  let formSave: FormSaveBenchFigures | undefined
  console.log('\nbench: save of one 50-field form: API vs its raw inserts…')
  try {
    formSave = await runFormSaveBench({ dir: tmpDir, log: (line) => console.log(`bench: ${line}`) })
    printFormSaveBench(formSave)
  } catch (err) {
    failures.push(`form save: ${errorText(err)}`)
  }
  // The subject list at 1,000,000 subjects: API pages vs the best keyset page (bench/subjects.ts).
  let subjects: SubjectBenchFigures | undefined
  console.log(
    '\nbench: subject list, 1,000,000 subjects on SQLite and PostgreSQL: center-scoped, filtered, sorted API pages vs the best keyset page…',
  )
  try {
    subjects = await runSubjectBench({ dir: tmpDir, runs: 7, iterations: 20, log: (line) => console.log(`bench: ${line}`) })
    printSubjectBench(subjects)
    for (const d of [subjects.sqlite, subjects.postgres]) {
      if (d?.apiPlanSorts)
        failures.push(`subjects: ${d.database}: the page's plan sorts (${[...d.plans.apiFirst, ...d.plans.apiLast].join(' | ')})`)
      if (d?.bestPlanSorts) failures.push(`subjects: ${d.database}: the best page's plan sorts (${d.plans.best.join(' | ')})`)
    }
  } catch (err) {
    failures.push(`subjects: ${errorText(err)}`)
  }
  // Data loading at 100,000 rows × 20 fields: reading an upload vs the bare parse (bench/dataLoad.ts).
  let dataLoad: DataLoadBenchFigures | undefined
  console.log('\nbench: data upload, 100,000 rows × 20 fields: our reader vs the bare exceljs / csv-parse parse…')
  try {
    // Three runs: with one, a slow worker start once read as 1.66× against the 1.2× of its reruns.
    dataLoad = await runDataLoadBench({ dir: tmpDir, rows: 100_000, runs: 3, log: (line) => console.log(`bench: ${line}`) })
    printDataLoadBench(dataLoad)
  } catch (err) {
    failures.push(`data load: ${errorText(err)}`)
  }
  // The whole upload of 100,000 rows through the API vs the bare parse (bench/dataImport.ts).
  let dataImport: DataImportBenchFigures | undefined
  console.log(
    '\nbench: data upload through the API, 100,000 rows × 20 fields, CSV and xlsx, SQLite and PostgreSQL: checked and written in one transaction vs the bare parse…',
  )
  try {
    dataImport = await runDataImportBench({ dir: tmpDir, log: (line) => console.log(`bench: ${line}`) })
    printDataImportBench(dataImport)
  } catch (err) {
    failures.push(`data import: ${errorText(err)}`)
  }
  // Data download of 100,000 subjects × 20 fields vs plain writers of the same cells (bench/dataExport.ts).
  let dataExport: DataExportBenchFigures | undefined
  console.log('\nbench: data download, 100,000 subjects × 20 fields: xlsx / CSV vs plain writers, ODM vs CSV…')
  try {
    dataExport = await runDataExportBench({ dir: tmpDir, log: (line) => console.log(`bench: ${line}`) })
    printDataExportBench(dataExport)
  } catch (err) {
    failures.push(`data export: ${errorText(err)}`)
  }
  const importRatio = (database: 'SQLite' | 'PostgreSQL', format: 'csv' | 'xlsx') =>
    dataImport?.cases.find((c) => c.database === database && c.format === format)?.ratio ?? null
  const allRatios = {
    ...ratios,
    dictionaryPageOverBestKeyset: dictionary?.ratios.apiOverBest ?? null,
    subjectLastPageOverBestKeyset: subjects?.sqlite.ratios.lastOverBest ?? null,
    subjectPostgresLastPageOverBestKeyset: subjects?.postgres?.ratios.lastOverBest ?? null,
    importCsvOverParse: importBench?.cases[0]?.importOverParse ?? null,
    importXlsxOverParse: importBench?.cases[1]?.importOverParse ?? null,
    importRedcapOverParse: importBench?.cases[2]?.importOverParse ?? null,
    formSaveOverRaw: formSave?.apiOverRaw ?? null,
    formSaveOwnWorkOverRaw: formSave?.saveOverRaw ?? null,
    dataReadXlsxOverParse: dataLoad?.cases.find((c) => c.label.includes('xlsx'))?.timeRatio ?? null,
    dataReadCsvOverParse: dataLoad?.cases.find((c) => c.label.includes('CSV') || c.label.includes('csv'))?.timeRatio ?? null,
    dataImportCsvOverParse: importRatio('SQLite', 'csv'),
    dataImportXlsxOverParse: importRatio('SQLite', 'xlsx'),
    dataImportXlsxRssOverParser: dataImport?.cases.find((c) => c.database === 'SQLite' && c.format === 'xlsx')?.rssRatio ?? null,
    dataImportPostgresCsvOverParse: importRatio('PostgreSQL', 'csv'),
    dataImportPostgresXlsxOverParse: importRatio('PostgreSQL', 'xlsx'),
    dataExportXlsxOverPlain: dataExport?.xlsx.ratio ?? null,
    dataExportCsvOverPlain: dataExport?.csv.ratio ?? null,
    dataExportOdmOverCsv: dataExport?.odm.ratio ?? null,
    dataExportRss100kOver10k: dataExport?.rss.ratio ?? null,
    paletteOpenOverCmdk: palette?.ratios.openMedian ?? null,
    paletteKeystrokeOverCmdk: palette?.ratios.keyMedian ?? null,
  }

  const ok = failures.length === 0
  const json = {
    ok,
    node: process.version,
    cpus: os.cpus().length,
    loadAverage1m: { start: loadAtStart, end: os.loadavg()[0] },
    connections,
    warmupSeconds: warmupS,
    durationSeconds: durationS,
    routes: results,
    ratios: allRatios,
    palette: palette ?? null,
    firstLoad: bundle ?? null,
    dictionary: dictionary ?? null,
    import: importBench ?? null,
    formSave: formSave ?? null,
    subjects: subjects ?? null,
    dataLoad: dataLoad ?? null,
    dataImport: dataImport ?? null,
    dataExport: dataExport ?? null,
    failures,
    wallSeconds: (Date.now() - started) / 1000,
  }
  console.log('BENCH_JSON ' + JSON.stringify(json))
  if (!ok) {
    console.error('\nbench: FAILED')
    for (const f of failures) console.error('  ' + f)
  }
  return ok ? 0 : 1
}

const hardLimit = setTimeout(() => {
  console.error(`bench: still running after ${hardLimitMs / 1000} s, giving up`)
  void cleanup().finally(() => process.exit(1))
}, hardLimitMs)
hardLimit.unref()

let exitCode = 1
try {
  exitCode = await main()
} catch (err) {
  console.error('bench: error:', err instanceof Error ? err.message : err)
  exitCode = 1
} finally {
  await cleanup()
}
process.exit(exitCode)
