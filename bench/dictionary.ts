/**
 * The dictionary list at scale (issue 4 item 9, issue 7 item 7): a sorted, filtered page of
 * 100,000 indicators through the API, judged against the best keyset page the database can
 * serve in the same run, at the first, middle and deepest page of the filtered list.
 *
 * A temp SQLite file gets all migrations and 100,000 indicators (multi-row inserts in one
 * transaction, straight through better-sqlite3: that is setup, not measured). Then, alternating
 * within every run so that all see the same machine:
 *   - api:   GET /api/dictionary/indicators?sort=nameZh&category=object&limit=50[&after=<cursor>]
 *            by app.inject on the real app: session check, zod on the way in and out, Kysely,
 *            the page, the published-version lookup of its rows and the COUNT for `total`;
 *   - best:  the keyset page alone as one would write it by hand, prepared on a second
 *            better-sqlite3 connection, forced (INDEXED BY) onto the (category, name_zh, id)
 *            index that serves it in order: no statement of ours, the floor;
 *   - count: the COUNT behind `total` alone, and all: best page + in-use lookup + COUNT raw.
 * The EXPLAIN QUERY PLAN of the exact SQL the repository runs for the page is recorded: it must
 * read an index in order, with no temp B-tree. Each figure is the median over the runs of the
 * mean time of one call in that run.
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
import { indicatorPageQuery } from '../server/db/repositories/indicators.ts'
import { insertUserWithAccount } from '../server/db/repositories/users.ts'
import { findBuiltinRole } from '../server/db/repositories/roles.ts'
import { superRoleKey } from '../contract/permissions.ts'
import { encodeCursor } from '../server/services/keysetCursor.ts'
import { hashPassword } from '../server/services/passwordHash.ts'
import { seedReferenceData } from '../server/services/seed.ts'
import { indexCategories } from '../contract/dictionary.ts'
import type { ListScope } from '../server/db/scope.ts'

/** The plans are those of a caller who sees every row: the scope adds no condition. */
const everyRow: ListScope = { kind: 'all' }

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

const depthNames = ['first', 'middle', 'deepest'] as const
type DepthName = (typeof depthNames)[number]

interface DepthFigures {
  /** Rows of the filtered list before the page. */
  row: number
  api: Timing
  best: Timing
  /** api over best: what the API adds to the best page, COUNT and in-use lookup included. */
  apiOverBest: number
}

