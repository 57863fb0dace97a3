/**
 * The subject list at scale (issue 10, Tests and bench): pageList over 1,000,000 subjects through
 * the API, center-scoped, filtered by an indicator value, sorted by another indicator (a
 * non-key column), at the first, middle and last page, each as a ratio to the best keyset page
 * the database serves in the same run: the same rows by hand-written SQL, forced onto the
 * composite (project_id, value, id) index (SQLite: INDEXED BY; PostgreSQL: sorts, bitmap and
 * sequential scans switched off for its connection), a plan without a temporary sort.
 *
 * Both databases, one after the other, with the same subjects: SQLite in a temp file, then
 * PostgreSQL (a new database on BENCH_DATABASE_URL or TEST_DATABASE_URL when one names a
 * postgres:// server, dropped afterwards; else a throw-away cluster from scripts/pg.mjs, stopped
 * afterwards; without server binaries the PostgreSQL half is skipped and says so). Each gets all
 * migrations, one active project with three centers and two queues, and 1,000,000 subjects with
 * summary values (SQLite: multi-row inserts in one transaction; PostgreSQL: unnest() of 100,000
 * rows a statement; indexes built once afterwards: setup, not measured), the counters of
 * subject_tally, and the caller's two chosen indicator columns with their indexes.
 * The API's total for a filter beyond center / queue / status is counted once per filter (the
 * first page counts afresh, later pages reuse it), so the middle and last pages measure paging.
 * The plans of the exact SQL the repository runs for the first and the last page, as each
 * database's planner chooses them, must have no sort.
 *
 * About 90 s in all on an idle 2-CPU machine: ~20 s to fill SQLite, ~45 s to fill PostgreSQL,
 * ~10 s of measuring each (a machine busy with other work takes several times that).
 *
 * Run alone with `npx tsx bench/subjects.ts [--rows N] [--runs N] [--iterations N] [--no-postgres]`,
 * or as part of `npm run bench` (bench/run.ts), which passes its own temp dir.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import SQLite from 'better-sqlite3'
import { CompiledQuery, type Kysely } from 'kysely'
import pg from 'pg'
import { buildApp } from '../server/app.ts'
import { connect, type Db } from '../server/db/connect.ts'
import type { Database } from '../server/db/database.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { ensureFieldIndex, subjectPageQuery } from '../server/db/repositories/subjectList.ts'
import { insertUserWithAccount } from '../server/db/repositories/users.ts'
import { findBuiltinRole } from '../server/db/repositories/roles.ts'
import { superRoleKey } from '../contract/permissions.ts'
import { encodeCursor } from '../server/services/keysetCursor.ts'
import { hashPassword } from '../server/services/passwordHash.ts'
import { seedReferenceData } from '../server/services/seed.ts'
import { explain } from '../tests/support/explain.ts'
import { ownPostgres } from './dataStudy.ts'

export interface SubjectBenchOptions {
  dir: string
  rows?: number
  runs?: number
  iterations?: number
  /** false: SQLite only. */
  postgres?: boolean
  log?: (line: string) => void
}

interface Timing {
  medianMs: number
  runsMs: number[]
}

const depthNames = ['first', 'middle', 'last'] as const
type DepthName = (typeof depthNames)[number]

export interface SubjectDialectFigures {
  database: 'SQLite' | 'PostgreSQL'
  matchingRows: number
  insertSeconds: number
  depths: Record<DepthName, { row: number; api: Timing; best: Timing; apiOverBest: number }>
  ratios: { lastOverBest: number; middleOverBest: number; firstOverBest: number; lastOverFirst: number }
  /** Plans of the API's first page and of its last page (SQLite: its 'past' part), and of the best last page. */
  plans: { apiFirst: string[]; apiLast: string[]; best: string[] }
  apiPlanSorts: boolean
  bestPlanSorts: boolean
}

