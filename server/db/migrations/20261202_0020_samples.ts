import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * Samples (issue 10 item 9): biomaterial of a research subject. Center and queue are copied from
 * the subject so scope conditions need no join; `root_id` names the first sample of an aliquot
 * tree (its own id for a root), so a whole tree is one indexed read. Numbers are unique per
 * project ignoring case (an expression index). The list's sorts are (project, sort, id) indexes.
 */
export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer'
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())
  const quantity = dialect === 'postgres' ? 'double precision' : 'real'

  await db.schema
    .createTable('sample')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id'))
    .addColumn('subject_id', 'integer', (c) => c.notNull().references('subject.id'))
    .addColumn('center_id', 'integer', (c) => c.notNull())
    .addColumn('queue_id', 'integer', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.references('sample.id'))
    /** Set right after the insert of a root (to its own id). */
    .addColumn('root_id', 'integer')
    .addColumn('sample_no', 'varchar(50)', (c) => c.notNull())
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    /** '' when unknown: no nulls in the (project, collected_at, id) sort. */
    .addColumn('collected_at', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', quantity)
    .addColumn('unit', 'varchar(10)')
    .addColumn('freezer', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    .addColumn('rack', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    .addColumn('box', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    .addColumn('position', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    /** available | used | destroyed */
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('available'))
    .addColumn('remarks', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_by', 'integer')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('sample_no_ci_uq')
    .on('sample')
    .unique()
    .columns(['project_id'])
    .expression(sql`lower(sample_no)`)
    .execute()
  await db.schema.createIndex('sample_no_idx').on('sample').columns(['project_id', 'sample_no', 'id']).execute()
  await db.schema.createIndex('sample_collected_idx').on('sample').columns(['project_id', 'collected_at', 'id']).execute()
  await db.schema.createIndex('sample_updated_idx').on('sample').columns(['project_id', 'updated_at', 'id']).execute()
  await db.schema.createIndex('sample_subject_idx').on('sample').columns(['subject_id', 'id']).execute()
  await db.schema.createIndex('sample_parent_idx').on('sample').columns(['parent_id']).execute()
  await db.schema.createIndex('sample_root_idx').on('sample').columns(['root_id', 'id']).execute()
  // Sample CRF records of a sample (delete check, the list's filled flags).
  await db.schema.createIndex('form_record_sample_idx').on('form_record').columns(['sample_id']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('form_record_sample_idx').execute()
  await db.schema.dropTable('sample').execute()
}
