import { sql, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * The subject list (issue 10 item 1) over a million subjects:
 * - `subject_tally`: subjects per (project, center, queue, status), kept in the enrolment's
 *   transaction, so a page's total is a sum of a few rows instead of a count of every subject.
 * - `subject_list_field`: the indicator columns each user chose for a project's list, in order.
 * - one (project_id, sort key, id) index per fixed sort column, so every keyset page walks an
 *   index in order (no temporary sort) and the last page costs what the first does. Nullable
 *   keys are indexed through coalesce() so row-value comparisons never meet a NULL; the
 *   service's ORDER BY uses the same expressions. Indicator columns get theirs when chosen.
 */
export const subjectSortIndexes = [
  ['subject_list_no_idx', 'subject_no'],
  ['subject_list_queue_idx', 'queue_id'],
  ['subject_list_status_idx', 'status'],
  ['subject_list_group_idx', '(coalesce(group_id, 0))'],
  ['subject_list_enrolled_idx', "(coalesce(enrolled_at, ''))"],
  ['subject_list_updated_idx', 'updated_at'],
] as const

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('subject_tally')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('center_id', 'integer', (c) => c.notNull())
    .addColumn('queue_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('subject_tally_pk', ['project_id', 'center_id', 'queue_id', 'status'])
    .execute()
  await sql`INSERT INTO subject_tally (project_id, center_id, queue_id, status, n)
    SELECT project_id, center_id, queue_id, status, count(*) FROM subject GROUP BY project_id, center_id, queue_id, status`.execute(db)

  await db.schema
    .createTable('subject_list_field')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('indicator_id', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('subject_list_field_pk', ['project_id', 'user_id', 'indicator_id'])
    .execute()

  for (const [name, key] of subjectSortIndexes) {
    await sql`CREATE INDEX ${sql.raw(name)} ON subject (project_id, ${sql.raw(key)}, id)`.execute(db)
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const [name] of subjectSortIndexes) await db.schema.dropIndex(name).execute()
  await db.schema.dropTable('subject_list_field').execute()
  await db.schema.dropTable('subject_tally').execute()
}
