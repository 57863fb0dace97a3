import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * Data entry (issue 10): which of a project's pinned forms a user shows on a subject's detail,
 * and in which order (SPEC §7 getDisplayFormInfo / saveDisplayFormInfo). One row per user,
 * project and form; a form without a row is shown, after the ones that have one.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('form_display')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('shown', 'integer', (c) => c.notNull().defaultTo(1))
    .addPrimaryKeyConstraint('form_display_pk', ['user_id', 'project_id', 'template_id'])
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('form_display').execute()
}
