import crypto from 'node:crypto'
import { passwordProblem } from '../../contract/password.ts'
import { countUsers, insertUser } from '../db/repositories/users.ts'
import { hashPassword } from './passwordHash.ts'
import type { ServiceContext } from './context.ts'

/** Letters and digits with at least one of each, so the generated password obeys SPEC §5 too. */
function randomPassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'
  for (;;) {
    const bytes = crypto.randomBytes(16)
    const candidate = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')
    if (passwordProblem(candidate) === null) return candidate
  }
}

/**
 * The first start makes the account `admin`. Answers the password when it was generated,
 * so the caller can print it once; undefined when accounts already exist or it was given.
 */
export async function ensureAdmin(ctx: ServiceContext, given: string | undefined): Promise<{ generated?: string } | null> {
  if ((await countUsers(ctx.db)) > 0) return null
  if (given !== undefined && passwordProblem(given) !== null) {
    throw new Error('ADMIN_PASSWORD must be at least 6 letters and digits with at least one of each (SPEC §5)')
  }
  const password = given ?? randomPassword()
  const now = ctx.now().toISOString()
  await insertUser(ctx.db, {
    username: 'admin',
    name: 'Administrator',
    password_hash: await hashPassword(password),
    created_at: now,
    updated_at: now,
  })
  return given === undefined ? { generated: password } : {}
}
