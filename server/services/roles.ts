import { permissions as allPermissions, superRoleKey, type Permission } from '../../contract/permissions.ts'
import type { RoleDetail, RoleInput, RoleList, RoleSummary } from '../../contract/roles.ts'
import { listCatalog } from '../db/repositories/catalog.ts'
import type { Q } from '../db/query.ts'
import {
  countRoleHolders,
  deleteGrants,
  deleteRoleRow,
  findRoleById,
  findRoleByName,
  findRoleWithCounts,
  grantsOfRoles,
  insertGrants,
  insertRole,
  listRoleRows,
  updateRoleRow,
  type RoleWithCounts,
} from '../db/repositories/roles.ts'
import type { Role } from '../db/tables/role.ts'
import type { Actor } from './actor.ts'
import { audit, type Actor as AuditActor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { holds } from './policy.ts'

/**
 * System roles and their grants (issue 8 item 2). Rights are at stake in every write here, so
 * the rules that keep anyone from raising their own rights refuse with an audit row 'denied':
 * - a non-superuser grants only screens and permissions they hold themselves;
 * - nobody but a superuser edits a role they hold (they would be raising their own rights);
 * - the system administrator role holds everything: its grants are not stored nor edited.
 * Holders feel a change on their next request: the actor is read per request (plugins/auth.ts).
 */

const toSummary = (r: RoleWithCounts): RoleSummary => {
  const superuser = r.builtin === superRoleKey
  return {
    id: r.id,
    nameZh: r.name_zh,
    nameEn: r.name_en,
    remarks: r.remarks,
    builtin: r.builtin,
    superuser,
    screenCount: r.screen_count,
    permissionCount: r.permission_count,
    userCount: r.user_count,
  }
}

export async function listRoles(ctx: ServiceContext): Promise<RoleList> {
  return { items: (await listRoleRows(ctx.db)).map(toSummary) }
}

async function detail(db: Q, id: number): Promise<RoleDetail> {
  const row = await findRoleWithCounts(db, id)
  if (!row) throw new ServiceError('notFound', 'role.notFound', [id])
  const summary = toSummary(row)
  if (summary.superuser) {
    // What it holds is everything, whatever is stored.
    const screens = (await listCatalog(db)).filter((e) => e.kind === 'screen').map((e) => e.name)
    return { ...summary, screenCount: screens.length, permissionCount: allPermissions.length, screens, permissions: [...allPermissions] }
  }
  const grants = await grantsOfRoles(db, [id])
  const granted = new Set(grants.filter((g) => g.kind === 'permission').map((g) => g.name))
  return {
    ...summary,
    screens: grants
      .filter((g) => g.kind === 'screen')
      .map((g) => g.name)
      .sort(),
    // In the documented order of contract/permissions.ts.
    permissions: allPermissions.filter((p) => granted.has(p)),
  }
}

export function getRole(ctx: ServiceContext, id: number): Promise<RoleDetail> {
  return detail(ctx.db, id)
}

interface Grants {
  screens: string[]
  permissions: Permission[]
}

/** The grants of an input, each name checked: an unknown one is refused by name. */
async function checkedGrants(db: Q, input: RoleInput): Promise<Grants | null> {
  if (input.screens === undefined && input.permissions === undefined) return null
  const known = new Set((await listCatalog(db)).filter((e) => e.kind === 'screen').map((e) => e.name))
  const screens = [...new Set(input.screens ?? [])]
  const badScreen = screens.find((s) => !known.has(s))
  if (badScreen !== undefined) throw new ServiceError('badRequest', 'role.unknownScreen', [badScreen])
  const perms = [...new Set(input.permissions ?? [])]
  const badPermission = perms.find((p) => !(allPermissions as readonly string[]).includes(p))
  if (badPermission !== undefined) throw new ServiceError('badRequest', 'role.unknownPermission', [badPermission])
  return { screens, permissions: perms as Permission[] }
}

/** A refusal where rights are at stake: written to the audit log (outside the rolled-back work), then thrown. */
async function denied(
  ctx: ServiceContext,
  who: AuditActor,
  action: string,
  err: ServiceError,
  detail: Record<string, unknown>,
  id?: number,
) {
  await audit(
    ctx.db,
    who,
    action,
    'denied',
    ctx.now(),
    { ...detail, reason: err.key, params: err.params },
    id === undefined ? undefined : { type: 'role', id },
  )
  return err
}

/** What a non-superuser adds must be what they hold themselves. */
function escalation(actor: Actor, grants: Grants, before: Grants): ServiceError | null {
  if (actor.superuser) return null
  const heldBefore = { screens: new Set(before.screens), permissions: new Set(before.permissions) }
  const screen = grants.screens.find((s) => !heldBefore.screens.has(s) && !actor.screens.has(s))
  if (screen !== undefined) return new ServiceError('forbidden', 'role.escalation', [screen])
  const permission = grants.permissions.find((p) => !heldBefore.permissions.has(p) && !holds(actor, p))
  if (permission !== undefined) return new ServiceError('forbidden', 'role.escalation', [permission])
  return null
}

async function assertNameFree(db: Q, nameZh: string, selfId: number | null): Promise<void> {
  const same = await findRoleByName(db, nameZh)
  if (same && same.id !== selfId) throw new ServiceError('conflict', 'rule.exists', [nameZh])
}

const grantRows = (g: Grants) => [
  ...g.screens.map((name) => ({ kind: 'screen' as const, name })),
  ...g.permissions.map((name) => ({ kind: 'permission' as const, name })),
]

export async function createRole(ctx: ServiceContext, actor: Actor, who: AuditActor, input: RoleInput): Promise<RoleDetail> {
  const grants = (await checkedGrants(ctx.db, input)) ?? { screens: [], permissions: [] }
  const refused = escalation(actor, grants, { screens: [], permissions: [] })
  if (refused) throw await denied(ctx, who, 'role.create', refused, { nameZh: input.nameZh })
  const now = ctx.now()
  return ctx.db.transaction().execute(async (trx) => {
    await assertNameFree(trx, input.nameZh, null)
    const at = now.toISOString()
    const id = await insertRole(trx, {
      name_zh: input.nameZh,
      name_en: input.nameEn,
      remarks: input.remarks,
      builtin: null,
      created_at: at,
      updated_at: at,
    })
    await insertGrants(trx, id, grantRows(grants))
    await audit(trx, who, 'role.create', 'ok', now, { id, nameZh: input.nameZh, ...grants }, { type: 'role', id })
    return detail(trx, id)
  })
}

async function mustFind(db: Q, id: number): Promise<Role> {
  const role = await findRoleById(db, id)
  if (!role) throw new ServiceError('notFound', 'role.notFound', [id])
  return role
}

/** Refusals on an existing role where rights are at stake: touching the super role, or one's own. */
function guardExisting(actor: Actor, role: Role): ServiceError | null {
  if (actor.superuser) return null
  if (role.builtin === superRoleKey) return new ServiceError('forbidden', 'role.superOnly')
  if (actor.roles.some((r) => r.id === role.id)) return new ServiceError('forbidden', 'role.ownRole')
  return null
}

export async function updateRole(ctx: ServiceContext, actor: Actor, who: AuditActor, id: number, input: RoleInput): Promise<RoleDetail> {
  const role = await mustFind(ctx.db, id)
  const guard = guardExisting(actor, role)
  if (guard) throw await denied(ctx, who, 'role.update', guard, { id }, id)
  const grants = await checkedGrants(ctx.db, input)
  if (grants && role.builtin === superRoleKey)
    throw await denied(ctx, who, 'role.update', new ServiceError('badRequest', 'role.superGrants'), { id }, id)
  const before = await grantsOfRoles(ctx.db, [id])
  const old: Grants = {
    screens: before.filter((g) => g.kind === 'screen').map((g) => g.name),
    permissions: before.filter((g) => g.kind === 'permission').map((g) => g.name as Permission),
  }
  const refused = grants && escalation(actor, grants, old)
  if (refused) throw await denied(ctx, who, 'role.update', refused, { id }, id)
  const now = ctx.now()
  return ctx.db.transaction().execute(async (trx) => {
    await assertNameFree(trx, input.nameZh, id)
    await updateRoleRow(trx, id, { name_zh: input.nameZh, name_en: input.nameEn, remarks: input.remarks }, now.toISOString())
    const change: Record<string, unknown> = { id, nameZh: input.nameZh }
    if (role.name_zh !== input.nameZh) change.oldNameZh = role.name_zh
    if (grants) {
      await deleteGrants(trx, id)
      await insertGrants(trx, id, grantRows(grants))
      // What changed, so the history reads as a diff and not two long lists.
      change.added = [
        ...grants.screens.filter((s) => !old.screens.includes(s)),
        ...grants.permissions.filter((p) => !old.permissions.includes(p)),
      ]
      change.removed = [
        ...old.screens.filter((s) => !grants.screens.includes(s)),
        ...old.permissions.filter((p) => !grants.permissions.includes(p)),
      ]
    }
    await audit(trx, who, 'role.update', 'ok', now, change, { type: 'role', id })
    return detail(trx, id)
  })
}

export async function deleteRole(ctx: ServiceContext, actor: Actor, who: AuditActor, id: number): Promise<void> {
  const role = await mustFind(ctx.db, id)
  const guard = guardExisting(actor, role)
  if (guard) throw await denied(ctx, who, 'role.delete', guard, { id }, id)
  if (role.builtin !== null) throw await denied(ctx, who, 'role.delete', new ServiceError('conflict', 'role.builtinDelete'), { id }, id)
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    const holders = await countRoleHolders(trx, id)
    if (holders > 0) throw new ServiceError('conflict', 'role.hasUsers', [holders])
    await deleteRoleRow(trx, id)
    await audit(trx, who, 'role.delete', 'ok', now, { id, nameZh: role.name_zh }, { type: 'role', id })
  })
}
