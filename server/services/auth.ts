import crypto from 'node:crypto'
import { passwordMaxLength, passwordProblem, type PasswordProblem } from '../../contract/password.ts'
import { codes } from '../../contract/codes.ts'
import { usernameMaxLength, type LoginBody, type ChangePwdBody, type LoginData, type UserInfo } from '../../contract/auth.ts'
import { findUserById } from '../db/repositories/users.ts'
import { findAccountByUsername, recordSignIn, setAccountPassword } from '../db/repositories/accounts.ts'
import { endOtherSessions, endSession, findSessionWithOwner, insertSession } from '../db/repositories/sessions.ts'
import { clearThrottle, findThrottle, saveThrottle } from '../db/repositories/loginThrottle.ts'
import type { User } from '../db/tables/user.ts'
import type { Account } from '../db/tables/account.ts'
import type { Q } from '../db/query.ts'
import type { MessageKey } from '../i18n/messages.ts'
import { dummyHash, hashPassword, verifyPassword } from './passwordHash.ts'
import { audit, type Actor } from './audit.ts'
import { ServiceError } from './errors.ts'
import type { ServiceContext } from './context.ts'

export interface SignedIn {
  user: User
  account: Account
  sessionId: number
}

const sha256 = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

/**
 * Throttle key: usernames are matched exactly, but a lock should not be dodged by case.
 * Lower-casing can lengthen a name ('İ' becomes two characters): cut to the column's width.
 */
export const throttleKey = (username: string) => username.toLowerCase().slice(0, usernameMaxLength)

async function assertNotLocked(ctx: ServiceContext, actor: Actor, action: string): Promise<void> {
  const row = await findThrottle(ctx.db, throttleKey(actor.username))
  const now = ctx.now()
  if (row?.locked_until && row.locked_until > now.toISOString()) {
    await audit(ctx.db, actor, action, 'denied', now, { reason: 'locked' })
    const minutes = Math.ceil((Date.parse(row.locked_until) - now.getTime()) / 60_000)
    throw new ServiceError('tooMany', 'auth.locked', [minutes])
  }
}

async function recordFailure(ctx: ServiceContext, username: string): Promise<void> {
  const key = throttleKey(username)
  const now = ctx.now()
  const row = await findThrottle(ctx.db, key)
  const fresh = !row || Date.parse(row.first_failure_at) + ctx.auth.failureWindowMs <= now.getTime() || row.locked_until !== null
  const failures = fresh ? 1 : row.failures + 1
  const lockedUntil = failures >= ctx.auth.maxFailures ? new Date(now.getTime() + ctx.auth.lockMs).toISOString() : null
  await saveThrottle(ctx.db, {
    username: key,
    failures,
    first_failure_at: fresh ? now.toISOString() : row.first_failure_at,
    locked_until: lockedUntil,
  })
}

/** Whether an account may sign in now: enabled, its person active, not locked by an administrator. */
function canSignIn(account: Account, user: User | undefined, now: Date): boolean {
  return account.status === 1 && user?.status === 1 && !(account.locked_until && account.locked_until > now.toISOString())
}

/** A wrong password and an unknown user take the same path and the same time. */
export async function login(ctx: ServiceContext, body: LoginBody, ip: string): Promise<LoginData> {
  const actor: Actor = { userId: null, username: body.username, ip }
  await assertNotLocked(ctx, actor, 'auth.login')
  const account = await findAccountByUsername(ctx.db, body.username)
  const ok = await verifyPassword(body.password, account?.password_hash ?? (await dummyHash()))
  const user = account ? await findUserById(ctx.db, account.user_id) : undefined
  // Disabled or locked accounts answer as a wrong password does: nothing tells a guesser which it was.
  if (!account || !ok || !canSignIn(account, user, ctx.now())) {
    await recordFailure(ctx, body.username)
    const reason = account && ok ? 'disabled' : 'mismatch'
    await audit(ctx.db, { ...actor, userId: user?.id ?? null }, 'auth.login', 'denied', ctx.now(), { reason })
    throw new ServiceError('badRequest', 'auth.mismatch')
  }
  const token = crypto.randomBytes(32).toString('base64url')
  const now = ctx.now()
  const expiresAt = new Date(now.getTime() + ctx.auth.tokenTtlMs).toISOString()
  await ctx.db.transaction().execute(async (trx) => {
    await insertSession(trx, {
      token_hash: sha256(token),
      account_id: account.id,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      ip,
    })
    await recordSignIn(trx, account.id, now.toISOString(), ip)
    await clearThrottle(trx, throttleKey(body.username))
    await audit(trx, { ...actor, userId: account.user_id, username: account.username }, 'auth.login', 'ok', now, {
      platform: body.platform ?? null,
    })
  })
  return { token, userId: account.user_id, expiresAt, mustChangePassword: account.must_change_password === 1 }
}

