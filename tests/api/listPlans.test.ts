import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { indexCategories, indicatorSortKeys, indicatorTypes } from '../../contract/dictionary.ts'
import {
  indicatorCountQuery,
  indicatorPageQuery,
  indicatorSortColumns,
  listIndicatorRows,
  type IndicatorFilter,
} from '../../server/db/repositories/indicators.ts'
import { seedReferenceData } from '../../server/services/seed.ts'
import { explain, type Plan } from '../support/explain.ts'
import type { ListScope } from '../../server/db/scope.ts'
import { freshDb } from '../support/testDb.ts'

/** The plans are those of a caller who sees every row: the scope adds no condition. */
const everyRow: ListScope = { kind: 'all' }

/**
 * Every page of the indicator list is read from an index in filter-then-sort order (issue 7
 * item 7; migration 0006): for each filter alone and none, each sort key, each order, first page
 * and a page behind a cursor, the plan the database makes for the exact SQL the repository runs
 * has no sort step. The table holds 20,000 indicators spread like real ones, with statistics
 * gathered, so the planners choose as they would in use.
 */

const rows = 20_000
let db: Awaited<ReturnType<typeof freshDb>>
let diseaseId: number

beforeAll(async () => {
  db = await freshDb()
  const at = new Date().toISOString()
  await seedReferenceData(db.kysely, new Date())
  const diseases = (await db.kysely.selectFrom('disease').select('id').execute()).map((r) => r.id)
  diseaseId = diseases[1]!
  // Deterministic spread: every value of each filter occurs, with uneven shares as in use.
  const batch = 500
  for (let start = 0; start < rows; start += batch) {
    await db.kysely
      .insertInto('indicator')
      .values(
        Array.from({ length: batch }, (_, k) => {
          const i = start + k
          const h = (i * 2654435761) >>> 0
          return {
            // h is a bijection of i: unique codes in no relation to the order rows are stored in.
            code: `IND${String(h).padStart(10, '0')}`,
            name_zh: `指标${h % 9973}`,
            name_en: `field ${h % 7919}`,
            type: indicatorTypes[i % indicatorTypes.length]!,
            display: 'input',
            data_type: 'text',
            comment: '',
            options: '[]',
            unit: '',
            status: h % 10 === 0 ? 0 : 1,
            index_class: `分类${h % 40}`,
            category: indexCategories[h % indexCategories.length]!,
            disease_id: h % 5 === 0 ? null : diseases[h % diseases.length]!,
            created_at: at,
            updated_at: new Date(Date.UTC(2025, 0, 1) + (h % 1e6) * 60_000).toISOString(),
          }
        }),
      )
      .execute()
  }
  // What autovacuum and PRAGMA optimize (server/db/connect.ts) give a database in use.
  await sql.raw(db.dialect === 'postgres' ? 'VACUUM ANALYZE indicator' : 'ANALYZE').execute(db.kysely)
}, 120_000)
afterAll(() => db.drop())

/** Each filter alone (and none), with the column it pins. */
const filters: Record<string, { column: string | null; filter: () => IndicatorFilter }> = {
  none: { column: null, filter: () => ({}) },
  diseaseId: { column: 'disease_id', filter: () => ({ diseaseId }) },
  indexClass: { column: 'index_class', filter: () => ({ indexClass: '分类7' }) },
  category: { column: 'category', filter: () => ({ category: 'object' }) },
  type: { column: 'type', filter: () => ({ type: 'single' }) },
  status: { column: 'status', filter: () => ({ status: 0 }) },
}

const countOf = async (filter: IndicatorFilter) =>
  Number((await indicatorCountQuery(db.kysely, filter, everyRow).executeTakeFirstOrThrow()).n)

/**
 * The indexes that serve a page under migration 0006's rule: (filter, sort, id); (sort, id) when
 * no other column is pinned. Where the filter pins the sort column the page is in id order,
 * which PostgreSQL may also read from the primary key, its rows being stored in id order.
 */
function servingIndexes(filter: string | null, sort: string): string[] {
  if (filter !== null && filter !== sort) return [`indicator_${filter}_${sort}_idx`]
  if (filter === sort) return db.dialect === 'postgres' ? [`indicator_${sort}_idx`, 'indicator_pkey'] : [`indicator_${sort}_idx`]
  if (sort !== 'code') return [`indicator_${sort}_idx`]
  return [db.dialect === 'postgres' ? 'indicator_code_key' : 'sqlite_autoindex_indicator_1']
}

const show = (p: Plan) => p.lines.join(' | ')