export interface DictionaryBenchFigures {
  rows: number
  filteredRows: number
  limit: number
  request: string
  insertSeconds: number
  depths: Record<DepthName, DepthFigures>
  rawCount: Timing
  rawAll: Timing
  ratios: {
    /** The headline: the deepest API page over the best keyset page at that depth. */
    apiOverBest: number
    deepOverFirstPage: number
    /** The COUNT's share of a deepest API page. */
    countShareOfApi: number
  }
  plans: { api: string[]; best: string[] }
  /** The API page's plan sorts in a temp B-tree: no index serves it in order. */
  apiPlanSorts: boolean
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
const words = [
  'blood',
  'pressure',
  'heart',
  'rate',
  'white',
  'cell',
  'count',
  'serum',
  'total',
  'protein',
  'glucose',
  'urea',
  'creatinine',
  'lymph',
]
const types = [
  {
    type: 'single',
    display: 'radio',
    options: JSON.stringify(['是', '否'].map((l, i) => ({ code: String(i + 1), labelZh: l, labelEn: '' }))),
  },
  {
    type: 'multiple',
    display: 'checkbox',
    options: JSON.stringify(['甲', '乙', '丙'].map((l, i) => ({ code: String(i + 1), labelZh: l, labelEn: '' }))),
  },
  { type: 'blank', display: 'input', options: '[]' },
  { type: 'date', display: 'input', options: '[]' },
] as const

const columns = [
  'code',
  'name_zh',
  'name_en',
  'comment',
  'type',
  'display',
  'data_type',
  'options',
  'unit',
  'date_format',
  'status',
  'index_class',
  'category',
  'disease_id',
  'created_at',
  'updated_at',
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
  // Setup only: building each index once after the rows is many times faster than keeping some
  // forty of them in order row by row.
  const indexes = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'indicator' AND sql IS NOT NULL")
    .all() as {
    name: string
    sql: string
  }[]
  for (const i of indexes) db.exec(`DROP INDEX ${i.name}`)
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
  for (const i of indexes) db.exec(i.sql)
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
    const password = 'Bench' + Math.random().toString(36).slice(2, 10) + '7'
    await insertUserWithAccount(db.kysely, {
      name: 'Dictionary bench',
      username: 'dictbench',
      passwordHash: await hashPassword(password),
      roleIds: [(await findBuiltinRole(db.kysely, superRoleKey))!.id],
      now: new Date().toISOString(),
    })
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: 'dictbench', password, platform: 'bench' },
    })
    const token = (signIn.json() as { data?: { token?: string } }).data?.token
    if (!token) throw new Error(`dictionary bench: sign-in failed: ${signIn.body}`)

    // The best keyset page: the one index that holds the filter, then the sort, then id.
    const best = 'SELECT * FROM indicator INDEXED BY indicator_category_name_zh_idx WHERE category = ?'
    const bestFirstSql = raw.prepare(`${best} ORDER BY name_zh, id LIMIT ${limit + 1}`)
    const bestAfterSql = raw.prepare(`${best} AND (name_zh, id) > (?, ?) ORDER BY name_zh, id LIMIT ${limit + 1}`)
    const countSql = raw.prepare('SELECT count(*) AS n FROM indicator WHERE category = ?')
    const filteredRows = (countSql.get(category) as { n: number }).n
    // Finding the cursor rows by OFFSET is setup, done once.
    const rowAt = raw.prepare('SELECT name_zh, id FROM indicator WHERE category = ? ORDER BY name_zh, id LIMIT 1 OFFSET ?')
    const anchors = {} as Record<DepthName, { row: number; after: readonly [string, number] | null }>
    for (const [name, row] of [
      ['first', 0],
      ['middle', Math.floor(filteredRows / 2)],
      ['deepest', filteredRows - limit],
    ] as const) {
      const a = row === 0 ? undefined : (rowAt.get(category, row - 1) as { name_zh: string; id: number })
      anchors[name] = { row, after: a ? [a.name_zh, a.id] : null }
    }
    const bestPage = (after: readonly [string, number] | null) =>
      after ? bestAfterSql.all(category, after[0], after[1]) : bestFirstSql.all(category)
    const inUse = raw.prepare(
      'SELECT DISTINCT template_item.indicator_id FROM template_item INNER JOIN template_version ON template_version.id = template_item.version_id ' +
        `WHERE template_version.state = 'published' AND template_item.indicator_id IN (${Array.from({ length: limit }, () => '?').join(',')})`,
    )

    const deepest = anchors.deepest.after
    const explain = (sqlText: string, params: readonly unknown[]) =>
      (raw.prepare(`EXPLAIN QUERY PLAN ${sqlText}`).all(...params) as { detail: string }[]).map((r) => r.detail)
    // The exact statement the repository runs for the deepest page (limit + 1 tells `next`).
    const apiSql = indicatorPageQuery(db.kysely, {
      scope: everyRow,
      filter: { category },
      sort: 'name_zh',
      order: 'asc',
      after: deepest,
      limit: limit + 1,
    }).compile()
    const plans = {
      api: explain(apiSql.sql, apiSql.parameters),
      best: explain(`${best} AND (name_zh, id) > (?, ?) ORDER BY name_zh, id LIMIT ${limit + 1}`, [category, ...deepest!]),
    }

    const query = { sort: 'nameZh', order: 'asc', category, limit: String(limit) }
    const request = `GET /api/dictionary/indicators?${new URLSearchParams({ ...query, after: '…' }).toString().replace('%E2%80%A6', '<cursor>')}`
    const headers = { 'kr-d-token': token }
    const checked = new Set<DepthName>()
    const apiCall = async (name: DepthName) => {
      const after = anchors[name].after
      const res = await app!.inject({
        method: 'GET',
        url: '/api/dictionary/indicators',
        query: after ? { ...query, after: encodeCursor(after[0], after[1]) } : query,
        headers,
      })
      if (res.statusCode !== 200) throw new Error(`dictionary bench: ${res.statusCode} ${res.body.slice(0, 300)}`)
      if (!checked.has(name)) {
        // Once per depth: the API answers the very rows the best page does, with the same total.
        const body = res.json() as { data: { rows: { id: number }[]; total: number } }
        const bestIds = (bestPage(after) as { id: number }[]).slice(0, limit).map((r) => r.id)
        if (JSON.stringify(body.data.rows.map((r) => r.id)) !== JSON.stringify(bestIds) || body.data.total !== filteredRows) {
          throw new Error(`dictionary bench: the API's ${name} page differs from the best keyset page`)
        }
        checked.add(name)
      }
    }
    const rawCount = () => countSql.get(category)
    const rawAll = () => {
      const page = (bestPage(deepest) as { id: number }[]).slice(0, limit)
      inUse.all(...page.map((r) => r.id))
      rawCount()
    }

    const variants: Record<string, () => unknown> = { rawCount, rawAll }
    for (const name of depthNames) {
      variants[`api.${name}`] = () => apiCall(name)
      variants[`best.${name}`] = () => bestPage(anchors[name].after)
    }
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]))
    // Warm-up: page caches of both connections, the JIT, prepared statements.
    for (const fn of Object.values(variants)) for (let i = 0; i < 10; i++) await fn()
    for (let run = 0; run < runs; run++) {
      for (const [key, fn] of Object.entries(variants)) {
        const started = performance.now()
        for (let i = 0; i < iterations; i++) await fn()
        samples[key]!.push((performance.now() - started) / iterations)
      }
    }
    const timing = (key: string): Timing => ({ medianMs: median(samples[key]!), runsMs: samples[key]! })
    const depths = Object.fromEntries(
      depthNames.map((name) => {
        const api = timing(`api.${name}`)
        const bestT = timing(`best.${name}`)
        return [name, { row: anchors[name].row, api, best: bestT, apiOverBest: api.medianMs / bestT.medianMs }]
      }),
    ) as Record<DepthName, DepthFigures>
    const count = timing('rawCount')
    return {
      rows,
      filteredRows,
      limit,
      request,
      insertSeconds,
      depths,
      rawCount: count,
      rawAll: timing('rawAll'),
      ratios: {
        apiOverBest: depths.deepest.apiOverBest,
        deepOverFirstPage: depths.deepest.api.medianMs / depths.first.api.medianMs,
        countShareOfApi: count.medianMs / depths.deepest.api.medianMs,
      },
      plans,
      apiPlanSorts: plans.api.some((l) => l.includes('USE TEMP B-TREE')),
      runs,
      iterations,
    }
  } finally {
    raw.close()
    await app?.close()
    await db.close()
  }
}

