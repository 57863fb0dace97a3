/**
 * The subject list at scale (issue 10, Tests and bench): pageList over 1,000,000 subjects through
 * the API, center-scoped, filtered by an indicator value, sorted by another indicator (a
 * non-key column), at the first, middle and last page, each as a ratio to the best keyset page
 * the database serves in the same run: the same rows by hand-written SQL, forced (INDEXED BY)
 * onto the composite (project_id, value, id) index, a plan without a temporary sort.
 *
 * SQLite only: a temp file gets all migrations, one active project with three centers and two
 * queues, and 1,000,000 subjects with summary values (multi-row inserts in one transaction
 * straight through better-sqlite3, indexes built once afterwards: setup, not measured), the
 * counters of subject_tally, and the caller's two chosen indicator columns with their indexes.
 * The API's total for a filter beyond center / queue / status is counted once per filter (the
 * first page counts afresh, later pages reuse it), so the middle and last pages measure paging.
 * The EXPLAIN QUERY PLAN of the exact SQL the repository runs for the last page must have no
 * temp B-tree.
 *
 * Run alone with `npx tsx bench/subjects.ts [--rows N] [--runs N] [--iterations N]`, or as part
 * of `npm run bench` (bench/run.ts), which passes its own temp dir.
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
import { ensureFieldIndex, subjectPageQuery } from '../server/db/repositories/subjectList.ts'
import { insertUserWithAccount } from '../server/db/repositories/users.ts'
import { findBuiltinRole } from '../server/db/repositories/roles.ts'
import { superRoleKey } from '../contract/permissions.ts'
import { encodeCursor } from '../server/services/keysetCursor.ts'
import { hashPassword } from '../server/services/passwordHash.ts'
import { seedReferenceData } from '../server/services/seed.ts'

export interface SubjectBenchOptions {
  dir: string
  rows?: number
  runs?: number
  iterations?: number
  log?: (line: string) => void
}

interface Timing {
  medianMs: number
  runsMs: number[]
}

const depthNames = ['first', 'middle', 'last'] as const
type DepthName = (typeof depthNames)[number]

export interface SubjectBenchFigures {
  rows: number
  matchingRows: number
  limit: number
  request: string
  insertSeconds: number
  depths: Record<DepthName, { row: number; api: Timing; best: Timing; apiOverBest: number }>
  ratios: { lastOverBest: number; middleOverBest: number; firstOverBest: number; lastOverFirst: number }
  plans: { api: string[]; best: string[] }
  apiPlanSorts: boolean
  runs: number
  iterations: number
}

/** Indicator ids of the two list columns: sorted by AGE, filtered by SEX. */
const age = 1001
const sex = 1002

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
]

function fill(file: string, rows: number, projectId: number, centers: number[], queues: number[]): number {
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
  const base = Date.UTC(2024, 0, 1)
  db.transaction(() => {
    for (let start = 0; start < rows; start += batch) {
      const n = Math.min(batch, rows - start)
      const values: (string | number)[] = []
      for (let i = start; i < start + n; i++) {
        const c = i % centers.length
        const at = new Date(base + Math.floor(next() * 6e10)).toISOString()
        const summary = JSON.stringify({
          [`f${age}`]: String(18 + Math.floor(next() * 70)).padStart(3, '0'),
          [`f${sex}`]: next() < 0.5 ? 'm' : 'f',
        })
        values.push(
          projectId,
          queues[i % queues.length]!,
          centers[c]!,
          `C${c}-${String(i).padStart(7, '0')}`,
          at,
          at,
          'enrolled',
          at,
          '{"inclusion":[],"exclusion":[]}',
          summary,
        )
      }
      const stmt = n === batch ? full : db.prepare(`INSERT INTO subject (${columns.join(',')}) VALUES ${placeholders(n)}`)
      stmt.run(values)
    }
    db.exec(`INSERT INTO subject_tally (project_id, center_id, queue_id, status, n)
      SELECT project_id, center_id, queue_id, status, count(*) FROM subject GROUP BY project_id, center_id, queue_id, status`)
  })()
  for (const i of indexes) db.exec(i.sql)
  db.exec('ANALYZE')
  db.close()
  return (performance.now() - started) / 1000
}