describe('keyset pages of every cursor shape and plan', () => {
  type Row = { id: number; code: string; category: string; type: string; index_class: string }
  // (sort, id) pairs; code alone, being unique; id alone where the filter pins the sort column.
  const cases: { filter: IndicatorFilter; keep: (r: Row) => boolean; key: (typeof indicatorSortKeys)[number] }[] = [
    { filter: { category: 'object' }, keep: (r) => r.category === 'object', key: 'nameZh' },
    { filter: { category: 'object' }, keep: (r) => r.category === 'object', key: 'code' },
    { filter: { type: 'single' }, keep: (r) => r.type === 'single', key: 'type' },
    { filter: { indexClass: '分类7' }, keep: (r) => r.index_class === '分类7', key: 'indexClass' },
    { filter: {}, keep: () => true, key: 'updatedAt' },
  ]
  for (const { filter, keep, key } of cases) {
    for (const order of ['asc', 'desc'] as const) {
      it(`${JSON.stringify(filter)}, sort ${key} ${order}: every row once, in the order of a plain ORDER BY`, async () => {
        const sort = indicatorSortColumns[key]
        const all = await db.kysely
          .selectFrom('indicator')
          .select(['id', 'code', 'category', 'type', 'index_class'])
          .orderBy(sort, order)
          .orderBy('id', order)
          .execute()
        const expected = all.filter(keep).map((r) => r.id)
        const matches = await countOf(filter)
        expect(matches).toBe(expected.length)
        const ids: number[] = []
        let after: readonly [string, number] | null = null
        for (;;) {
          const page = await listIndicatorRows(db.kysely, { scope: everyRow, filter, sort, order, after, limit: 500 })
          ids.push(...page.map((r) => r.id))
          const last = page[page.length - 1]
          if (page.length < 500 || !last) break
          after = [String(last[sort]), last.id]
        }
        expect(expected.length).toBeGreaterThan(500)
        expect(ids).toEqual(expected)
      })
    }
  }
})

describe('indicator list pages', () => {
  for (const [name, { column, filter }] of Object.entries(filters)) {
    for (const key of indicatorSortKeys) {
      for (const order of ['asc', 'desc'] as const) {
        it(`filter ${name}, sort ${key} ${order}: first and deep pages read an index in order`, async () => {
          const sort = indicatorSortColumns[key]
          // A cursor near the middle of the filtered list, as the next page would send.
          const mid = await indicatorPageQuery(db.kysely, { scope: everyRow, filter: filter(), sort, order, after: null, limit: 1 })
            .offset(Math.floor((await countOf(filter())) / 2))
            .executeTakeFirstOrThrow()
          for (const after of [null, [String(mid[sort]), mid.id] as const]) {
            const q = indicatorPageQuery(db.kysely, { scope: everyRow, filter: filter(), sort, order, after, limit: 51 }).compile()
            const plan = await explain(db, q)
            expect(plan.sorts, show(plan)).toEqual([])
            expect(plan.indexes.length, show(plan)).toBe(1)
            expect(servingIndexes(column, sort), show(plan)).toContain(plan.indexes[0])
          }
        })
      }
    }
  }

  // PostgreSQL sorts the few rows two or three selective filters leave when its costs say so;
  // what must hold is that a plan reading one filter's index in sort order exists.
  it('combined filters can read one filter index in sort order', async () => {
    const combined: IndicatorFilter[] = [
      { category: 'object', status: 1 },
      { diseaseId: 1, type: 'date' },
      { indexClass: '分类3', category: 'sample', status: 1 },
    ]
    for (const filter of combined) {
      for (const key of indicatorSortKeys) {
        const q = indicatorPageQuery(db.kysely, {
          scope: everyRow,
          filter,
          sort: indicatorSortColumns[key],
          order: 'desc',
          after: null,
          limit: 51,
        }).compile()
        const plan = await explain(db, q, { sortFreeIfAny: true })
        expect(plan.sorts, `${JSON.stringify(filter)} ${key}: ${show(plan)}`).toEqual([])
      }
    }
  })

  it('the COUNT of one filter is read from an index, never the table', async () => {
    for (const [name, { filter }] of Object.entries(filters)) {
      if (name === 'none') continue
      const plan = await explain(db, indicatorCountQuery(db.kysely, filter(), everyRow).compile())
      expect(plan.indexes.length, `${name}: ${show(plan)}`).toBeGreaterThan(0)
    }
  })

  // The one exception to the rule (migration 0006): the matches of a prefix of three columns.
  it('a q search reads only its matches, through the lower() indexes, and sorts them', async () => {
    expect(await countOf({ q: 'ind0001' })).toBeGreaterThan(0)
    const plan = await explain(
      db,
      indicatorPageQuery(db.kysely, {
        scope: everyRow,
        filter: { q: 'ind0001' },
        sort: 'name_zh',
        order: 'asc',
        after: null,
        limit: 51,
      }).compile(),
    )
    expect(plan.indexes, show(plan)).toEqual(
      expect.arrayContaining(['indicator_code_lower_idx', 'indicator_name_zh_lower_idx', 'indicator_name_en_lower_idx']),
    )
  })
})
