import type { ColumnDefinitionBuilder, Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * Data loading (issue 11): one row per upload and per download, written once when it ends (an
 * upload refused or loaded, a download written), with the content hash of its file. The files
 * themselves (an upload's original, its error report, a download) are kept in DATA_DIR/loads for
 * the retention period. Form instances and sub-form rows an upload writes carry its id, as
 * data_audit rows already can (0017).
 */
export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer'
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())
  const count = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0)

  await db.schema
    .createTable('data_upload')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id'))
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(65)', (c) => c.notNull())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    /** SHA-256 of the uploaded bytes: the re-upload check and the kept file's name. */
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    /** 'xlsx' | 'csv' */
    .addColumn('container', 'varchar(8)', (c) => c.notNull())
    /** 'auto' | 'redcap' */
    .addColumn('format', 'varchar(8)', (c) => c.notNull())
    .addColumn('rows', 'integer', count)
    .addColumn('created', 'integer', count)
    .addColumn('updated', 'integer', count)
    .addColumn('unchanged', 'integer', count)
    .addColumn('enrolled', 'integer', count)
    .addColumn('errors_total', 'integer', count)
    /** 'loaded' | 'refused' | 'failed' */
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    /** Why it was refused, in the uploader's language, when not by its cells. */
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('duration_ms', 'integer', count)
    /** SHA-256 of the error report, kept beside the file; null when there is none. */
    .addColumn('report_sha256', 'varchar(64)')
    .execute()
  await db.schema.createIndex('data_upload_project_idx').on('data_upload').columns(['project_id', 'id']).execute()
  await db.schema.createIndex('data_upload_hash_idx').on('data_upload').columns(['project_id', 'sha256', 'id']).execute()

  await db.schema
    .createTable('data_download')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id'))
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(65)', (c) => c.notNull())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    /** 'xlsx' | 'csv' | 'odm' */
    .addColumn('format', 'varchar(8)', (c) => c.notNull())
    /** What was asked for: the query as JSON (CRFs, fields, queues, centers, visits). */
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', count)
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('rows', 'integer', count)
    .addColumn('duration_ms', 'integer', count)
    .execute()
  await db.schema.createIndex('data_download_project_idx').on('data_download').columns(['project_id', 'id']).execute()

  await db.schema.alterTable('form_record').addColumn('upload_id', 'integer').execute()
  await db.schema.alterTable('form_row').addColumn('upload_id', 'integer').execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('form_row').dropColumn('upload_id').execute()
  await db.schema.alterTable('form_record').dropColumn('upload_id').execute()
  await db.schema.dropTable('data_download').execute()
  await db.schema.dropTable('data_upload').execute()
}
