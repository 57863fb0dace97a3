import { PostgresAdapter, sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { Q } from '../query.ts'
import { scopeConditions, type ListScope } from '../scope.ts'

/**
 * The subject list's SQL (issue 10 item 1): keyset pages in (sort key, id) order over the
 * (project_id, key, id) indexes of migration 0018 (and the per-indicator ones made when a column
 * is chosen), the caller's queue and center scope inside the WHERE, totals from subject_tally.
 */

/** A sort or filter key: a fixed column or an indicator value of the subject's summary. */
export type ListKey =
  { kind: 'subjectNo' | 'center' | 'queue' | 'status' | 'group' | 'enrolledAt' | 'updatedAt' } | { kind: 'field'; indicatorId: number }

/**
 * The key as SQL, written exactly as its index expression so both planners use the index; the
 * indicator id is a validated integer, inlined because a bound parameter would not match it.
 */
export function keyExpr(key: ListKey): RawBuilder<string | number> {
  switch (key.kind) {
    case 'subjectNo':
      return sql`s.subject_no`
    case 'center':
      return sql`s.center_id`
    case 'queue':
      return sql`s.queue_id`
    case 'status':
      return sql`s.status`
    case 'group':
      return sql`coalesce(s.group_id, 0)`
    case 'enrolledAt':
      return sql`coalesce(s.enrolled_at, '')`
    case 'updatedAt':
      return sql`s.updated_at`
    case 'field':
      return sql`coalesce(s.summary ->> ${sql.lit(`f${key.indicatorId}`)}, '')`
  }
}

export const numericKey = (key: ListKey): boolean => key.kind === 'center' || key.kind === 'queue' || key.kind === 'group'

export interface KeyCondition {
  key: ListKey
  op: 'eq' | 'prefix' | 'has' | 'gte' | 'lte' | 'empty' | 'notEmpty'
  value: string | number
}

/** `%`, `_` and the escape itself taken literally in a LIKE pattern. */
const likeLiteral = (v: string) => v.replace(/[!%_]/g, (c) => `!${c}`)

function condition(c: KeyCondition): Expression<SqlBool> {
  const e = keyExpr(c.key)
  switch (c.op) {
    case 'eq':
      return sql<SqlBool>`${e} = ${c.value}`
    case 'prefix':
      return sql<SqlBool>`substr(${e}, 1, ${sql.lit(Array.from(String(c.value)).length)}) = ${c.value}`
    case 'has':
      return sql<SqlBool>`('|' || ${e} || '|') like ${`%|${likeLiteral(String(c.value))}|%`} escape '!'`
    case 'gte':
      return sql<SqlBool>`${e} >= ${c.value}`
    case 'lte':
      return sql<SqlBool>`${e} <= ${c.value}`
    case 'empty':
      return numericKey(c.key) ? sql<SqlBool>`${e} = 0` : sql<SqlBool>`${e} = ''`
    case 'notEmpty':
      return numericKey(c.key) ? sql<SqlBool>`${e} <> 0` : sql<SqlBool>`${e} <> ''`
  }
}

export interface SubjectWhere {
  /** policy projectScope('subject.list'): the project and the caller's queues and centers. */
  scope: ListScope
  centerId?: number | undefined
  queueId?: number | undefined
  status?: string | undefined
  /** Subject number prefix, ASCII letters in any case (already lower-cased). */
  q?: string | undefined
  conditions: readonly KeyCondition[]
}

/** The conditions joined by AND; none is true. */
const allOf = (conds: readonly Expression<SqlBool>[]) => (conds.length > 0 ? sql.join(conds, sql` and `) : sql`1 = 1`)

function whereOf(w: SubjectWhere): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [...scopeConditions(w.scope, { project: 's.project_id', queue: 's.queue_id', center: 's.center_id' })]
  if (w.centerId !== undefined) out.push(sql<SqlBool>`s.center_id = ${w.centerId}`)
  if (w.queueId !== undefined) out.push(sql<SqlBool>`s.queue_id = ${w.queueId}`)
  if (w.status !== undefined) out.push(sql<SqlBool>`s.status = ${w.status}`)
  if (w.q) out.push(sql<SqlBool>`substr(lower(s.subject_no), 1, ${sql.lit(Array.from(w.q).length)}) = ${w.q}`)
  out.push(...w.conditions.map(condition))
  return out
}

