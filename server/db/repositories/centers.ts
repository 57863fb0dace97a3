import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { CenterInput } from '../../../contract/projects.ts'
import type { Database } from '../database.ts'
import type { Q } from '../query.ts'
import type { Center } from '../tables/project.ts'
import { foldAsciiCase, prefixUpperBound } from './indicators.ts'

/** A directory entry with the number of projects that use it. */
export interface CenterWithCount extends Center {
  project_count: number
}

function withCount(db: Q) {
  return db
    .selectFrom('center')
    .selectAll('center')
    .select((eb) =>
      eb
        .selectFrom('project_center as pc')
        .whereRef('pc.center_id', '=', 'center.id')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .as('project_count'),
    )
}

const counted = (r: Center & { project_count: number | string | null }): CenterWithCount => ({
  ...r,
  project_count: Number(r.project_count ?? 0),
})

/** Prefix of the column, ASCII letters in any case (as the dictionary's search does). */
function prefixOf(eb: ExpressionBuilder<Database, 'center'>, col: 'code' | 'name_zh' | 'name_en', q: string): Expression<SqlBool> {
  const folded = foldAsciiCase(q)
  const upper = prefixUpperBound(folded)
  const lowered = sql<string>`lower(${sql.ref(`center.${col}`)})`
  const startsWith = eb(sql<string>`substr(lower(${sql.ref(`center.${col}`)}), 1, ${sql.lit(Array.from(folded).length)})`, '=', folded)
  return eb.and([eb(lowered, '>=', folded), ...(upper === null ? [] : [eb(lowered, '<', upper)]), startsWith])
}

function filter(eb: ExpressionBuilder<Database, 'center'>, q: string | undefined): Expression<SqlBool>[] {
  return q ? [eb.or([prefixOf(eb, 'code', q), prefixOf(eb, 'name_zh', q), prefixOf(eb, 'name_en', q)])] : []
}

export interface CenterPageQuery {
  q: string | undefined
  /** The name and id of the last row of the previous page. */
  after: readonly [string, number] | null
  limit: number
}

/** One page in (name_zh, id) order, the directory's index (center_name_idx): keyset, never OFFSET. */
export async function listCenterRows(db: Q, p: CenterPageQuery): Promise<CenterWithCount[]> {
  const after = p.after
  const rows = await withCount(db)
    .where((eb) =>
      eb.and([...filter(eb, p.q), ...(after ? [eb(eb.refTuple('center.name_zh', 'center.id'), '>', eb.tuple(after[0], after[1]))] : [])]),
    )
    .orderBy('center.name_zh')
    .orderBy('center.id')
    .limit(p.limit)
    .execute()
  return rows.map(counted)
}

export async function countCenterRows(db: Q, q: string | undefined): Promise<number> {
  const row = await db
    .selectFrom('center')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => eb.and(filter(eb, q)))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function findCenterWithCount(db: Q, id: number): Promise<CenterWithCount | undefined> {
  const row = await withCount(db).where('center.id', '=', id).executeTakeFirst()
  return row && counted(row)
}

export function findCenterById(db: Q, id: number): Promise<Center | undefined> {
  return db.selectFrom('center').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The entry holding `code` in any case, as the unique index on lower(code) compares. */
export function findCenterByCode(db: Q, code: string): Promise<Center | undefined> {
  return db
    .selectFrom('center')
    .selectAll()
    .where(sql<string>`lower(code)`, '=', sql<string>`lower(${code})`)
    .executeTakeFirst()
}

export async function insertCenter(db: Q, c: CenterInput, now: string): Promise<number> {
  const row = await db
    .insertInto('center')
    .values({ code: c.code, name_zh: c.nameZh, name_en: c.nameEn, region: c.region, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateCenterRow(db: Q, id: number, c: CenterInput, now: string): Promise<void> {
  await db
    .updateTable('center')
    .set({ code: c.code, name_zh: c.nameZh, name_en: c.nameEn, region: c.region, updated_at: now })
    .where('id', '=', id)
    .execute()
}

export async function deleteCenterRow(db: Q, id: number): Promise<void> {
  await db.deleteFrom('center').where('id', '=', id).execute()
}

/** Projects that list the center; their roles and subjects refer to it only through them. */
export async function countProjectsUsingCenter(db: Q, id: number): Promise<number> {
  const row = await db
    .selectFrom('project_center')
    .select((eb) => eb.fn.count<number | string>('project_id').distinct().as('n'))
    .where('center_id', '=', id)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