export interface SubjectBenchFigures {
  rows: number
  limit: number
  request: string
  runs: number
  iterations: number
  sqlite: SubjectDialectFigures
  postgres: SubjectDialectFigures | null
  /** Why there is no PostgreSQL half, when there is none. */
  postgresSkipped: string | null
  wallSeconds: number
}

/** Indicator ids of the two list columns: sorted by AGE, filtered by SEX. */
const age = 1001
const sex = 1002
const limit = 50

/** mulberry32: the same subjects on every run and machine. */
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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

const columns = [
  'project_id',
  'queue_id',
  'center_id',
  'subject_no',
  'created_at',
  'updated_at',
  'status',
  'enrolled_at',
  'checklist',
  'summary',
] as const

interface Seeded {
  projectId: number
  centers: number[]
  queues: number[]
  uid: number
  password: string
}

/** The subjects from `start` (n of them) as column arrays, the same on both databases. */
function subjectsOf(s: Seeded, next: () => number, start: number, n: number): (string | number)[][] {
  const cols: (string | number)[][] = columns.map(() => [])
  const base = Date.UTC(2024, 0, 1)
  for (let i = start; i < start + n; i++) {
    const c = i % s.centers.length
    const at = new Date(base + Math.floor(next() * 6e10)).toISOString()
    const summary = JSON.stringify({
      [`f${age}`]: String(18 + Math.floor(next() * 70)).padStart(3, '0'),
      [`f${sex}`]: next() < 0.5 ? 'm' : 'f',
    })
    const row = [s.projectId, s.queues[i % s.queues.length]!, s.centers[c]!, `C${c}-${String(i).padStart(7, '0')}`, at, at, 'enrolled', at]
    row.push('{"inclusion":[],"exclusion":[]}', summary)
    row.forEach((v, k) => cols[k]!.push(v))
  }
  return cols
}

const tallySql = `INSERT INTO subject_tally (project_id, center_id, queue_id, status, n)
  SELECT project_id, center_id, queue_id, status, count(*) FROM subject GROUP BY project_id, center_id, queue_id, status`

function fillSqlite(file: string, rows: number, s: Seeded): number {
  const started = performance.now()
  const db = new SQLite(file)
  const next = random(20261202)
  const batch = 500
  const placeholders = (n: number) => Array.from({ length: n }, () => `(${columns.map(() => '?').join(',')})`).join(',')
  const full = db.prepare(`INSERT INTO subject (${columns.join(',')}) VALUES ${placeholders(batch)}`)
  const indexes = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'subject' AND sql IS NOT NULL")
    .all() as { name: string; sql: string }[]
  for (const i of indexes) db.exec(`DROP INDEX ${i.name}`)
  db.transaction(() => {
    for (let start = 0; start < rows; start += batch) {
      const n = Math.min(batch, rows - start)
      const cols = subjectsOf(s, next, start, n)
      const values: (string | number)[] = []
      for (let i = 0; i < n; i++) for (const c of cols) values.push(c[i]!)
      const stmt = n === batch ? full : db.prepare(`INSERT INTO subject (${columns.join(',')}) VALUES ${placeholders(n)}`)
      stmt.run(values)
    }
    db.exec(tallySql)
  })()
  for (const i of indexes) db.exec(i.sql)
  db.exec('ANALYZE')
  db.close()
  return (performance.now() - started) / 1000
}