export interface SubjectPageQuery extends SubjectWhere {
  sort: ListKey
  order: 'asc' | 'desc'
  /** Sort value and id of the last row of the previous page. */
  after: readonly [string | number, number] | null
  /**
   * Which rows after `after`: 'tie' those with its very sort value and a later id, 'past' those
   * with a later sort value. Each is one index range in order; a row value `(key, id) > (v, id)`
   * ('row') is one statement, which PostgreSQL ranges over the index, but SQLite does not range an
   * expression index with it, and a spelled out OR reads every row of a much repeated value (a
   * page of ages 40 would read all the 40s).
   */
  part?: 'tie' | 'past' | 'row'
  limit: number
  /**
   * The indicator columns to read, as `v0`, `v1`, … in this order: only these values leave the
   * database, not the whole summary (every plain value of the subject's forms).
   */
  fields?: readonly number[]
}

/**
 * A page row: the fixed columns, the sort value, `v<i>` for the i-th of `fields` (null when not
 * entered), and the counters' total of the page's where without its filters (`tallyOf`), the
 * same on every row.
 */
export interface SubjectPageRow {
  id: number
  subject_no: string
  center_id: number
  queue_id: number
  status: string
  group_id: number | null
  enrolled_at: string | null
  updated_at: string
  sort_value: string | number
  tally: number | string
  [value: `v${number}`]: string | null
}

/**
 * One keyset page (or part of one): the (project_id, key, id) index gives the order, so no page
 * sorts and the last costs what the first does (DESIGN §6, §8).
 */
export function subjectPageQuery(p: SubjectPageQuery): RawBuilder<SubjectPageRow> {
  const key = keyExpr(p.sort)
  const dir = sql.raw(p.order)
  const past = sql.raw(p.order === 'asc' ? '>' : '<')
  const tie = p.after !== null && p.part === 'tie'
  const conds = whereOf(p)
  if (p.after && tie) conds.push(sql<SqlBool>`${key} = ${p.after[0]}`, sql<SqlBool>`s.id ${past} ${p.after[1]}`)
  else if (p.after && p.part === 'row') conds.push(sql<SqlBool>`(${key}, s.id) ${past} (${p.after[0]}, ${p.after[1]})`)
  else if (p.after) conds.push(sql<SqlBool>`${key} ${past} ${p.after[0]}`)
  const values = (p.fields ?? []).map((id, i) => sql`, s.summary ->> ${sql.lit(`f${id}`)} as ${sql.ref(`v${i}`)}`)
  // Tied rows share the key: ordered by id alone, the primary key serves them too, still without a sort.
  const order = tie ? sql`s.id ${dir}` : sql`${key} ${dir}, s.id ${dir}`
  // One template rather than Kysely's query builder: this statement runs on every page, and
  // building and compiling the builder's tree cost about a third of what running it costs.
  // The total rides along rather than costing a statement of its own: an uncorrelated
  // subquery, computed once per statement.
  return sql<SubjectPageRow>`select s.id, s.subject_no, s.center_id, s.queue_id, s.status, s.group_id, s.enrolled_at, s.updated_at,
    ${tallyOf(p)} as tally, ${key} as sort_value${sql.join(values, sql``)}
    from subject s where ${allOf(conds)} order by ${order} limit ${p.limit}`
}

/**
 * A page's rows: without a cursor one statement; after one, on PostgreSQL one statement too (a row
 * value), on SQLite the rows tied on its sort value, then those past it.
 */
export async function subjectPage(db: Q, p: SubjectPageQuery): Promise<SubjectPageRow[]> {
  const run = async (q: SubjectPageQuery) => (await subjectPageQuery(q).execute(db)).rows
  if (!p.after) return run(p)
  if (db.getExecutor().adapter instanceof PostgresAdapter) return run({ ...p, part: 'row' })
  const tie = await run({ ...p, part: 'tie' })
  if (tie.length >= p.limit) return tie
  return [...tie, ...(await run({ ...p, part: 'past', limit: p.limit - tie.length }))]
}

/** A page with the counters' total of its where (`tallyOf`): read with the rows, or alone when there are none. */
export async function subjectPageWithTally(db: Q, p: SubjectPageQuery): Promise<{ rows: SubjectPageRow[]; tally: number }> {
  const rows = await subjectPage(db, p)
  return { rows, tally: rows.length > 0 ? Number(rows[0]!.tally) : await tallyTotal(db, p) }
}

export async function countSubjectsWhere(db: Q, w: SubjectWhere): Promise<number> {
  const r = await db
    .selectFrom('subject as s')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => eb.and(whereOf(w)))
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

type TallyWhere = Pick<SubjectWhere, 'scope' | 'centerId' | 'queueId' | 'status'>

