import { passwordProblem } from '../../contract/password.ts'
import { insertUserWithAccount } from '../db/repositories/users.ts'
import { countAccounts } from '../db/repositories/accounts.ts'
import { findBuiltinRole } from '../db/repositories/roles.ts'
import { superRoleKey } from '../../contract/permissions.ts'
import { hashPassword, randomPassword } from './passwordHash.ts'
import type { ServiceContext } from './context.ts'

/**
 * The first start makes the account `admin`, a system administrator. Answers the password when it was generated,
 * so the caller can print it once; undefined when accounts already exist or it was given.
 */
export async function ensureAdmin(ctx: ServiceContext, given: string | undefined): Promise<{ generated?: string } | null> {
  if ((await countAccounts(ctx.db)) > 0) return null
  if (given !== undefined && passwordProblem(given) !== null) {
    throw new Error('ADMIN_PASSWORD must be at least 6 letters and digits with at least one of each (SPEC §5)')
  }
  const password = given ?? randomPassword()
  const now = ctx.now().toISOString()
  const hash = await hashPassword(password)
  await ctx.db.transaction().execute(async (trx) => {
    const admin = await findBuiltinRole(trx, superRoleKey)
    if (!admin) throw new Error('the system administrator role is missing: migrations did not run')
    await insertUserWithAccount(trx, { name: 'Administrator', username: 'admin', passwordHash: hash, roleIds: [admin.id], now })
  })
  return given === undefined ? { generated: password } : {}
}

/** What the console says of ensureAdmin's answer (a generated password is printed once, never stored in clear). */
export function adminCreatedLine(admin: { generated?: string } | null): string | null {
  if (admin?.generated) return `\n  First start: account "admin" created with password  ${admin.generated}\n  Change it after signing in.\n`
  return admin ? 'First start: account "admin" created with ADMIN_PASSWORD.' : null
}
