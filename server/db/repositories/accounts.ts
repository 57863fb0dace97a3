import { sql } from 'kysely'
import type { Q } from '../query.ts'
import type { Account, NewAccount } from '../tables/account.ts'

/** Case-insensitive, as the unique index on lower(username) is. */
export function findAccountByUsername(db: Q, username: string): Promise<Account | undefined> {
  return db
    .selectFrom('account')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst()
}

export function findAccountById(db: Q, id: number): Promise<Account | undefined> {
  return db.selectFrom('account').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function countAccounts(db: Q): Promise<number> {
  const row = await db
    .selectFrom('account')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function insertAccount(db: Q, account: NewAccount): Promise<number> {
  const row = await db.insertInto('account').values(account).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function setAccountPassword(db: Q, id: number, hash: string, mustChange: boolean, now: string): Promise<void> {
  await db
    .updateTable('account')
    .set({ password_hash: hash, must_change_password: mustChange ? 1 : 0, updated_at: now })
    .where('id', '=', id)
    .execute()
}

export async function recordSignIn(db: Q, id: number, at: string, ip: string): Promise<void> {
  await db.updateTable('account').set({ last_login_at: at, last_login_ip: ip }).where('id', '=', id).execute()
}
