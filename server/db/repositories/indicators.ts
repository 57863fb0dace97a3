import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { IndicatorInput, IndicatorSortKey } from '../../../contract/dictionary.ts'
import type { Database } from '../database.ts'
import type { Q } from '../query.ts'
import { scopeConditions, type ListScope } from '../scope.ts'
import type { IndicatorRow } from '../tables/dictionary.ts'

/** Row values of an indicator as a person entered it (no id, no timestamps). */
export function indicatorValues(f: IndicatorInput) {
  return {
    code: f.code,
    name_zh: f.nameZh,
    name_en: f.nameEn,
    comment: f.comment,
    type: f.type,
    display: f.display,
    data_type: f.dataType,
    options: JSON.stringify(f.options),
    dependent_field_id: f.dependentFieldId,
    dependent_value: f.dependentValue,
    unit: f.unit,
    minimum: f.minimum,
    maximum: f.maximum,
    date_format: f.dateFormat,
    default_value: f.defaultValue,
    status: f.status,
    index_class: f.indexClass,
    category: f.category,
    disease_id: f.diseaseId,
  }
}

export async function insertIndicator(db: Q, f: IndicatorInput, now: string): Promise<number> {
  const row = await db
    .insertInto('indicator')
    .values({ ...indicatorValues(f), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export function findIndicatorById(db: Q, id: number): Promise<IndicatorRow | undefined> {
  return db.selectFrom('indicator').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findIndicatorsByCodes(db: Q, codes: readonly string[]): Promise<IndicatorRow[]> {
  if (codes.length === 0) return Promise.resolve([])
  return db.selectFrom('indicator').selectAll().where('code', 'in', codes).execute()
}

export function findIndicatorsByIds(db: Q, ids: readonly number[]): Promise<IndicatorRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db.selectFrom('indicator').selectAll().where('id', 'in', ids).execute()
}

/** Ids of the given indicators that a published template version holds. */
export async function indicatorsInPublishedVersions(db: Q, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('template_item')
    .innerJoin('template_version', 'template_version.id', 'template_item.version_id')
    .select('template_item.indicator_id')
    .where('template_version.state', '=', 'published')
    .where('template_item.indicator_id', 'in', ids)
    .distinct()
    .execute()
  return new Set(rows.map((r) => r.indicator_id))
}

export function findIndicatorByCode(db: Q, code: string): Promise<IndicatorRow | undefined> {
  return db.selectFrom('indicator').selectAll().where('code', '=', code).executeTakeFirst()
}

export async function updateIndicatorRow(db: Q, id: number, f: IndicatorInput, now: string): Promise<void> {
  await db
    .updateTable('indicator')
    .set({ ...indicatorValues(f), updated_at: now })
    .where('id', '=', id)
    .execute()
}

export async function setIndicatorStatusRow(db: Q, id: number, status: 0 | 1, now: string): Promise<void> {
  await db.updateTable('indicator').set({ status, updated_at: now }).where('id', '=', id).execute()
}

export async function deleteIndicatorRow(db: Q, id: number): Promise<void> {
  await db.deleteFrom('indicator').where('id', '=', id).execute()
}

/** Indicators shown only when `id` has a given value (their dependent field is `id`). */
export function findDependents(db: Q, id: number): Promise<Pick<IndicatorRow, 'id' | 'code' | 'dependent_value'>[]> {
  return db.selectFrom('indicator').select(['id', 'code', 'dependent_value']).where('dependent_field_id', '=', id).orderBy('id').execute()
}

/** True when any template version, draft or published, holds the indicator. */
export async function indicatorInAnyVersion(db: Q, id: number): Promise<boolean> {
  const row = await db.selectFrom('template_item').select('indicator_id').where('indicator_id', '=', id).limit(1).executeTakeFirst()
  return row !== undefined
}

/** The column behind each sort key of the contract; each is indexed together with id. */
export const indicatorSortColumns = {
  code: 'code',
  nameZh: 'name_zh',
  nameEn: 'name_en',
  type: 'type',
  indexClass: 'index_class',
  updatedAt: 'updated_at',
} as const satisfies Record<IndicatorSortKey, keyof IndicatorRow>
export type IndicatorSortColumn = (typeof indicatorSortColumns)[IndicatorSortKey]

export interface IndicatorFilter {
  diseaseId?: number | undefined
  indexClass?: string | undefined
  category?: string | undefined
  type?: string | undefined
  status?: number | undefined
  /**
   * Prefix of code, Chinese or English name; ASCII letters match regardless of case ('bp' finds
   * 'BP_SYS'), every other character exactly.
   */
  q?: string | undefined
}

/**
 * The smallest string greater than every string that starts with `q`, in code point order
 * (UTF-8 byte order, which is SQLite's BINARY collation and PostgreSQL's "C"): `q` with its last
 * code point incremented. Unlike `q || '\uffff'` it also bounds names that continue with a
 * character beyond U+FFFF. Null when no such bound exists (`q` ends in U+10FFFF).
 */
export function prefixUpperBound(q: string): string | null {
  const cps = Array.from(q)
  const last = cps.pop()
  if (last === undefined) return null
  let cp = (last.codePointAt(0) ?? 0) + 1
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xe000 // lone surrogates are no characters
  if (cp > 0x10ffff) return null
  return cps.join('') + String.fromCodePoint(cp)
}

/**
 * `q` with A-Z in lower case and nothing else changed: what SQLite's lower() does, and so the
 * folding both databases agree on (PostgreSQL's lower() may also fold other letters, by locale).
 */
export function foldAsciiCase(q: string): string {
  return q.replace(/[A-Z]+/g, (s) => s.toLowerCase())
}

function prefixOf(eb: ExpressionBuilder<Database, 'indicator'>, col: 'code' | 'name_zh' | 'name_en', q: string): Expression<SqlBool> {
  const folded = foldAsciiCase(q)
  const upper = prefixUpperBound(folded)
  // lower(col) is what the indexes of migration 0004 hold, so the range is what they serve (never
  // LIKE '%x%', DESIGN §8). The substr test keeps the answer exact where the column's collation
  // is not code point order (a PostgreSQL database created with a linguistic locale), at the cost
  // of one comparison per row.
  const lowered = sql<string>`lower(${sql.ref(col)})`
  const startsWith = eb(sql<string>`substr(lower(${sql.ref(col)}), 1, ${sql.lit(Array.from(folded).length)})`, '=', folded)
  return eb.and([eb(lowered, '>=', folded), ...(upper === null ? [] : [eb(lowered, '<', upper)]), startsWith])
}

/** The list's filters as conditions: the page, its count and the export all read these. */
export function filterConditions(eb: ExpressionBuilder<Database, 'indicator'>, f: IndicatorFilter): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = []
  if (f.diseaseId !== undefined) out.push(eb('disease_id', '=', f.diseaseId))
  if (f.indexClass !== undefined) out.push(eb('index_class', '=', f.indexClass))
  if (f.category !== undefined) out.push(eb('category', '=', f.category))
  if (f.type !== undefined) out.push(eb('type', '=', f.type))
  if (f.status !== undefined) out.push(eb('status', '=', f.status))
  if (f.q) {
    const q = f.q
    out.push(eb.or([prefixOf(eb, 'code', q), prefixOf(eb, 'name_zh', q), prefixOf(eb, 'name_en', q)]))
  }
  return out
}

export interface IndicatorPageQuery {
  filter: IndicatorFilter
  /** The rows the caller may see (server/services/policy.ts listScope). */
  scope: ListScope
  sort: IndicatorSortColumn
  order: 'asc' | 'desc'
  /** The sort value and id of the last row of the previous page. */
  after: readonly [string, number] | null
  limit: number
}

/**
 * One page in (sort column, id) order: keyset paging, so the deepest page costs what the first
 * does (DESIGN §8). The row-value comparison `(col, id) > (v, id)` is one index range on both
 * SQLite and PostgreSQL; id breaks ties, so no row is missed or repeated between pages. ORDER BY
 * is the (filter, sort, id) indexes' column order, both columns one way, so an equality filter
 * plus the sort is read from one of them with no sort step (migration 0006).
 */
export function indicatorPageQuery(db: Q, p: IndicatorPageQuery) {
  const after = p.after
  const pinned = (p.sort === 'type' && p.filter.type !== undefined) || (p.sort === 'index_class' && p.filter.indexClass !== undefined)
  // code is unique, so it orders alone (PostgreSQL would read its unique index and sort each run
  // of equal codes by id). A sort column an equality filter pins is constant, so id orders alone
  // (PostgreSQL infers no `id > ?` from `(col, id) > (?, ?)` and would sort).
  const keys = p.sort === 'code' ? (['code'] as const) : pinned ? (['id'] as const) : ([p.sort, 'id'] as const)
  return db
    .selectFrom('indicator')
    .selectAll()
    .where((eb) => {
      const conds = [...scopeConditions(p.scope), ...filterConditions(eb, p.filter)]
      const op = p.order === 'asc' ? '>' : '<'
      if (after) {
        if (keys.length === 2) conds.push(eb(eb.refTuple(keys[0], 'id'), op, eb.tuple(after[0], after[1])))
        else conds.push(keys[0] === 'id' ? eb('id', op, after[1]) : eb(keys[0], op, after[0]))
      }
      return eb.and(conds)
    })
    .$call((qb) => keys.reduce((q, k) => q.orderBy(k, p.order), qb))
    .limit(p.limit)
}

export function listIndicatorRows(db: Q, p: IndicatorPageQuery): Promise<IndicatorRow[]> {
  return indicatorPageQuery(db, p).execute()
}

/** A filter's COUNT: for one equality filter, a range of that filter's index, read from the index alone. */
export function indicatorCountQuery(db: Q, filter: IndicatorFilter, scope: ListScope) {
  return db
    .selectFrom('indicator')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => eb.and([...scopeConditions(scope), ...filterConditions(eb, filter)]))
}

export async function countIndicatorRows(db: Q, filter: IndicatorFilter, scope: ListScope): Promise<number> {
  const row = await indicatorCountQuery(db, filter, scope).executeTakeFirstOrThrow()
  return Number(row.n)
}
