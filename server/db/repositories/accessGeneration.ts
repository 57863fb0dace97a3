import { CompiledQuery } from 'kysely'
import type { Q } from '../query.ts'

/** The same text on both dialects: read on every request, so built and compiled once. */
const generationQuery = CompiledQuery.raw('select n from access_generation where id = 1')

/** The access generation (tables/accessGeneration.ts): one primary-key read, on every request. */
export async function readAccessGeneration(db: Q): Promise<number> {
  const { rows } = await db.executeQuery<{ n: number | string }>(generationQuery)
  if (rows.length === 0) throw new Error('access_generation has no row (migration 20261204_0025)')
  return Number(rows[0]!.n)
}
