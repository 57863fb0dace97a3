import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * A kept download was answered again to its maker after their role was narrowed to some centers
 * or queues, though it held the others' subjects. Each download now records the centers and
 * queues it could hold (a JSON list of ids; NULL: every one of the project), and fetching it again
 * needs them all still. Rows from before never recorded it: NULL, every one, never more than allowed.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('data_download').addColumn('held_center_ids', 'text').execute()
  await db.schema.alterTable('data_download').addColumn('held_queue_ids', 'text').execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('data_download').dropColumn('held_queue_ids').execute()
  await db.schema.alterTable('data_download').dropColumn('held_center_ids').execute()
}
