import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * Every page of the indicator list is `WHERE <filters> [AND (sort, id) > (?, ?)] ORDER BY sort, id
 * LIMIT n` (desc: both columns desc, `<`). An index serves it with no sort when it holds the
 * equality filters first, then the sort column, then id. Five filters can be combined 31 ways
 * with six sort keys, so the rule is:
 *   - one (sort, id) index per sort key: the unfiltered list (code is unique: its own index, and
 *     the page orders by code alone);
 *   - one (filter, sort, id) index per equality filter × sort key. Where filter and sort are one
 *     column the column is constant and (sort, id) already serves the page;
 *   - combined filters walk one filter's index in sort order and test the others on each row:
 *     still no sort; the planner picks the most selective from its statistics.
 * The COUNT of one filter is a range of that filter's index, read from the index alone.
 * A q prefix of code, Chinese or English name is a union of three ranges no index holds in sort
 * order: the page reads the matches through the lower() indexes of 0004 and sorts them, as its
 * COUNT reads them anyway. Walking a sort index instead and testing each row was tried at 100 k
 * rows: 1-2 ms against 70-80 ms for a one-letter search, but up to 300 ms (the whole index) where
 * matches are few or cluster late in the sort order, as names starting with 血 sorted by name.
 * The (category, id), (status, id) and (disease_id, code) indexes are prefixes of the new ones.
 * The price is on writes: 20,000 single-row inserts took 2.3× as long as with the indexes before
 * (1.4 s against 0.6 s); the dictionary is read far more often than it is written.
 */
const sorts = ['code', 'name_zh', 'name_en', 'type', 'index_class', 'updated_at'] as const
const filters = ['disease_id', 'index_class', 'category', 'type', 'status'] as const
const superseded = {
  indicator_category_idx: ['category', 'id'],
  indicator_status_idx: ['status', 'id'],
  indicator_disease_idx: ['disease_id', 'code'],
} as const

const pairs = filters.flatMap((f) => sorts.filter((s) => s !== f).map((s) => [f, s] as const))

export async function up(db: AnyDb): Promise<void> {
  for (const [f, s] of pairs) {
    await db.schema.createIndex(`indicator_${f}_${s}_idx`).on('indicator').columns([f, s, 'id']).execute()
  }
  for (const name of Object.keys(superseded)) await db.schema.dropIndex(name).execute()
}

export async function down(db: AnyDb): Promise<void> {
  for (const [name, cols] of Object.entries(superseded)) {
    await db.schema
      .createIndex(name)
      .on('indicator')
      .columns([...cols])
      .execute()
  }
  for (const [f, s] of [...pairs].reverse()) await db.schema.dropIndex(`indicator_${f}_${s}_idx`).execute()
}
