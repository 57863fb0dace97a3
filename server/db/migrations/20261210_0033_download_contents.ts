import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * A kept download was answered again to whoever made it, even after they lost the right to see
 * randomization groups or identifier fields it held. Each download now records whether it held
 * them, and fetching it again needs that right still. What rows from before held is unknown, so
 * they count as holding both: never more than allowed.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('data_download')
    .addColumn('holds_groups', 'integer', (c) => c.notNull().defaultTo(1))
    .execute()
  await db.schema
    .alterTable('data_download')
    .addColumn('holds_identifiers', 'integer', (c) => c.notNull().defaultTo(1))
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('data_download').dropColumn('holds_identifiers').execute()
  await db.schema.alterTable('data_download').dropColumn('holds_groups').execute()
}
