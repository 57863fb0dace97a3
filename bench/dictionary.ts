/**
 * The dictionary list at scale (issue 4 item 9): one sorted, filtered page of 100,000 indicators
 * through the API, as a ratio against the same page by raw SQL in the same run.
 *
 * A temp SQLite file gets all migrations and 100,000 indicators (multi-row inserts in one
 * transaction, straight through better-sqlite3: that is setup, not measured). Then, alternating
 * within every run so that both see the same machine:
 *   - api:      GET /api/dictionary/indicators?sort=nameZh&category=object&limit=50&after=<cursor>
 *               by app.inject on the real app: session check, zod on the way in and out, Kysely,
 *               the page, the published-version lookup of its rows and the COUNT for `total`;
 *   - raw:      the same three statements, prepared, on a second better-sqlite3 connection;
 *   - raw page: the keyset SELECT alone, and raw count: the COUNT alone (what `total` costs);
 *   - api first page: the same request without a cursor (keyset: depth should not matter).
 * The cursor points 90 % deep into the filtered list. Each figure is the median over the runs of
 * the mean time of one call in that run.
 *
 * Run alone with `npx tsx bench/dictionary.ts [--rows N] [--runs N] [--iterations N]`, or as
 * part of `npm run bench` (bench/run.ts), which passes its own temp dir.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import SQLite from 'better-sqlite3'
import { buildApp } from '../server/app.ts'
import { connect } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { insertUser } from '../server/db/repositories/users.ts'
import { encodeCursor } from '../server/services/indicators.ts'
import { hashPassword } from '../server/services/passwordHash.ts'
import { seedReferenceData } from '../server/services/seed.ts'
import { indexCategories } from '../contract/dictionary.ts'

export interface DictionaryBenchOptions {
  /** A directory this bench may write its database into; removed by the caller. */
  dir: string
  rows?: number
  runs?: number
  iterations?: number
  log?: (line: string) => void
}

interface Timing {
  /** Median over the runs of the mean milliseconds per call. */
  medianMs: number
  runsMs: number[]
}

export interface DictionaryBenchFigures {
  rows: number
  filteredRows: number
  depth: number
  limit: number
  request: string
  insertSeconds: number
  api: Timing
  apiFirstPage: Timing
  raw: Timing
  rawPage: Timing
  rawCount: Timing
  ratios: {
    /** The headline: the API page over the same SQL run raw. */
    apiOverRaw: number
    apiOverRawPage: number
    deepOverFirstPage: number
    countShareOfRaw: number
  }
  plan: string[]
  runs: number
  iterations: number
}