export async function runSubjectBench(opts: SubjectBenchOptions): Promise<SubjectBenchFigures> {
  const rows = opts.rows ?? 1_000_000
  const runs = opts.runs ?? 7
  const iterations = opts.iterations ?? 20
  const log = opts.log ?? (() => {})
  const file = path.join(opts.dir, 'subjects.db')
  const limit = 50

  const db = connect(`sqlite:${file}`)
  let raw: SQLite.Database | undefined
  let app: Awaited<ReturnType<typeof buildApp>> | undefined
  try {
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

    const password = 'Bench' + Math.random().toString(36).slice(2, 10) + '7'
    const { userId: uid } = await insertUserWithAccount(k, {
      name: 'Subject bench',
      username: 'subjectbench',
      passwordHash: await hashPassword(password),
      roleIds: [(await findBuiltinRole(k, superRoleKey))!.id],
      now: at,
    })
    await ensureFieldIndex(k, age)
    await ensureFieldIndex(k, sex)
    const insertSeconds = fill(file, rows, projectId, centers, queues)
    log(`subjects: ${rows.toLocaleString('en-US')} subjects inserted and indexed in ${insertSeconds.toFixed(2)} s`)
    await k
      .insertInto('subject_list_field')
      .values([
        { project_id: projectId, user_id: uid, indicator_id: age, sort: 0 },
        { project_id: projectId, user_id: uid, indicator_id: sex, sort: 1 },
      ])
      .execute()

    app = await buildApp({ db, staticRoot: null })
    await app.ready()
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: 'subjectbench', password, platform: 'bench' },
    })
    const token = (signIn.json() as { data?: { token?: string } }).data?.token
    if (!token) throw new Error(`subject bench: sign-in failed: ${signIn.body}`)

    raw = new SQLite(file, { readonly: true })
    const center = centers[0]!
    const ageKey = `coalesce(summary ->> 'f${age}', '')`
    const sexKey = `coalesce(summary ->> 'f${sex}', '')`
    const best = `SELECT id, subject_no, center_id, queue_id, status, group_id, enrolled_at, updated_at, summary, ${ageKey} AS v FROM subject INDEXED BY subject_f${age}_idx
      WHERE project_id = ? AND center_id = ? AND ${sexKey} = 'f'`
    const bestFirst = raw.prepare(`${best} ORDER BY ${ageKey}, id LIMIT ${limit + 1}`)
    // Two index ranges in order: the rows tied on the cursor's value, then those past it.
    const bestTie = raw.prepare(`${best} AND ${ageKey} = ? AND id > ? ORDER BY ${ageKey}, id LIMIT ${limit + 1}`)
    const bestPast = raw.prepare(`${best} AND ${ageKey} > ? ORDER BY ${ageKey}, id LIMIT ?`)
    const matchingRows = (
      raw
        .prepare(`SELECT count(*) AS n FROM subject WHERE project_id = ? AND center_id = ? AND ${sexKey} = 'f'`)
        .get(projectId, center) as { n: number }
    ).n
    // Finding the rows before each page by OFFSET is setup, done once.
    const rowAt = raw.prepare(`${best} ORDER BY ${ageKey}, id LIMIT 1 OFFSET ?`)
    const anchors = {} as Record<DepthName, { row: number; after: readonly [string, number] | null }>
    for (const [name, row] of [
      ['first', 0],
      ['middle', Math.floor(matchingRows / 2)],
      ['last', matchingRows - limit],
    ] as const) {
      const a = row === 0 ? undefined : (rowAt.get(projectId, center, row - 1) as { v: string; id: number })
      anchors[name] = { row, after: a ? [a.v, a.id] : null }
    }
    const bestPage = (after: readonly [string, number] | null): { id: number }[] => {
      if (!after) return bestFirst.all(projectId, center) as { id: number }[]
      const tie = bestTie.all(projectId, center, after[0], after[1]) as { id: number }[]
      if (tie.length > limit) return tie
      return [...tie, ...(bestPast.all(projectId, center, after[0], limit + 1 - tie.length) as { id: number }[])]
    }

    const explain = (sqlText: string, params: readonly unknown[]) =>
      (raw!.prepare(`EXPLAIN QUERY PLAN ${sqlText}`).all(...params) as { detail: string }[]).map((r) => r.detail)
    const last = anchors.last.after
    const apiSql = subjectPageQuery(k, {
      scope: { kind: 'project', projectId, queueIds: null, centerIds: [center] },
      conditions: [{ key: { kind: 'field', indicatorId: sex }, op: 'eq', value: 'f' }],
      sort: { kind: 'field', indicatorId: age },
      order: 'asc',
      after: last,
      part: 'past',
      limit: limit + 1,
    }).compile()
    const plans = {
      api: explain(apiSql.sql, apiSql.parameters),
      best: explain(`${best} AND ${ageKey} > ? ORDER BY ${ageKey}, id LIMIT ${limit + 1}`, [projectId, center, last![0]]),
    }

    const filter = JSON.stringify([{ column: `f${sex}`, op: 'eq', value: 'f' }])
    const query = { studyId: String(projectId), centerId: String(center), sort: `f${age}`, filter, limit: String(limit) }
    const request = `GET /api/scientific/studyObject/pageList?studyId=…&centerId=…&sort=f${age}&filter=[{"column":"f${sex}","op":"eq","value":"f"}]&limit=${limit}&after=<cursor>`
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
        const body = res.json() as { data: { rows: { id: number }[]; total: number } }
        const bestIds = bestPage(after)
          .slice(0, limit)
          .map((r) => r.id)
        if (JSON.stringify(body.data.rows.map((r) => r.id)) !== JSON.stringify(bestIds) || body.data.total !== matchingRows) {
          throw new Error(`subject bench: the API's ${name} page differs from the best keyset page`)
        }
        checked.add(name)
      }
    }
    // The first page counts its filter afresh; the others reuse that count (server/services/subjectList.ts).
    await apiCall('first')

    const variants: Record<string, () => unknown> = {}
    for (const name of depthNames) {
      variants[`api.${name}`] = () => apiCall(name)
      variants[`best.${name}`] = () => bestPage(anchors[name].after)
    }
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((key) => [key, []]))
    for (const fn of Object.values(variants)) for (let i = 0; i < 5; i++) await fn()
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
        const b = timing(`best.${name}`)
        return [name, { row: anchors[name].row, api, best: b, apiOverBest: api.medianMs / b.medianMs }]
      }),
    ) as SubjectBenchFigures['depths']
    return {
      rows,
      matchingRows,
      limit,
      request,
      insertSeconds,
      depths,
      ratios: {
        firstOverBest: depths.first.apiOverBest,
        middleOverBest: depths.middle.apiOverBest,
        lastOverBest: depths.last.apiOverBest,
        lastOverFirst: depths.last.api.medianMs / depths.first.api.medianMs,
      },
      plans,
      apiPlanSorts: plans.api.some((l) => l.includes('USE TEMP B-TREE')),
      runs,
      iterations,
    }
  } finally {
    raw?.close()
    await app?.close()
    await db.close()
  }
}

