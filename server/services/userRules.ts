import { superRoleKey } from '../../contract/permissions.ts'
import type { Q } from '../db/query.ts'
import { countActiveSysAdmins } from '../db/repositories/users.ts'
import { lockBuiltinRole, rolesOfUsers, rolesWithGrants } from '../db/repositories/roles.ts'
import type { Actor } from './actor.ts'
import { audit, type Actor as AuditActor, type AuditObject } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError, type ErrorKind } from './errors.ts'
import { message, type Lang, type MessageKey } from '../i18n/messages.ts'
import type { Role } from '../db/tables/role.ts'

/**
 * The rules that keep the administrators in charge (issue 8 item 4), checked by the server
 * whatever the client shows. Each refusal leaves an audit 'denied' row naming the record.
 */

/** Who acts: the policy's view (roles, grants) and the audit log's (id, username, address). */
export interface Admin {
  actor: Actor
  who: AuditActor
}

/** Writes the 'denied' row and answers the error to throw. */
export async function denied(
  ctx: ServiceContext,
  admin: Admin,
  action: string,
  object: AuditObject,
  reason: string,
  err: ServiceError,
): Promise<ServiceError> {
  await audit(ctx.db, admin.who, action, 'denied', ctx.now(), { reason }, object)
  return err
}

/** A user with `user.manage` but not the administrator role acts on administrators not at all. */
export async function assertMayActOn(ctx: ServiceContext, admin: Admin, action: string, userId: number): Promise<void> {
  if (admin.actor.superuser) return
  const roles = (await rolesOfUsers(ctx.db, [userId])).get(userId) ?? []
  if (roles.some((r) => r.builtin === superRoleKey)) {
    throw await denied(ctx, admin, action, { type: 'user', id: userId }, 'adminTarget', new ServiceError('forbidden', 'user.adminTarget'))
  }
}

/** A refusal naming a role in the caller's language. */
class RoleRefusal extends ServiceError {
  constructor(
    kind: ErrorKind,
    key: MessageKey,
    private readonly role: Role,
  ) {
    super(kind, key)
  }
  override describe(lang: Lang): string {
    return message(lang, this.key, [lang === 'en' ? this.role.name_en : this.role.name_zh])
  }
}

/** Nobody gives a role whose grants they do not hold themselves, unless they hold everything. */
export async function assertMayGrant(
  ctx: ServiceContext,
  admin: Admin,
  action: string,
  userId: number | null,
  roleIds: readonly number[],
): Promise<void> {
  const object: AuditObject | undefined = userId === null ? undefined : { type: 'user', id: userId }
  const found = await rolesWithGrants(ctx.db, roleIds)
  const missing = roleIds.find((id) => !found.some((f) => f.role.id === id))
  if (missing !== undefined) throw new ServiceError('badRequest', 'user.roleMissing', [missing])
  if (admin.actor.superuser) return
  const { permissions, screens } = admin.actor
  for (const { role, grants } of found) {
    const beyond =
      role.builtin === superRoleKey ||
      grants.some((g) => (g.kind === 'permission' ? !permissions.has(g.name as never) : !screens.has(g.name)))
    if (beyond) {
      await audit(ctx.db, admin.who, action, 'denied', ctx.now(), { reason: 'escalation', roleId: role.id }, object)
      throw new RoleRefusal('forbidden', 'user.escalation', role)
    }
  }
}

class LastAdmin extends Error {}

/**
 * Runs a write in one transaction and undoes it when it would leave no active system
 * administrator where there was one: whatever the write (disable, lock, demote, delete), the
 * count after it decides, so no path around the rule exists.
 */
export async function keepingAnAdmin<T>(
  ctx: ServiceContext,
  admin: Admin,
  action: string,
  object: AuditObject,
  write: (trx: Q, now: string) => Promise<T>,
): Promise<T> {
  const now = ctx.now().toISOString()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      // Two such writes at once would each count the other's administrator: one waits for the other.
      await lockBuiltinRole(trx, superRoleKey)
      const before = await countActiveSysAdmins(trx, superRoleKey, now)
      const result = await write(trx, now)
      if (before > 0 && (await countActiveSysAdmins(trx, superRoleKey, now)) === 0) throw new LastAdmin()
      return result
    })
  } catch (err) {
    if (!(err instanceof LastAdmin)) throw err
    throw await denied(ctx, admin, action, object, 'lastAdmin', new ServiceError('conflict', 'user.lastAdmin'))
  }
}