/** mulberry32: the same 100,000 indicators on every run and machine. */
function random(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const hanzi = '血压心率体温呼吸脉搏白细胞红蛋白小板淋巴中性粒单核酸碱性磷酶谷丙草转氨总胆红素直接间肌酐尿素氮糖化钾钠氯钙镁铁蛋白前清球'
const words = ['blood', 'pressure', 'heart', 'rate', 'white', 'cell', 'count', 'serum', 'total', 'protein', 'glucose', 'urea', 'creatinine', 'lymph']
const types = [
  { type: 'single', display: 'radio', options: JSON.stringify(['是', '否'].map((l, i) => ({ code: String(i + 1), labelZh: l, labelEn: '' }))) },
  { type: 'multiple', display: 'checkbox', options: JSON.stringify(['甲', '乙', '丙'].map((l, i) => ({ code: String(i + 1), labelZh: l, labelEn: '' }))) },
  { type: 'blank', display: 'input', options: '[]' },
  { type: 'date', display: 'input', options: '[]' },
] as const

const columns = [
  'code', 'name_zh', 'name_en', 'comment', 'type', 'display', 'data_type', 'options', 'unit', 'date_format',
  'status', 'index_class', 'category', 'disease_id', 'created_at', 'updated_at',
] as const

/** 100,000 rows in batches of 500, one transaction; answers seconds. */
function fill(file: string, rows: number): number {
  const started = performance.now()
  const db = new SQLite(file)
  const next = random(20261126)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!
  const batch = 500
  const placeholders = (n: number) => Array.from({ length: n }, () => `(${columns.map(() => '?').join(',')})`).join(',')
  const full = db.prepare(`INSERT INTO indicator (${columns.join(',')}) VALUES ${placeholders(batch)}`)
  const diseaseIds = (db.prepare('SELECT id FROM disease').all() as { id: number }[]).map((r) => r.id)
  const classes = Array.from({ length: 40 }, (_, i) => `分类${i}`)
  const base = Date.UTC(2025, 0, 1)
  db.transaction(() => {
    for (let start = 0; start < rows; start += batch) {
      const n = Math.min(batch, rows - start)
      const values: (string | number | null)[] = []
      for (let i = start; i < start + n; i++) {
        const t = types[i % types.length]!
        const nameLength = 2 + Math.floor(next() * 5)
        const at = new Date(base + Math.floor(next() * 3e10)).toISOString()
        values.push(
          `IND${String(i).padStart(6, '0')}`,
          Array.from({ length: nameLength }, () => pick([...hanzi])).join(''),
          `${pick(words)} ${pick(words)} ${i % 97}`,
          '',
          t.type,
          t.display,
          'text',
          t.options,
          '',
          t.type === 'date' ? 'YYYY-MM-DD' : null,
          next() < 0.9 ? 1 : 0,
          pick(classes),
          pick(indexCategories),
          next() < 0.8 ? pick(diseaseIds) : null,
          at,
          at,
        )
      }
      const stmt = n === batch ? full : db.prepare(`INSERT INTO indicator (${columns.join(',')}) VALUES ${placeholders(n)}`)
      stmt.run(values)
    }
  })()
  db.close()
  return (performance.now() - started) / 1000
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

export async function runDictionaryBench(opts: DictionaryBenchOptions): Promise<DictionaryBenchFigures> {
  const rows = opts.rows ?? 100_000
  const runs = opts.runs ?? 7
  const iterations = opts.iterations ?? 40
  const log = opts.log ?? (() => {})
  const file = path.join(opts.dir, 'dictionary.db')
  const limit = 50
  const category = 'object'

  const db = connect(`sqlite:${file}`)
  const raw = new SQLite(file, { readonly: true })
  let app: Awaited<ReturnType<typeof buildApp>> | undefined
  try {
    await migrateToLatest(db)
    await seedReferenceData(db.kysely, new Date())
    const insertSeconds = fill(file, rows)
    log(`dictionary: ${rows.toLocaleString('en-US')} indicators inserted in ${insertSeconds.toFixed(2)} s`)

    app = await buildApp({ db, staticRoot: null })
    await app.ready()
    const at = new Date().toISOString()
    const password = 'Bench' + Math.random().toString(36).slice(2, 10) + '7'
    await insertUser(db.kysely, { username: 'dictbench', name: 'Dictionary bench', password_hash: await hashPassword(password), created_at: at, updated_at: at })
    const signIn = await app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username: 'dictbench', password, platform: 'bench' } })
    const token = (signIn.json() as { data?: { token?: string } }).data?.token
    if (!token) throw new Error(`dictionary bench: sign-in failed: ${signIn.body}`)

    // The statements the service runs for this page, as the SQL one would write by hand.
    const pageSql = raw.prepare(`SELECT * FROM indicator WHERE category = ? AND (name_zh, id) > (?, ?) ORDER BY name_zh, id LIMIT ${limit + 1}`)
    const countSql = raw.prepare('SELECT count(*) AS n FROM indicator WHERE category = ?')
    const filteredRows = (countSql.get(category) as { n: number }).n
    const depth = Math.floor(filteredRows * 0.9)
    // Finding the cursor row by OFFSET is setup, done once.
    const anchor = raw.prepare('SELECT name_zh, id FROM indicator WHERE category = ? ORDER BY name_zh, id LIMIT 1 OFFSET ?').get(category, depth - 1) as {
      name_zh: string
      id: number
    }
    const after = encodeCursor(anchor.name_zh, anchor.id)
    const inUseSql = (n: number) =>
      raw.prepare(
        'SELECT DISTINCT template_item.indicator_id FROM template_item INNER JOIN template_version ON template_version.id = template_item.version_id ' +
          `WHERE template_version.state = 'published' AND template_item.indicator_id IN (${Array.from({ length: n }, () => '?').join(',')})`,
      )
    const inUse = inUseSql(limit)
    const plan = (raw.prepare(`EXPLAIN QUERY PLAN SELECT * FROM indicator WHERE category = ? AND (name_zh, id) > (?, ?) ORDER BY name_zh, id LIMIT ${limit + 1}`).all(category, anchor.name_zh, anchor.id) as { detail: string }[]).map(
      (r) => r.detail,
    )

    const query = { sort: 'nameZh', order: 'asc', category, limit: String(limit) }
    const request = `GET /api/dictionary/indicators?${new URLSearchParams({ ...query, after: '…' }).toString().replace('%E2%80%A6', '<cursor>')}`
    const headers = { 'kr-d-token': token }
    let checked = false
    const apiCall = async (withCursor: boolean) => {
      const res = await app!.inject({ method: 'GET', url: '/api/dictionary/indicators', query: withCursor ? { ...query, after } : query, headers })
      if (res.statusCode !== 200) throw new Error(`dictionary bench: ${res.statusCode} ${res.body.slice(0, 300)}`)
      if (!checked) {
        // Once: the API answers the very rows the raw SQL does, with the same total.
        const body = res.json() as { data: { rows: { id: number }[]; total: number } }
        const rawIds = (pageSql.all(category, anchor.name_zh, anchor.id) as { id: number }[]).slice(0, limit).map((r) => r.id)
        if (JSON.stringify(body.data.rows.map((r) => r.id)) !== JSON.stringify(rawIds) || body.data.total !== filteredRows) {
          throw new Error('dictionary bench: the API page differs from the raw SQL page')
        }
        checked = true
      }
    }
    const rawPage = () => pageSql.all(category, anchor.name_zh, anchor.id)
    const rawCount = () => countSql.get(category)
    const rawAll = () => {
      const page = (rawPage() as { id: number }[]).slice(0, limit)
      inUse.all(...page.map((r) => r.id))
      rawCount()
    }

    const variants = {
      api: () => apiCall(true),
      apiFirstPage: () => apiCall(false),
      raw: rawAll,
      rawPage,
      rawCount,
    }
    type Key = keyof typeof variants
    const samples: Record<Key, number[]> = { api: [], apiFirstPage: [], raw: [], rawPage: [], rawCount: [] }
    // Warm-up: page caches of both connections, the JIT, prepared statements.
    for (const fn of Object.values(variants)) for (let i = 0; i < 10; i++) await fn()
    for (let run = 0; run < runs; run++) {
      for (const key of Object.keys(variants) as Key[]) {
        const fn = variants[key]
        const started = performance.now()
        for (let i = 0; i < iterations; i++) await fn()
        samples[key].push((performance.now() - started) / iterations)
      }
    }
    const timing = (key: Key): Timing => ({ medianMs: median(samples[key]), runsMs: samples[key] })
    const figures: DictionaryBenchFigures = {
      rows,
      filteredRows,
      depth,
      limit,
      request,
      insertSeconds,
      api: timing('api'),
      apiFirstPage: timing('apiFirstPage'),
      raw: timing('raw'),
      rawPage: timing('rawPage'),
      rawCount: timing('rawCount'),
      ratios: { apiOverRaw: 0, apiOverRawPage: 0, deepOverFirstPage: 0, countShareOfRaw: 0 },
      plan,
      runs,
      iterations,
    }
    figures.ratios = {
      apiOverRaw: figures.api.medianMs / figures.raw.medianMs,
      apiOverRawPage: figures.api.medianMs / figures.rawPage.medianMs,
      deepOverFirstPage: figures.api.medianMs / figures.apiFirstPage.medianMs,
      countShareOfRaw: figures.rawCount.medianMs / figures.raw.medianMs,
    }
    return figures
  } finally {
    raw.close()
    await app?.close()
    await db.close()
  }
}

