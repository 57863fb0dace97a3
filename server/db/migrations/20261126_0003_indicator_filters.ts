import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/** The list's COUNT with a category or status filter read the whole table at 100 k rows. */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('indicator_category_idx').on('indicator').columns(['category', 'id']).execute()
  await db.schema.createIndex('indicator_status_idx').on('indicator').columns(['status', 'id']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('indicator_status_idx').execute()
  await db.schema.dropIndex('indicator_category_idx').execute()
}
