import type { Q } from '../query.ts'
import type { Session } from '../tables/session.ts'

export async function insertSession(
  db: Q,
  s: { token_hash: string; account_id: number; created_at: string; expires_at: string; ip: string },
): Promise<void> {
  await db.insertInto('session').values(s).execute()
}

export function findSessionByHash(db: Q, tokenHash: string): Promise<Session | undefined> {
  return db.selectFrom('session').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()
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