/** The counters' total of the scope, center, queue and status, as a subquery: a handful of rows per project, whatever the number of subjects. */
function tallyOf(w: TallyWhere): RawBuilder<number | string> {
  const conds = scopeConditions(w.scope, { project: 't.project_id', queue: 't.queue_id', center: 't.center_id' })
  if (w.centerId !== undefined) conds.push(sql<SqlBool>`t.center_id = ${w.centerId}`)
  if (w.queueId !== undefined) conds.push(sql<SqlBool>`t.queue_id = ${w.queueId}`)
  if (w.status !== undefined) conds.push(sql<SqlBool>`t.status = ${w.status}`)
  return sql`(select coalesce(sum(t.n), 0) from subject_tally t where ${allOf(conds)})`
}

async function tallyTotal(db: Q, w: TallyWhere): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select ${tallyOf(w)} as n`.execute(db)
  return Number(rows[0]!.n)
}

/** Counts one subject more (or less) in its project, center, queue and status; inside the writer's transaction. */
export async function bumpTally(db: Q, s: { projectId: number; centerId: number; queueId: number; status: string }, delta: number) {
  await db
    .insertInto('subject_tally')
    .values({ project_id: s.projectId, center_id: s.centerId, queue_id: s.queueId, status: s.status, n: delta })
    .onConflict((oc) =>
      oc.columns(['project_id', 'center_id', 'queue_id', 'status']).doUpdateSet((eb) => ({ n: eb('subject_tally.n', '+', delta) })),
    )
    .execute()
}

/** The sort value of one subject, for its neighbours; the caller has checked it is in scope. */
export async function sortValueOf(db: Q, subjectId: number, key: ListKey): Promise<string | number | undefined> {
  const r = await db.selectFrom('subject as s').select(keyExpr(key).as('v')).where('s.id', '=', subjectId).executeTakeFirst()
  return r?.v
}

/**
 * The names a page shows, by id, in one statement (a page names a center or three and a queue or
 * two): center names in Chinese and English, queue and group names as they were entered.
 */
export async function namesOfPage(db: Q, centerIds: readonly number[], queueIds: readonly number[], groupIds: readonly number[]) {
  // No row has id 0: a kind without ids reads nothing, and the statement keeps one shape.
  const none = [0]
  const rows = await db
    .selectFrom('center')
    .select([sql<string>`'center'`.as('kind'), 'id', 'name_zh as name', 'name_en'])
    .where('id', 'in', centerIds.length > 0 ? centerIds : none)
    .unionAll(
      db
        .selectFrom('project_queue')
        .select([sql<string>`'queue'`.as('kind'), 'id', 'name', sql<string>`''`.as('name_en')])
        .where('id', 'in', queueIds.length > 0 ? queueIds : none),
    )
    .unionAll(
      db
        .selectFrom('project_group')
        .select([sql<string>`'group'`.as('kind'), 'id', 'name', sql<string>`''`.as('name_en')])
        .where('id', 'in', groupIds.length > 0 ? groupIds : none),
    )
    .execute()
  const of = (kind: string) => rows.filter((r) => r.kind === kind)
  return {
    centers: of('center').map((r) => ({ id: r.id, name_zh: r.name, name_en: r.name_en })),
    queues: of('queue').map((r) => ({ id: r.id, name: r.name })),
    groups: of('group').map((r) => ({ id: r.id, name: r.name })),
  }
}

// ---------------------------------------------------------------------------------------------
// Display fields

export async function listFieldIds(db: Q, projectId: number, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('subject_list_field')
    .select('indicator_id')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('sort')
    .execute()
  return rows.map((r) => r.indicator_id)
}

export async function replaceListFields(db: Q, projectId: number, userId: number, indicatorIds: readonly number[]): Promise<void> {
  await db.deleteFrom('subject_list_field').where('project_id', '=', projectId).where('user_id', '=', userId).execute()
  if (indicatorIds.length === 0) return
  await db
    .insertInto('subject_list_field')
    .values(indicatorIds.map((indicator_id, sort) => ({ project_id: projectId, user_id: userId, indicator_id, sort })))
    .execute()
}

/**
 * The expression index behind an indicator column (sort, filter, keyset), shared by all projects;
 * made once, the first time anyone chooses the column.
 */
export async function ensureFieldIndex(db: Q, indicatorId: number): Promise<void> {
  const name = sql.raw(`subject_f${indicatorId}_idx`)
  await sql`CREATE INDEX IF NOT EXISTS ${name} ON subject (project_id, (coalesce(summary ->> ${sql.lit(`f${indicatorId}`)}, '')), id)`.execute(
    db,
  )
}
