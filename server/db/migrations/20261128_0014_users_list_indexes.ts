import { sql, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/**
 * The indexes the user and account lists sort and filter by (DESIGN §6): each sort key with id,
 * so a keyset page is one index range with no sort step. Departments and careers sort people
 * without one under 0, so the keyset never compares NULL.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('app_user_created_idx').on('app_user').columns(['created_at', 'id']).execute()
  await db.schema.createIndex('app_user_status_idx').on('app_user').columns(['status', 'name', 'id']).execute()
  await db.schema
    .createIndex('app_user_department_sort_idx')
    .on('app_user')
    .expression(sql`coalesce(department_id, 0), id`)
    .execute()
  await db.schema
    .createIndex('app_user_career_sort_idx')
    .on('app_user')
    .expression(sql`coalesce(career_id, 0), id`)
    .execute()
  await db.schema.createIndex('account_last_login_idx').on('account').columns(['last_login_at', 'id']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  for (const name of [
    'account_last_login_idx',
    'app_user_career_sort_idx',
    'app_user_department_sort_idx',
    'app_user_status_idx',
    'app_user_created_idx',
  ]) {
    await db.schema.dropIndex(name).execute()
  }
}