export function printSubjectBench(f: SubjectBenchFigures): void {
  const ms = (t: Timing) => t.medianMs.toFixed(3).padStart(8) + ' ms'
  const n = (x: number) => x.toLocaleString('en-US')
  console.log(`\n  subjects: ${n(f.rows)} subjects (SQLite), ${n(f.matchingRows)} in the center and filter; pages of ${f.limit}`)
  console.log(`    ${f.request}`)
  console.log('    page (rows before it)          api (app.inject)   best keyset page   api / best')
  for (const name of depthNames) {
    const d = f.depths[name]
    console.log(
      `    ${`${name} (${n(d.row)})`.padEnd(28)}  ${ms(d.api)}        ${ms(d.best)}      ${d.apiOverBest.toPrecision(3).padStart(6)}`,
    )
  }
  console.log(
    `  subject page api / best keyset page: first ${f.ratios.firstOverBest.toPrecision(3)}, middle ${f.ratios.middleOverBest.toPrecision(3)}, last ${f.ratios.lastOverBest.toPrecision(3)}`,
  )
  console.log(`  subject last page / first page     = ${f.ratios.lastOverFirst.toPrecision(3)}`)
  console.log(`    plan of the api page:  ${f.plans.api.join(' | ')}${f.apiPlanSorts ? '  ← SORTS: no index serves it in order' : ''}`)
  console.log(`    plan of the best page: ${f.plans.best.join(' | ')}`)
}

// Alone: `npx tsx bench/subjects.ts`.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { rows: { type: 'string' }, runs: { type: 'string' }, iterations: { type: 'string' } } })
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-subjects-'))
  try {
    const f = await runSubjectBench({
      dir,
      rows: values.rows ? Number(values.rows) : undefined,
      runs: values.runs ? Number(values.runs) : undefined,
      iterations: values.iterations ? Number(values.iterations) : undefined,
      log: (line) => console.log(`bench: ${line}`),
    })
    printSubjectBench(f)
    console.log('BENCH_SUBJECTS_JSON ' + JSON.stringify(f))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
