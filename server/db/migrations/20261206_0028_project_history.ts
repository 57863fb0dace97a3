import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * A project's history lists its own actions only (contract/projects.ts projectHistoryActions),
 * while every enrolment and sample of the project is logged against it too: a million-subject
 * study has a million such rows. With the action after the object, the history is read by one
 * seek per action, never by walking the study's rows.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('audit_log_object_action_idx')
    .on('audit_log')
    .columns(['object_type', 'object_id', 'action', 'at', 'id'])
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('audit_log_object_action_idx').execute()
}