/** The SHA-256 of a session token, the key it is stored and cached by; no token: 401 (50008). */
export function tokenHashOf(token: string | undefined): string {
  if (!token) throw new ServiceError('unauthorized', 'auth.noToken', [], codes.illegalToken)
  return sha256(token)
}

/** A session row with its account and person, as the sign-in checks read it. */
export type SessionOwner = Awaited<ReturnType<typeof findSessionWithOwner>>

/**
 * 50008 unknown token, 50012 ended (logged out or replaced), 50014 expired. Pure but for the
 * clock: a cached session (actorCache.ts) is checked again on every request, so expiry and
 * account locks still take effect on time.
 */
export function checkSignIn(ctx: ServiceContext, found: SessionOwner): SignedIn {
  if (!found) throw new ServiceError('unauthorized', 'auth.illegalToken', [], codes.illegalToken)
  const { session, account, user } = found
  if (session.ended_at) throw new ServiceError('unauthorized', 'auth.tokenEnded', [], codes.tokenEndedElsewhere)
  if (session.expires_at <= ctx.now().toISOString()) throw new ServiceError('unauthorized', 'auth.tokenExpired', [], codes.tokenExpired)
  if (!account) throw new ServiceError('unauthorized', 'auth.illegalToken', [], codes.illegalToken)
  // Disabling or locking ends the sessions; this catches one that slipped between the two.
  if (!user || !canSignIn(account, user, ctx.now()))
    throw new ServiceError('unauthorized', 'auth.tokenEnded', [], codes.tokenEndedElsewhere)
  return { user, account, sessionId: session.id }
}

/** The session a token names, read afresh and checked. */
export async function authenticate(ctx: ServiceContext, token: string | undefined): Promise<SignedIn> {
  return checkSignIn(ctx, await findSessionWithOwner(ctx.db, tokenHashOf(token)))
}

export function userInfo(me: SignedIn, roles: readonly string[]): UserInfo {
  const { user, account } = me
  return {
    id: user.id,
    name: user.name,
    username: account.username,
    image: user.image,
    description: user.description,
    roles: [...roles],
    mustChangePassword: account.must_change_password === 1,
  }
}

export async function logout(ctx: ServiceContext, me: SignedIn, userId: number | undefined, ip: string): Promise<void> {
  const actor: Actor = { userId: me.user.id, username: me.account.username, ip }
  if (userId !== undefined && userId !== me.user.id) {
    await audit(ctx.db, actor, 'auth.logout', 'denied', ctx.now(), { reason: 'otherUser', userId })
    throw new ServiceError('forbidden', 'auth.otherUser')
  }
  await ctx.db.transaction().execute(async (trx) => {
    await endSession(trx, me.sessionId, ctx.now().toISOString(), 'logout')
    await audit(trx, actor, 'auth.logout', 'ok', ctx.now())
  })
}

const problemKey: Record<PasswordProblem, MessageKey> = {
  required: 'password.newRequired',
  length: 'password.length',
  charset: 'password.charset',
  needsDigit: 'password.needsDigit',
  needsLetter: 'password.needsLetter',
  tooLong: 'password.tooLong',
  sameAsOld: 'password.sameAsOld',
}

/** Only one's own password; the other sessions of the account end, this one stays. */
export async function changePassword(ctx: ServiceContext, me: SignedIn, body: ChangePwdBody, ip: string): Promise<void> {
  const actor: Actor = { userId: me.user.id, username: me.account.username, ip }
  const deny = async (reason: string, err: ServiceError, db: Q = ctx.db) => {
    await audit(db, actor, 'account.changePassword', 'denied', ctx.now(), { reason, targetId: body.id })
    return err
  }
  if (body.id !== me.user.id) throw await deny('otherUser', new ServiceError('forbidden', 'auth.otherUser'))
  if (body.oldPwd.length === 0) throw await deny('oldRequired', new ServiceError('badRequest', 'password.oldRequired'))
  const problem = passwordProblem(body.password, body.oldPwd)
  if (problem) throw await deny(problem, new ServiceError('badRequest', problemKey[problem], [passwordMaxLength]))
  await assertNotLocked(ctx, actor, 'account.changePassword')
  if (!(await verifyPassword(body.oldPwd, me.account.password_hash))) {
    await recordFailure(ctx, me.account.username)
    throw await deny('oldWrong', new ServiceError('badRequest', 'password.oldWrong'))
  }
  const hash = await hashPassword(body.password)
  const now = ctx.now().toISOString()
  await ctx.db.transaction().execute(async (trx) => {
    await setAccountPassword(trx, me.account.id, hash, false, now)
    await endOtherSessions(trx, me.account.id, me.sessionId, now, 'passwordChanged')
    await audit(trx, actor, 'account.changePassword', 'ok', ctx.now())
  })
}