export function printDictionaryBench(f: DictionaryBenchFigures): void {
  const ms = (t: Timing) => t.medianMs.toFixed(3).padStart(8) + ' ms'
  const n = (x: number) => x.toLocaleString('en-US')
  console.log(`\n  dictionary: ${n(f.rows)} indicators (SQLite), ${n(f.filteredRows)} match the filter; pages of ${f.limit}`)
  console.log(`    ${f.request}`)
  console.log('    page (rows before it)          api (app.inject)   best keyset page   api / best')
  for (const name of depthNames) {
    const d = f.depths[name]
    console.log(
      `    ${`${name} (${n(d.row)})`.padEnd(28)}  ${ms(d.api)}        ${ms(d.best)}      ${d.apiOverBest.toPrecision(3).padStart(6)}`,
    )
  }
  console.log(`    raw SQL: COUNT for total alone       ${ms(f.rawCount)}`)
  console.log(`    raw SQL: best page + in-use + COUNT  ${ms(f.rawAll)}`)
  console.log(
    `  dictionary page api / best keyset page = ${f.ratios.apiOverBest.toPrecision(3)}  (deepest page; medians of ${f.runs} runs × ${f.iterations} calls)`,
  )
  console.log(`  dictionary deep page / first page      = ${f.ratios.deepOverFirstPage.toPrecision(3)}`)
  console.log(`  COUNT share of the api page            = ${(f.ratios.countShareOfApi * 100).toFixed(0)} %`)
  console.log(`    plan of the api page:  ${f.plans.api.join(' | ')}${f.apiPlanSorts ? '  ← SORTS: no index serves it in order' : ''}`)
  console.log(`    plan of the best page: ${f.plans.best.join(' | ')}`)
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