async function fillPostgres(url: string, rows: number, s: Seeded): Promise<number> {
  const started = performance.now()
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    const next = random(20261202)
    // Secondary indexes are built once at the end; the unique constraint's index stays.
    const indexes = (
      await c.query<{ name: string; def: string }>(`SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
        FROM pg_index i WHERE i.indrelid = 'subject'::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`)
    ).rows
    await c.query('BEGIN')
    for (const i of indexes) await c.query(`DROP INDEX ${i.name}`)
    // The foreign keys point at the one project, its queues and centers: checking them a million
    // times is setup time only (needs a superuser, as the throw-away cluster's `app` is).
    await c.query('SET LOCAL session_replication_role = replica').catch(() => undefined)
    const types = ['int', 'int', 'int', 'text', 'text', 'text', 'text', 'text', 'text', 'jsonb']
    const insert = `INSERT INTO subject (${columns.join(',')})
      SELECT * FROM unnest(${types.map((t, k) => `$${k + 1}::${t}[]`).join(', ')})`
    const batch = 100_000
    for (let start = 0; start < rows; start += batch) await c.query(insert, subjectsOf(s, next, start, Math.min(batch, rows - start)))
    await c.query(tallySql)
    await c.query('COMMIT')
    await c.query("SET maintenance_work_mem = '256MB'")
    for (const i of indexes) await c.query(i.def)
    await c.query('VACUUM ANALYZE subject')
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined)
    throw err
  } finally {
    await c.end()
  }
  return (performance.now() - started) / 1000
}

