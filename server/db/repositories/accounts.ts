import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { Database } from '../database.ts'
import type { Q } from '../query.ts'
import type { Account, AccountUpdate, NewAccount } from '../tables/account.ts'
import { foldAsciiCase, prefixUpperBound } from './indicators.ts'

/** Case-insensitive, as the unique index on lower(username) is. */
export function findAccountByUsername(db: Q, username: string): Promise<Account | undefined> {
  return db
    .selectFrom('account')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', sql<string>`lower(${username})`)
    .executeTakeFirst()
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

// ---------------------------------------------------------------------------------------------
// The account list and the administrator's writes (issue 8 items 1 and 4)

export interface AccountFilter {
  /** Prefix of the username, any case. */
  q?: string | undefined
  userId?: number | undefined
  status?: number | undefined
}

export const accountSortExpressions = {
  username: sql<string>`account.username`,
  // Never signed in sorts first ascending, so the keyset never compares NULL.
  lastLogin: sql<string>`coalesce(account.last_login_at, '')`,
} as const
export type AccountSortKey = keyof typeof accountSortExpressions

function accountConditions(eb: ExpressionBuilder<Database, 'account'>, f: AccountFilter): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = []
  if (f.q) {
    const prefix = foldAsciiCase(f.q)
    const upper = prefixUpperBound(prefix)
    const col = sql<string>`lower(account.username)`
    out.push(eb(col, '>=', prefix))
    if (upper !== null) out.push(eb(col, '<', upper))
    out.push(eb(sql<string>`substr(lower(account.username), 1, ${sql.lit(Array.from(prefix).length)})`, '=', prefix))
  }
  if (f.userId !== undefined) out.push(eb('account.user_id', '=', f.userId))
  if (f.status !== undefined) out.push(eb('account.status', '=', f.status))
  return out
}

export interface AccountListRow extends Account {
  user_name: string
}

export function listAccountRows(
  db: Q,
  p: { filter: AccountFilter; sort: AccountSortKey; order: 'asc' | 'desc'; after: readonly [string, number] | null; limit: number },
): Promise<AccountListRow[]> {
  const key = accountSortExpressions[p.sort]
  const op = sql.raw(p.order === 'asc' ? '>' : '<')
  const dir = sql.raw(p.order)
  return db
    .selectFrom('account')
    .innerJoin('app_user', 'app_user.id', 'account.user_id')
    .selectAll('account')
    .select('app_user.name as user_name')
    .where((eb) => {
      const conds = accountConditions(eb, p.filter)
      if (p.after) conds.push(sql<SqlBool>`(${key}, account.id) ${op} (${p.after[0]}, ${p.after[1]})`)
      return eb.and(conds)
    })
    .orderBy(sql`${key} ${dir}`)
    .orderBy(sql`account.id ${dir}`)
    .limit(p.limit)
    .execute()
}

export async function countAccountRows(db: Q, filter: AccountFilter): Promise<number> {
  const row = await db
    .selectFrom('account')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => eb.and(accountConditions(eb, filter)))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export function findAccountListRow(db: Q, id: number): Promise<AccountListRow | undefined> {
  return db
    .selectFrom('account')
    .innerJoin('app_user', 'app_user.id', 'account.user_id')
    .selectAll('account')
    .select('app_user.name as user_name')
    .where('account.id', '=', id)
    .executeTakeFirst()
}

export function accountsOfUser(db: Q, userId: number): Promise<Account[]> {
  return db.selectFrom('account').selectAll().where('user_id', '=', userId).orderBy('id').execute()
}

export async function updateAccountRow(db: Q, id: number, values: AccountUpdate): Promise<void> {
  await db.updateTable('account').set(values).where('id', '=', id).execute()
}
