import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * Enrolment (issue 10): the subject gains its status, who enrolled it and when, the answers to
 * its queue's inclusion / exclusion checklist (JSON text) and its randomized group. Subject
 * numbers are unique per project ignoring case (an expression index), and generated numbers come
 * from a per project, per center counter taken under the project row lock.
 * SQLite cannot drop a column that a REFERENCES clause names, so the foreign keys of the added
 * columns exist on PostgreSQL only; the services write only ids they have just read.
 */

export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const fk = (table: string) => (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.references(`${table}.id`) : c)
  await db.schema
    .alterTable('subject')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('enrolled'))
    .execute()
  await db.schema.alterTable('subject').addColumn('enrolled_by', 'integer', fk('app_user')).execute()
  await db.schema.alterTable('subject').addColumn('enrolled_at', 'varchar(32)').execute()
  await db.schema
    .alterTable('subject')
    .addColumn('checklist', 'text', (c) => c.notNull().defaultTo('{"inclusion":[],"exclusion":[]}'))
    .execute()
  await db.schema.alterTable('subject').addColumn('group_id', 'integer', fk('project_group')).execute()
  await db.schema
    .createIndex('subject_no_ci_uq')
    .on('subject')
    .unique()
    .columns(['project_id'])
    .expression(sql`lower(subject_no)`)
    .execute()

  await db.schema
    .createTable('subject_sequence')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('center_id', 'integer', (c) => c.notNull().references('center.id'))
    /** The last number handed out for this center. */
    .addColumn('last', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('subject_sequence_pk', ['project_id', 'center_id'])
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('subject_sequence').execute()
  await db.schema.dropIndex('subject_no_ci_uq').execute()
  for (const column of ['group_id', 'checklist', 'enrolled_at', 'enrolled_by', 'status']) {
    await db.schema.alterTable('subject').dropColumn(column).execute()
  }
}