/** Migrations, one active project with three centers and two queues, and the bench's user. */
async function seed(db: Db, rows: number): Promise<Seeded> {
  await migrateToLatest(db)
  await seedReferenceData(db.kysely, new Date())
  const k = db.kysely
  const at = new Date().toISOString()
  const centers = (
    await k
      .insertInto('center')
      .values(
        ['BJ', 'SH', 'GZ'].map((code) => ({ code, name_zh: `中心${code}`, name_en: `Center ${code}`, created_at: at, updated_at: at })),
      )
      .returning('id')
      .execute()
  ).map((r) => r.id)
  const { id: projectId } = await k
    .insertInto('project')
    .values({
      scope: 'multi',
      type: 'prospective',
      name: 'Bench study',
      number: 'BENCH-1',
      test_stage: null,
      group_type: 'group',
      disease_id: null,
      blinded: 'open',
      random_method: 'none',
      planned_quantity: rows,
      planned_groups: 2,
      status: 'active',
      creator_id: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const queues: number[] = []
  for (const key of ['A', 'B']) {
    const q = await k
      .insertInto('project_queue')
      .values({ project_id: projectId, name: `Queue ${key}`, key, sort: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    queues.push(q.id)
  }
  for (const [sort, center_id] of centers.entries())
    await k.insertInto('project_center').values({ project_id: projectId, center_id, sort }).execute()
  const password = 'Bench' + crypto.randomBytes(6).toString('hex') + '7'
  const { userId: uid } = await insertUserWithAccount(k, {
    name: 'Subject bench',
    username: 'subjectbench',
    passwordHash: await hashPassword(password),
    roleIds: [(await findBuiltinRole(k, superRoleKey))!.id],
    now: at,
  })
  await ensureFieldIndex(k, age)
  await ensureFieldIndex(k, sex)
  return { projectId, centers, queues, uid, password }
}

type After = readonly [string, number] | null

/** The best keyset page by hand-written SQL on the database's own driver, forced onto the index. */
interface BestPages {
  page(after: After): Promise<number[]> | number[]
  count(): Promise<number> | number
  /** Sort value and id of the row at this offset (setup only). */
  rowAt(offset: number): Promise<[string, number]> | [string, number]
  plan(after: After): Promise<{ lines: string[]; sorts: boolean }> | { lines: string[]; sorts: boolean }
  close(): Promise<void> | void
}

const ageKey = `coalesce(summary ->> 'f${age}', '')`
const sexKey = `coalesce(summary ->> 'f${sex}', '')`
const bestColumns = `id, subject_no, center_id, queue_id, status, group_id, enrolled_at, updated_at, summary, ${ageKey} AS v`

function sqliteBest(file: string, projectId: number, center: number): BestPages {
  const raw = new SQLite(file, { readonly: true })
  const best = `SELECT ${bestColumns} FROM subject INDEXED BY subject_f${age}_idx
    WHERE project_id = ? AND center_id = ? AND ${sexKey} = 'f'`
  const first = raw.prepare(`${best} ORDER BY ${ageKey}, id LIMIT ${limit + 1}`)
  // Two index ranges in order: the rows tied on the cursor's value, then those past it (SQLite
  // ranges no expression index with a row value).
  const tie = raw.prepare(`${best} AND ${ageKey} = ? AND id > ? ORDER BY ${ageKey}, id LIMIT ${limit + 1}`)
  const pastSql = `${best} AND ${ageKey} > ? ORDER BY ${ageKey}, id LIMIT ?`
  const past = raw.prepare(pastSql)
  const ids = (rows: unknown[]) => (rows as { id: number }[]).map((r) => r.id)
  return {
    page(after) {
      if (!after) return ids(first.all(projectId, center))
      const tied = ids(tie.all(projectId, center, after[0], after[1]))
      if (tied.length > limit) return tied
      return [...tied, ...ids(past.all(projectId, center, after[0], limit + 1 - tied.length))]
    },
    count: () =>
      (
        raw
          .prepare(`SELECT count(*) AS n FROM subject WHERE project_id = ? AND center_id = ? AND ${sexKey} = 'f'`)
          .get(projectId, center) as { n: number }
      ).n,
    rowAt(offset) {
      const r = raw.prepare(`${best} ORDER BY ${ageKey}, id LIMIT 1 OFFSET ?`).get(projectId, center, offset) as { v: string; id: number }
      return [r.v, r.id]
    },
    plan(after) {
      const lines = (
        raw.prepare(`EXPLAIN QUERY PLAN ${pastSql}`).all(projectId, center, after?.[0] ?? '', limit + 1) as { detail: string }[]
      ).map((r) => r.detail)
      return { lines, sorts: lines.some((l) => l.includes('USE TEMP B-TREE')) }
    },
    close: () => void raw.close(),
  }
}

interface PgNode {
  'Node Type': string
  'Index Name'?: string
  'Index Cond'?: string
  Plans?: PgNode[]
}

async function postgresBest(url: string, projectId: number, center: number): Promise<BestPages> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  // PostgreSQL's INDEXED BY: no plan but an index scan in order.
  for (const off of ['enable_sort', 'enable_incremental_sort', 'enable_bitmapscan', 'enable_seqscan']) await c.query(`SET ${off} = off`)
  const best = `SELECT ${bestColumns} FROM subject WHERE project_id = $1 AND center_id = $2 AND ${sexKey} = 'f'`
  // One index range from the cursor on: a row value ranges a btree over (value, id).
  const pastSql = `${best} AND (${ageKey}, id) > ($3, $4) ORDER BY ${ageKey}, id LIMIT ${limit + 1}`
  const firstSql = `${best} ORDER BY ${ageKey}, id LIMIT ${limit + 1}`
  const ids = (r: pg.QueryResult<{ id: number }>) => r.rows.map((x) => x.id)
  return {
    // Named statements: parsed once, as the SQLite side's prepared ones.
    page: async (after) =>
      after
        ? ids(await c.query<{ id: number }>({ name: 'past', text: pastSql, values: [projectId, center, after[0], after[1]] }))
        : ids(await c.query<{ id: number }>({ name: 'first', text: firstSql, values: [projectId, center] })),
    count: async () =>
      Number(
        (
          await c.query<{ n: string }>(`SELECT count(*) AS n FROM subject WHERE project_id = $1 AND center_id = $2 AND ${sexKey} = 'f'`, [
            projectId,
            center,
          ])
        ).rows[0]!.n,
      ),
    async rowAt(offset) {
      const r = (
        await c.query<{ v: string; id: number }>(`${firstSql.replace(/LIMIT \d+$/, '')} LIMIT 1 OFFSET $3`, [projectId, center, offset])
      ).rows[0]!
      return [r.v, r.id]
    },
    async plan(after) {
      const r = await c.query<{ 'QUERY PLAN': [{ Plan: PgNode }] }>(`EXPLAIN (FORMAT JSON) ${pastSql}`, [
        projectId,
        center,
        after?.[0] ?? '',
        after?.[1] ?? 0,
      ])
      const nodes: PgNode[] = []
      const walk = (n: PgNode) => {
        nodes.push(n)
        for (const x of n.Plans ?? []) walk(x)
      }
      walk(r.rows[0]!['QUERY PLAN'][0].Plan)
      const lines = nodes.map((n) => [n['Node Type'], n['Index Name'] ?? '', n['Index Cond'] ?? ''].filter(Boolean).join(' '))
      return { lines, sorts: nodes.some((n) => n['Node Type'].endsWith('Sort')) }
    },
    close: () => c.end(),
  }
}

/** One database: seed, fill, then the API's pages against the best ones, interleaved. */
async function benchOne(
  database: SubjectDialectFigures['database'],
  url: string,
  fill: (s: Seeded) => Promise<number> | number,
  bestOf: (s: Seeded, center: number) => Promise<BestPages> | BestPages,
  o: { rows: number; runs: number; iterations: number; log: (line: string) => void },
): Promise<SubjectDialectFigures> {
  const db = connect(url)
  let best: BestPages | undefined
  let app: Awaited<ReturnType<typeof buildApp>> | undefined
  try {
    const s = await seed(db, o.rows)
    const insertSeconds = await fill(s)
    o.log(`subjects: ${o.rows.toLocaleString('en-US')} subjects inserted and indexed in ${database} in ${insertSeconds.toFixed(2)} s`)
    const k: Kysely<Database> = db.kysely
    await k
      .insertInto('subject_list_field')
      .values([
        { project_id: s.projectId, user_id: s.uid, indicator_id: age, sort: 0 },
        { project_id: s.projectId, user_id: s.uid, indicator_id: sex, sort: 1 },
      ])
      .execute()

    app = await buildApp({ db, staticRoot: null })
    await app.ready()
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: 'subjectbench', password: s.password, platform: 'bench' },
    })
    const token = (signIn.json() as { data?: { token?: string } }).data?.token
    if (!token) throw new Error(`subject bench: sign-in failed: ${signIn.body}`)

    const center = s.centers[0]!
    best = await bestOf(s, center)
    const b = best
    const matchingRows = await b.count()
    // Finding the rows before each page by OFFSET is setup, done once.
    const anchors = {} as Record<DepthName, { row: number; after: After }>
    for (const [name, row] of [
      ['first', 0],
      ['middle', Math.floor(matchingRows / 2)],
      ['last', matchingRows - limit],
    ] as const) {
      anchors[name] = { row, after: row === 0 ? null : await b.rowAt(row - 1) }
    }

    const apiPlan = async (after: After) => {
      const q = subjectPageQuery({
        scope: { kind: 'project', projectId: s.projectId, queueIds: null, centerIds: [center] },
        conditions: [{ key: { kind: 'field', indicatorId: sex }, op: 'eq', value: 'f' }],
        sort: { kind: 'field', indicatorId: age },
        order: 'asc',
        after,
        // What subjectPage runs after a cursor: PostgreSQL one row-value range, SQLite the rows past the tied ones.
        part: db.dialect === 'postgres' ? 'row' : 'past',
        limit: limit + 1,
      }).compile(k)
      return explain(db, CompiledQuery.raw(q.sql, [...q.parameters]))
    }
    const [apiFirst, apiLast, bestPlan] = [await apiPlan(null), await apiPlan(anchors.last.after), await b.plan(anchors.last.after)]

    const filter = JSON.stringify([{ column: `f${sex}`, op: 'eq', value: 'f' }])
    const query = { studyId: String(s.projectId), centerId: String(center), sort: `f${age}`, filter, limit: String(limit) }
    const headers = { 'kr-d-token': token }
    const checked = new Set<DepthName>()
    const apiCall = async (name: DepthName) => {
      const after = anchors[name].after
      const res = await app!.inject({
        method: 'GET',
        url: '/api/scientific/studyObject/pageList',
        query: after ? { ...query, after: encodeCursor(after[0], after[1]) } : query,
        headers,
      })
      if (res.statusCode !== 200) throw new Error(`subject bench: ${res.statusCode} ${res.body.slice(0, 300)}`)
      if (!checked.has(name)) {
        const body = res.json() as { data: { rows: { id: number; values: Record<string, string> }[]; total: number } }
        const bestIds = (await b.page(after)).slice(0, limit)
        if (JSON.stringify(body.data.rows.map((r) => r.id)) !== JSON.stringify(bestIds) || body.data.total !== matchingRows) {
          throw new Error(`subject bench: ${database}: the API's ${name} page differs from the best keyset page`)
        }
        if (body.data.rows.some((r) => r.values[`f${sex}`] !== 'f' || !r.values[`f${age}`])) {
          throw new Error(`subject bench: ${database}: the API's ${name} page lacks its column values`)
        }
        checked.add(name)
      }
    }
    // The first page counts its filter afresh; the others reuse that count (server/services/subjectList.ts).
    await apiCall('first')

    const variants: Record<string, () => unknown> = {}
    for (const name of depthNames) {
      variants[`api.${name}`] = () => apiCall(name)
      variants[`best.${name}`] = () => b.page(anchors[name].after)
    }
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((key) => [key, []]))
    for (const fn of Object.values(variants)) for (let i = 0; i < 5; i++) await fn()
    for (let run = 0; run < o.runs; run++) {
      for (const [key, fn] of Object.entries(variants)) {
        const started = performance.now()
        for (let i = 0; i < o.iterations; i++) await fn()
        samples[key]!.push((performance.now() - started) / o.iterations)
      }
    }
    const timing = (key: string): Timing => ({ medianMs: median(samples[key]!), runsMs: samples[key]! })
    const depths = Object.fromEntries(
      depthNames.map((name) => {
        const api = timing(`api.${name}`)
        const bt = timing(`best.${name}`)
        return [name, { row: anchors[name].row, api, best: bt, apiOverBest: api.medianMs / bt.medianMs }]
      }),
    ) as SubjectDialectFigures['depths']
    return {
      database,
      matchingRows,
      insertSeconds,
      depths,
      ratios: {
        firstOverBest: depths.first.apiOverBest,
        middleOverBest: depths.middle.apiOverBest,
        lastOverBest: depths.last.apiOverBest,
        lastOverFirst: depths.last.api.medianMs / depths.first.api.medianMs,
      },
      plans: { apiFirst: apiFirst.lines, apiLast: apiLast.lines, best: bestPlan.lines },
      apiPlanSorts: apiFirst.sorts.length > 0 || apiLast.sorts.length > 0,
      bestPlanSorts: bestPlan.sorts,
    }
  } finally {
    await best?.close()
    await app?.close()
    await db.close()
  }
}

