import type { Q } from '../query.ts'
import type { Session } from '../tables/session.ts'
import type { Account } from '../tables/account.ts'
import type { User } from '../tables/user.ts'

export async function insertSession(
  db: Q,
  s: { token_hash: string; account_id: number; created_at: string; expires_at: string; ip: string },
): Promise<void> {
  await db.insertInto('session').values(s).execute()
}

/** A session with its account and person, in one query: every request reads it. */
export async function findSessionWithOwner(
  db: Q,
  tokenHash: string,
): Promise<{ session: Session; account: Account | undefined; user: User | undefined } | undefined> {
  const row = await db
    .selectFrom('session as s')
    .leftJoin('account as a', 'a.id', 's.account_id')
    .leftJoin('app_user as u', 'u.id', 'a.user_id')
    .select([
      's.id as s_id',
      's.token_hash as s_token_hash',
      's.account_id as s_account_id',
      's.created_at as s_created_at',
      's.expires_at as s_expires_at',
      's.ended_at as s_ended_at',
      's.ended_reason as s_ended_reason',
      's.ip as s_ip',
      'a.id as a_id',
      'a.user_id as a_user_id',
      'a.username as a_username',
      'a.password_hash as a_password_hash',
      'a.platform as a_platform',
      'a.status as a_status',
      'a.locked_until as a_locked_until',
      'a.last_login_at as a_last_login_at',
      'a.last_login_ip as a_last_login_ip',
      'a.must_change_password as a_must_change_password',
      'a.created_at as a_created_at',
      'a.updated_at as a_updated_at',
      'u.id as u_id',
      'u.name as u_name',
      'u.image as u_image',
      'u.description as u_description',
      'u.department_id as u_department_id',
      'u.career_id as u_career_id',
      'u.mobile as u_mobile',
      'u.email as u_email',
      'u.status as u_status',
      'u.created_at as u_created_at',
      'u.updated_at as u_updated_at',
    ])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst()
  if (!row) return undefined
  const session: Session = {
    id: row.s_id,
    token_hash: row.s_token_hash,
    account_id: row.s_account_id,
    created_at: row.s_created_at,
    expires_at: row.s_expires_at,
    ended_at: row.s_ended_at,
    ended_reason: row.s_ended_reason,
    ip: row.s_ip,
  }
  const account: Account | undefined =
    row.a_id === null || row.a_user_id === null || row.a_username === null || row.a_password_hash === null
      ? undefined
      : {
          id: row.a_id,
          user_id: row.a_user_id,
          username: row.a_username,
          password_hash: row.a_password_hash,
          platform: row.a_platform ?? 'web',
          status: row.a_status ?? 0,
          locked_until: row.a_locked_until,
          last_login_at: row.a_last_login_at,
          last_login_ip: row.a_last_login_ip,
          must_change_password: row.a_must_change_password ?? 0,
          created_at: row.a_created_at ?? '',
          updated_at: row.a_updated_at ?? '',
        }
  const user: User | undefined =
    row.u_id === null || row.u_name === null
      ? undefined
      : {
          id: row.u_id,
          name: row.u_name,
          image: row.u_image ?? '',
          description: row.u_description ?? '',
          department_id: row.u_department_id,
          career_id: row.u_career_id,
          mobile: row.u_mobile ?? '',
          email: row.u_email ?? '',
          status: row.u_status ?? 0,
          created_at: row.u_created_at ?? '',
          updated_at: row.u_updated_at ?? '',
        }
  return { session, account, user }
}

export async function endSession(db: Q, id: number, now: string, reason: string): Promise<void> {
  await db.updateTable('session').set({ ended_at: now, ended_reason: reason }).where('id', '=', id).where('ended_at', 'is', null).execute()
}

/** Ends every other open session of a user, e.g. after a password change. */
export async function endOtherSessions(db: Q, accountId: number, keepId: number, now: string, reason: string): Promise<void> {
  await db
    .updateTable('session')
    .set({ ended_at: now, ended_reason: reason })
    .where('account_id', '=', accountId)
    .where('id', '!=', keepId)
    .where('ended_at', 'is', null)
    .execute()
}

/** Ends every open session of the given accounts at once (disabled, locked, password reset). */
export async function endSessionsOfAccounts(db: Q, accountIds: readonly number[], now: string, reason: string): Promise<void> {
  if (accountIds.length === 0) return
  await db
    .updateTable('session')
    .set({ ended_at: now, ended_reason: reason })
    .where('account_id', 'in', accountIds)
    .where('ended_at', 'is', null)
    .execute()
}
