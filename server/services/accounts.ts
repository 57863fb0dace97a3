import type { AccountListQuery, AccountPage, AccountRow, OneTimePassword } from '../../contract/users.ts'
import { lockedForever } from '../../contract/users.ts'
import {
  countAccountRows,
  findAccountListRow,
  listAccountRows,
  setAccountPassword,
  updateAccountRow,
  type AccountListRow,
} from '../db/repositories/accounts.ts'
import { clearThrottle } from '../db/repositories/loginThrottle.ts'
import { endSessionsOfAccounts } from '../db/repositories/sessions.ts'
import { audit } from './audit.ts'
import { throttleKey } from './auth.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { decodeCursor, encodeCursor } from './keysetCursor.ts'
import { hashPassword, randomPassword } from './passwordHash.ts'
import { assertMayActOn, keepingAnAdmin, type Admin } from './userRules.ts'

/**
 * Accounts, the sign-in identities of people (issue 8 item 1), and the administrator's actions
 * on one (item 4): reset the password, lock and unlock, disable and enable. Every action's audit
 * row names the person ({type:'user', id}) and the account in its detail.
 */

function toRow(r: AccountListRow): AccountRow {
  return {
    id: r.id,
    userId: r.user_id,
    userName: r.user_name,
    username: r.username,
    platform: r.platform,
    status: r.status,
    lockedUntil: r.locked_until,
    lastLoginAt: r.last_login_at,
    lastLoginIp: r.last_login_ip,
    mustChangePassword: r.must_change_password === 1,
    createdAt: r.created_at,
  }
}

export async function listAccounts(ctx: ServiceContext, q: AccountListQuery): Promise<AccountPage> {
  const filter = { q: q.q === '' ? undefined : q.q, userId: q.userId, status: q.status }
  const after = q.after === undefined ? null : decodeCursor(q.after)
  const rows = await listAccountRows(ctx.db, { filter, sort: q.sort, order: q.order, after, limit: q.limit + 1 })
  const more = rows.length > q.limit
  const page = more ? rows.slice(0, q.limit) : rows
  const last = page[page.length - 1]
  const key = (r: AccountListRow) => (q.sort === 'username' ? r.username : (r.last_login_at ?? ''))
  return {
    rows: page.map(toRow),
    next: more && last ? encodeCursor(key(last), last.id) : null,
    total: await countAccountRows(ctx.db, filter),
  }
}

async function mustFind(ctx: ServiceContext, id: number): Promise<AccountListRow> {
  const row = await findAccountListRow(ctx.db, id)
  if (!row) throw new ServiceError('notFound', 'account.notFound', [id])
  return row
}

const objectOf = (a: AccountListRow) => ({ type: 'user', id: a.user_id }) as const
const detailOf = (a: AccountListRow) => ({ accountId: a.id, username: a.username })

/**
 * A new one-time password, answered once and never stored in clear, logged or audited; the
 * account must change it at its next sign-in, and every session of the account ends now.
 */
export async function resetPassword(ctx: ServiceContext, admin: Admin, id: number): Promise<OneTimePassword> {
  const account = await mustFind(ctx, id)
  await assertMayActOn(ctx, admin, 'account.resetPassword', account.user_id)
  const password = randomPassword()
  const hash = await hashPassword(password)
  const now = ctx.now().toISOString()
  await ctx.db.transaction().execute(async (trx) => {
    await setAccountPassword(trx, id, hash, true, now)
    await endSessionsOfAccounts(trx, [id], now, 'passwordReset')
    await audit(trx, admin.who, 'account.resetPassword', 'ok', ctx.now(), detailOf(account), objectOf(account))
  })
  return { userId: account.user_id, accountId: id, username: account.username, password }
}

/** Locked until `until` (an ISO instant in the future), or until unlocked; its sessions end. */
export async function lockAccount(ctx: ServiceContext, admin: Admin, id: number, until: string | undefined): Promise<AccountRow> {
  const account = await mustFind(ctx, id)
  const lockedUntil = until === undefined ? lockedForever : new Date(until).toISOString()
  if (lockedUntil <= ctx.now().toISOString()) throw new ServiceError('badRequest', 'field.invalid', ['until'])
  await assertMayActOn(ctx, admin, 'account.lock', account.user_id)
  await keepingAnAdmin(ctx, admin, 'account.lock', objectOf(account), async (trx, now) => {
    await updateAccountRow(trx, id, { locked_until: lockedUntil, updated_at: now })
    await endSessionsOfAccounts(trx, [id], now, 'locked')
    await audit(trx, admin.who, 'account.lock', 'ok', ctx.now(), { ...detailOf(account), until: lockedUntil }, objectOf(account))
  })
  return toRow(await mustFind(ctx, id))
}

/** Clears the administrator's lock and the failed sign-in count of the username. */
export async function unlockAccount(ctx: ServiceContext, admin: Admin, id: number): Promise<AccountRow> {
  const account = await mustFind(ctx, id)
  await assertMayActOn(ctx, admin, 'account.unlock', account.user_id)
  const now = ctx.now().toISOString()
  await ctx.db.transaction().execute(async (trx) => {
    await updateAccountRow(trx, id, { locked_until: null, updated_at: now })
    await clearThrottle(trx, throttleKey(account.username))
    await audit(trx, admin.who, 'account.unlock', 'ok', ctx.now(), detailOf(account), objectOf(account))
  })
  return toRow(await mustFind(ctx, id))
}

/** Disabling ends the account's sessions at once: its old token's next call answers 50012. */
export async function setAccountStatus(ctx: ServiceContext, admin: Admin, id: number, status: 0 | 1): Promise<AccountRow> {
  const account = await mustFind(ctx, id)
  const action = status === 0 ? 'account.disable' : 'account.enable'
  await assertMayActOn(ctx, admin, action, account.user_id)
  await keepingAnAdmin(ctx, admin, action, objectOf(account), async (trx, now) => {
    await updateAccountRow(trx, id, { status, updated_at: now })
    if (status === 0) await endSessionsOfAccounts(trx, [id], now, 'accountDisabled')
    await audit(trx, admin.who, action, 'ok', ctx.now(), detailOf(account), objectOf(account))
  })
  return toRow(await mustFind(ctx, id))
}