export async function runSubjectBench(opts: SubjectBenchOptions): Promise<SubjectBenchFigures> {
  const started = performance.now()
  const o = { rows: opts.rows ?? 1_000_000, runs: opts.runs ?? 7, iterations: opts.iterations ?? 20, log: opts.log ?? (() => {}) }
  const file = path.join(opts.dir, 'subjects.db')
  let sqlite: SubjectDialectFigures
  try {
    sqlite = await benchOne(
      'SQLite',
      `sqlite:${file}`,
      (s) => fillSqlite(file, o.rows, s),
      (s, center) => sqliteBest(file, s.projectId, center),
      o,
    )
  } finally {
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true })
  }
  let postgres: SubjectDialectFigures | null = null
  let postgresSkipped: string | null = opts.postgres === false ? 'not asked for' : null
  if (opts.postgres !== false) {
    const own = await ownPostgres('subjects', o.log)
    if (typeof own === 'string') postgresSkipped = own
    else {
      try {
        postgres = await benchOne(
          'PostgreSQL',
          own.url,
          (s) => fillPostgres(own.url, o.rows, s),
          (s, center) => postgresBest(own.url, s.projectId, center),
          o,
        )
      } finally {
        await own.drop()
      }
    }
  }
  const request = `GET /api/scientific/studyObject/pageList?studyId=…&centerId=…&sort=f${age}&filter=[{"column":"f${sex}","op":"eq","value":"f"}]&limit=${limit}&after=<cursor>`
  return {
    rows: o.rows,
    limit,
    request,
    runs: o.runs,
    iterations: o.iterations,
    sqlite,
    postgres,
    postgresSkipped,
    wallSeconds: (performance.now() - started) / 1000,
  }
}

