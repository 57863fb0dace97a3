import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * Entered study data (issue 10, DESIGN §9). A form instance (`form_record`) is one row with its
 * plain values as one JSON document (JSONB on PostgreSQL), pinned to the template version it was
 * entered against; each sub-form row (`form_row`) is one row of its own. `rev` counts the saves of
 * a record or row, so a save that names an older rev is told instead of overwriting.
 * `data_audit` is the field-level audit trail: one row per changed field (who, when, from where,
 * old, new, reason), append-only by triggers on both dialects.
 * `subject.summary` holds the subject's latest plain values (of non-visit forms) keyed `f<id>`,
 * kept by every save, for the subject list's columns, filters and their expression indexes.
 */
export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer'
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())
  const json = dialect === 'postgres' ? 'jsonb' : 'text'
  const emptyObject = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(dialect === 'postgres' ? sql`'{}'::jsonb` : '{}')

  await db.schema.alterTable('subject').addColumn('summary', json, emptyObject).execute()

  await db.schema
    .createTable('form_record')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id'))
    .addColumn('subject_id', 'integer', (c) => c.notNull().references('subject.id'))
    /** Copied from the subject so scope conditions need no join. */
    .addColumn('center_id', 'integer', (c) => c.notNull())
    .addColumn('queue_id', 'integer', (c) => c.notNull())
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id'))
    .addColumn('version_id', 'integer', (c) => c.notNull().references('template_version.id'))
    /** Which instance of the form this is: '' for the one instance, 'v<visitId>' for a visit, 's<sampleId>' for a sample, '#n' for a repeat. */
    .addColumn('slot', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    .addColumn('visit_id', 'integer')
    .addColumn('sample_id', 'integer')
    .addColumn('data', json, emptyObject)
    /** 'saved' | 'signed' */
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('saved'))
    .addColumn('rev', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_by', 'integer')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('signed_by', 'integer')
    .addColumn('signed_at', 'varchar(32)')
    .addUniqueConstraint('form_record_slot_uq', ['subject_id', 'template_id', 'slot'])
    .execute()
  await db.schema.createIndex('form_record_project_idx').on('form_record').columns(['project_id', 'template_id', 'id']).execute()

  await db.schema
    .createTable('form_row')
    .addColumn('id', serial, id)
    .addColumn('record_id', 'integer', (c) => c.notNull().references('form_record.id').onDelete('cascade'))
    .addColumn('section_key', 'varchar(40)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('data', json, emptyObject)
    .addColumn('rev', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_by', 'integer')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('form_row_record_idx').on('form_row').columns(['record_id', 'section_key', 'sort', 'id']).execute()

  await db.schema
    .createTable('data_audit')
    .addColumn('id', serial, id)
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(65)', (c) => c.notNull())
    .addColumn('ip', 'varchar(65)', (c) => c.notNull().defaultTo(''))
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    /** No foreign keys: the trail outlives a deleted form or row. */
    .addColumn('record_id', 'integer')
    .addColumn('row_id', 'integer')
    .addColumn('template_id', 'integer')
    .addColumn('version_id', 'integer')
    .addColumn('section_key', 'varchar(40)')
    /** The indicator id as text, or '' for an event of the whole record or row. */
    .addColumn('field', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    /** create | update | clear | rowAdd | rowDelete | formDelete | sign | unblind | import */
    .addColumn('action', 'varchar(24)', (c) => c.notNull())
    /** JSON of the value (a string or a list), null when there was none. */
    .addColumn('old_value', 'text')
    .addColumn('new_value', 'text')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    /** The data-loading upload that made the change, if one (issue 11). */
    .addColumn('upload_id', 'integer')
    .execute()
  await db.schema.createIndex('data_audit_subject_idx').on('data_audit').columns(['subject_id', 'id']).execute()
  await db.schema.createIndex('data_audit_field_idx').on('data_audit').columns(['record_id', 'field', 'id']).execute()
  await db.schema.createIndex('data_audit_project_idx').on('data_audit').columns(['project_id', 'id']).execute()

  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION data_audit_append_only() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'data_audit is append-only'; END; $$ LANGUAGE plpgsql`.execute(db)
    await sql`CREATE TRIGGER data_audit_no_change BEFORE UPDATE OR DELETE ON data_audit
      FOR EACH ROW EXECUTE FUNCTION data_audit_append_only()`.execute(db)
  } else {
    await sql`CREATE TRIGGER data_audit_no_update BEFORE UPDATE ON data_audit
      BEGIN SELECT RAISE(ABORT, 'data_audit is append-only'); END`.execute(db)
    await sql`CREATE TRIGGER data_audit_no_delete BEFORE DELETE ON data_audit
      BEGIN SELECT RAISE(ABORT, 'data_audit is append-only'); END`.execute(db)
  }
}

export async function down(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'postgres') {
    await sql`DROP TRIGGER IF EXISTS data_audit_no_change ON data_audit`.execute(db)
    await sql`DROP FUNCTION IF EXISTS data_audit_append_only()`.execute(db)
  }
  await db.schema.dropTable('data_audit').execute()
  await db.schema.dropTable('form_row').execute()
  await db.schema.dropTable('form_record').execute()
  await db.schema.alterTable('subject').dropColumn('summary').execute()
}
