import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * The audit log viewer (issue 8) filters by the record a row is about, by action, by address and
 * by user, newest first, keyset-paged on (at desc, id desc). An equality filter followed by
 * (at, id) in one index serves a page with no sort step, as the dictionary lists do (0006).
 * (at, id) exists since 0001; its (user_id, at) gains id, so a user's rows that share an instant
 * need no sort either. The table stays append-only: ADD COLUMN touches no row, so its triggers do
 * not fire.
 */
const indexes = {
  audit_log_object_idx: ['object_type', 'object_id', 'at', 'id'],
  audit_log_action_idx: ['action', 'at', 'id'],
  audit_log_ip_idx: ['ip', 'at', 'id'],
  audit_log_username_idx: ['username', 'at', 'id'],
  audit_log_user_at_idx: ['user_id', 'at', 'id'],
} as const
/** Of 0001, a prefix of audit_log_user_at_idx. */
const superseded = { name: 'audit_log_user_idx', columns: ['user_id', 'at'] } as const

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('object_type', 'varchar(32)').execute()
  await db.schema.alterTable('audit_log').addColumn('object_id', 'integer').execute()
  for (const [name, cols] of Object.entries(indexes)) {
    await db.schema
      .createIndex(name)
      .on('audit_log')
      .columns([...cols])
      .execute()
  }
  await db.schema.dropIndex(superseded.name).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex(superseded.name)
    .on('audit_log')
    .columns([...superseded.columns])
    .execute()
  for (const name of Object.keys(indexes).reverse()) await db.schema.dropIndex(name).execute()
  await db.schema.alterTable('audit_log').dropColumn('object_id').execute()
  await db.schema.alterTable('audit_log').dropColumn('object_type').execute()
}
