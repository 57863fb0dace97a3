import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { careerPageQuery } from '../../server/db/repositories/organization.ts'
import { explain, type Plan } from '../support/explain.ts'
import { freshDb } from '../support/testDb.ts'

/**
 * Every unfiltered page of the career list is read from an index in its sort order (DESIGN §8):
 * by name (career_name_idx) or by creation (the primary key), each order, first page and a page
 * behind a cursor; the plan of the exact SQL the repository runs has no sort step.
 */

const rows = 5_000
let db: Awaited<ReturnType<typeof freshDb>>

beforeAll(async () => {
  db = await freshDb()
  const at = new Date().toISOString()
  for (let start = 0; start < rows; start += 500) {
    await db.kysely
      .insertInto('career')
      .values(
        Array.from({ length: 500 }, (_, k) => {
          const h = ((start + k) * 2654435761) >>> 0
          return { name: `Career ${String(h).padStart(10, '0')}`, remarks: '', created_at: at, updated_at: at }
        }),
      )
      .execute()
  }
  await sql`ANALYZE`.execute(db.kysely)
})
afterAll(() => db.drop())

const show = (plan: Plan) => plan.lines.join(' | ')

describe('career list plans', () => {
  for (const sort of ['name', 'id'] as const) {
    for (const order of ['asc', 'desc'] as const) {
      for (const after of [null, ['Career 2000000000', 2500] as const]) {
        it(`${sort} ${order} ${after ? 'behind a cursor' : 'first page'}: no sort step`, async () => {
          const q = careerPageQuery(db.kysely, { sort, order, after, limit: 51 }).compile()
          const plan = await explain(db, q)
          expect(plan.sorts, show(plan)).toEqual([])
        })
      }
    }
  }
})