export function printDictionaryBench(f: DictionaryBenchFigures): void {
  const ms = (t: Timing) => t.medianMs.toFixed(3).padStart(8) + ' ms'
  console.log(`\n  dictionary: ${f.rows.toLocaleString('en-US')} indicators (SQLite), ${f.filteredRows.toLocaleString('en-US')} match the filter; page of ${f.limit} at row ${f.depth.toLocaleString('en-US')} of them`)
  console.log(`    ${f.request}`)
  console.log(`    api (app.inject, whole request)        ${ms(f.api)}`)
  console.log(`    api, first page (no cursor)            ${ms(f.apiFirstPage)}`)
  console.log(`    raw SQL: page + in-use + COUNT         ${ms(f.raw)}`)
  console.log(`    raw SQL: keyset page alone             ${ms(f.rawPage)}`)
  console.log(`    raw SQL: COUNT for total alone         ${ms(f.rawCount)}`)
  console.log(`  dictionary page api / raw SQL          = ${f.ratios.apiOverRaw.toPrecision(3)}  (same statements; medians of ${f.runs} runs × ${f.iterations} calls)`)
  console.log(`  dictionary page api / raw keyset page  = ${f.ratios.apiOverRawPage.toPrecision(3)}`)
  console.log(`  dictionary deep page / first page      = ${f.ratios.deepOverFirstPage.toPrecision(3)}`)
  console.log(`  COUNT share of the raw statements      = ${(f.ratios.countShareOfRaw * 100).toFixed(0)} %`)
  console.log(`    plan of the page: ${f.plan.join(' | ')}`)
}

// Alone: `npx tsx bench/dictionary.ts`.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { rows: { type: 'string' }, runs: { type: 'string' }, iterations: { type: 'string' } } })
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dictionary-'))
  try {
    const f = await runDictionaryBench({
      dir,
      rows: values.rows ? Number(values.rows) : undefined,
      runs: values.runs ? Number(values.runs) : undefined,
      iterations: values.iterations ? Number(values.iterations) : undefined,
      log: (line) => console.log(`bench: ${line}`),
    })
    printDictionaryBench(f)
    console.log('BENCH_DICTIONARY_JSON ' + JSON.stringify(f))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
