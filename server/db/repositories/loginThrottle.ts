import type { Q } from '../query.ts'

export function findThrottle(db: Q, username: string) {
  return db.selectFrom('login_throttle').selectAll().where('username', '=', username).executeTakeFirst()
}

export async function saveThrottle(
  db: Q,
  row: { username: string; failures: number; first_failure_at: string; locked_until: string | null },
): Promise<void> {
  await db
    .insertInto('login_throttle')
    .values(row)
    .onConflict((oc) =>
      oc.column('username').doUpdateSet({
        failures: row.failures,
        first_failure_at: row.first_failure_at,
        locked_until: row.locked_until,
      }),
    )
    .execute()
}

export async function clearThrottle(db: Q, username: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('username', '=', username).execute()
}