export function printSubjectBench(f: SubjectBenchFigures): void {
  const ms = (t: Timing) => t.medianMs.toFixed(3).padStart(8) + ' ms'
  const n = (x: number) => x.toLocaleString('en-US')
  console.log(`\n  subjects: ${n(f.rows)} subjects, pages of ${f.limit}, medians of ${f.runs} runs × ${f.iterations} pages`)
  console.log(`    ${f.request}`)
  for (const d of [f.sqlite, f.postgres]) {
    if (!d) continue
    console.log(`    ${d.database}: ${n(d.matchingRows)} in the center and filter (filled in ${d.insertSeconds.toFixed(1)} s)`)
    console.log('    page (rows before it)          api (app.inject)   best keyset page   api / best')
    for (const name of depthNames) {
      const x = d.depths[name]
      console.log(
        `    ${`${name} (${n(x.row)})`.padEnd(28)}  ${ms(x.api)}        ${ms(x.best)}      ${x.apiOverBest.toPrecision(3).padStart(6)}`,
      )
    }
    console.log(`      plan of the api first page: ${d.plans.apiFirst.join(' | ')}`)
    console.log(
      `      plan of the api last page:  ${d.plans.apiLast.join(' | ')}${d.apiPlanSorts ? '  ← SORTS: no index serves it in order' : ''}`,
    )
    console.log(`      plan of the best last page: ${d.plans.best.join(' | ')}${d.bestPlanSorts ? '  ← SORTS' : ''}`)
  }
  const r = (d: SubjectDialectFigures) =>
    `first ${d.ratios.firstOverBest.toPrecision(3)}, middle ${d.ratios.middleOverBest.toPrecision(3)}, last ${d.ratios.lastOverBest.toPrecision(3)}; last / first ${d.ratios.lastOverFirst.toPrecision(3)}`
  console.log(`  subject page api / best keyset page, SQLite:     ${r(f.sqlite)}`)
  console.log(`  subject page api / best keyset page, PostgreSQL: ${f.postgres ? r(f.postgres) : `skipped (${f.postgresSkipped})`}`)
  console.log(`  (${f.wallSeconds.toFixed(1)} s in all)`)
}

// Alone: `npx tsx bench/subjects.ts`.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { rows: { type: 'string' }, runs: { type: 'string' }, iterations: { type: 'string' }, 'no-postgres': { type: 'boolean' } },
  })
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-subjects-'))
  try {
    const f = await runSubjectBench({
      dir,
      rows: values.rows ? Number(values.rows) : undefined,
      runs: values.runs ? Number(values.runs) : undefined,
      iterations: values.iterations ? Number(values.iterations) : undefined,
      postgres: !values['no-postgres'],
      log: (line) => console.log(`bench: ${line}`),
    })
    printSubjectBench(f)
    console.log('BENCH_SUBJECTS_JSON ' + JSON.stringify(f))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
