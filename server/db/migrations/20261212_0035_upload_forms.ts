import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * An upload's record named its file but not the CRFs the file was read into, so a data manager
 * looking for the load that changed a form had to open file after file. The ids of those CRFs are
 * kept (comma-separated, in the file's order); the records name them in the reader's language.
 * Rows from before have none.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('data_upload')
    .addColumn('template_ids', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('data_upload').dropColumn('template_ids').execute()
}
