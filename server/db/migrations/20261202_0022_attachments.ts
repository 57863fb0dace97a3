import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * Attachments of research objects (issue 10): a picture of a subject, of one of its records or of
 * one field of a record. The bytes are in the content-addressed file store; a delete only marks
 * the row, so the data audit trail keeps naming what was there.
 */
export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer'
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())
  await db.schema
    .createTable('attachment')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id'))
    .addColumn('subject_id', 'integer', (c) => c.notNull().references('subject.id'))
    .addColumn('record_id', 'integer', (c) => c.references('form_record.id').onDelete('set null'))
    .addColumn('indicator_id', 'integer')
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('mime', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(32)')
    .addColumn('deleted_by', 'integer')
    .execute()
  // The lists: a subject's attachments, a record's, a field's, newest last.
  await db.schema
    .createIndex('attachment_subject_idx')
    .on('attachment')
    .columns(['subject_id', 'record_id', 'indicator_id', 'id'])
    .execute()
  // A field of a record holds one live picture, even when two uploads race.
  await db.schema
    .createIndex('attachment_field_uq')
    .on('attachment')
    .columns(['record_id', 'indicator_id'])
    .unique()
    .where(sql.ref('indicator_id'), 'is not', null)
    .where(sql.ref('deleted_at'), 'is', null)
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('attachment').execute()
}
