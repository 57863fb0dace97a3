import type { ColumnDefinitionBuilder, Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * Follow-up (issue 10 item 10): a project's visit schedule. A visit is planned `day_offset` days
 * after a subject's enrolment, with a window of `window_before` / `window_after` days around it,
 * and is done once each of its CRFs (`visit_form`, pinned forms of collect type followUp) has a
 * form_record with slot 'v<visitId>'. The due and overdue lists range over subjects by enrolment
 * date per visit, so `subject_enrolled_idx` serves them as keyset pages.
 */
export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer'
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())

  await db.schema
    .createTable('visit')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('day_offset', 'integer', (c) => c.notNull())
    .addColumn('window_before', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('window_after', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('visit_project_idx').on('visit').columns(['project_id', 'day_offset', 'sort', 'id']).execute()

  await db.schema
    .createTable('visit_form')
    .addColumn('visit_id', 'integer', (c) => c.notNull().references('visit.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('visit_form_pk', ['visit_id', 'template_id'])
    .execute()
  await db.schema.createIndex('visit_form_template_idx').on('visit_form').column('template_id').execute()

  await db.schema.createIndex('subject_enrolled_idx').on('subject').columns(['project_id', 'enrolled_at', 'id']).execute()
  await db.schema.createIndex('form_record_visit_idx').on('form_record').columns(['visit_id']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('form_record_visit_idx').execute()
  await db.schema.dropIndex('subject_enrolled_idx').execute()
  await db.schema.dropTable('visit_form').execute()
  await db.schema.dropTable('visit').execute()
}
