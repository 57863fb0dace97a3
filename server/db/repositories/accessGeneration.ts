import type { Q } from '../query.ts'

/** The access generation (tables/accessGeneration.ts): one primary-key read, on every request. */
export async function readAccessGeneration(db: Q): Promise<number> {
  const row = await db.selectFrom('access_generation').select('n').where('id', '=', 1).executeTakeFirstOrThrow()
  return Number(row.n)
}
