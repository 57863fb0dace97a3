import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * An upload's message was kept as text in the uploader's language, so a colleague reading the
 * records in the other language read it untranslated. The message key and its parameters are
 * kept beside it and the text is made in the reader's language; rows from before keep their text.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('data_upload').addColumn('message_key', 'varchar(80)').execute()
  await db.schema.alterTable('data_upload').addColumn('message_params', 'text').execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('data_upload').dropColumn('message_params').execute()
  await db.schema.alterTable('data_upload').dropColumn('message_key').execute()
}
