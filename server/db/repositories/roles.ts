import { sql } from 'kysely'
import type { Q } from '../query.ts'
import type { Role } from '../tables/role.ts'

export interface HeldRole {
  id: number
  builtin: string | null
  nameZh: string
  nameEn: string
}

/** The roles a user holds with every grant of theirs, in one query: the actor is read on every request. */
export async function rolesAndGrantsOfUser(
  db: Q,
  userId: number,
): Promise<{ roles: HeldRole[]; grants: { kind: 'screen' | 'permission'; name: string }[] }> {
  const rows = await db
    .selectFrom('user_role')
    .innerJoin('role', 'role.id', 'user_role.role_id')
    .leftJoin('role_grant', 'role_grant.role_id', 'role.id')
    .select(['role.id', 'role.builtin', 'role.name_zh', 'role.name_en', 'role_grant.kind', 'role_grant.name'])
    .where('user_role.user_id', '=', userId)
    .orderBy('role.id')
    .execute()
  const roles = new Map<number, HeldRole>()
  const grants: { kind: 'screen' | 'permission'; name: string }[] = []
  for (const r of rows) {
    if (!roles.has(r.id)) roles.set(r.id, { id: r.id, builtin: r.builtin, nameZh: r.name_zh, nameEn: r.name_en })
    if (r.kind && r.name) grants.push({ kind: r.kind, name: r.name })
  }
  return { roles: [...roles.values()], grants }
}

/** Every grant of the given roles. */
export async function grantsOfRoles(db: Q, roleIds: readonly number[]): Promise<{ kind: 'screen' | 'permission'; name: string }[]> {
  if (roleIds.length === 0) return []
  return db.selectFrom('role_grant').select(['kind', 'name']).distinct().where('role_id', 'in', roleIds).execute()
}

/**
 * Takes the row lock of a built-in role for the rest of the transaction (a no-op write, so it
 * works on SQLite and PostgreSQL alike): writes that must see each other's result, such as two
 * administrators disabling each other at once, run one after the other.
 */
export async function lockBuiltinRole(db: Q, key: string): Promise<void> {
  await db
    .updateTable('role')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('builtin', '=', key)
    .execute()
}

export function findBuiltinRole(db: Q, key: string): Promise<Role | undefined> {
  return db.selectFrom('role').selectAll().where('builtin', '=', key).executeTakeFirst()
}

export async function insertRole(
  db: Q,
  role: { name_zh: string; name_en: string; remarks?: string; builtin: string | null; created_at: string; updated_at: string },
): Promise<number> {
  const row = await db.insertInto('role').values(role).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function insertGrants(
  db: Q,
  roleId: number,
  grants: readonly { kind: 'screen' | 'permission'; name: string }[],
): Promise<void> {
  if (grants.length === 0) return
  await db
    .insertInto('role_grant')
    .values(grants.map((g) => ({ role_id: roleId, ...g })))
    .execute()
}

export async function addUserRoles(db: Q, userId: number, roleIds: readonly number[]): Promise<void> {
  if (roleIds.length === 0) return
  await db
    .insertInto('user_role')
    .values(roleIds.map((role_id) => ({ user_id: userId, role_id })))
    .execute()
}

/** The roles with these ids and what each grants. */
export async function rolesWithGrants(
  db: Q,
  ids: readonly number[],
): Promise<{ role: Role; grants: { kind: 'screen' | 'permission'; name: string }[] }[]> {
  if (ids.length === 0) return []
  const roles = await db.selectFrom('role').selectAll().where('id', 'in', ids).orderBy('id').execute()
  const grants = await db.selectFrom('role_grant').selectAll().where('role_id', 'in', ids).execute()
  return roles.map((role) => ({ role, grants: grants.filter((g) => g.role_id === role.id).map((g) => ({ kind: g.kind, name: g.name })) }))
}

/** The roles of each user, for a list page. */
export async function rolesOfUsers(db: Q, userIds: readonly number[]): Promise<Map<number, HeldRole[]>> {
  const out = new Map<number, HeldRole[]>()
  if (userIds.length === 0) return out
  const rows = await db
    .selectFrom('user_role')
    .innerJoin('role', 'role.id', 'user_role.role_id')
    .select(['user_role.user_id', 'role.id', 'role.builtin', 'role.name_zh', 'role.name_en'])
    .where('user_role.user_id', 'in', userIds)
    .orderBy('role.id')
    .execute()
  for (const r of rows) {
    out.set(r.user_id, [...(out.get(r.user_id) ?? []), { id: r.id, builtin: r.builtin, nameZh: r.name_zh, nameEn: r.name_en }])
  }
  return out
}

/** Replaces the user's roles with these. */
export async function replaceUserRoles(db: Q, userId: number, roleIds: readonly number[]): Promise<void> {
  await db.deleteFrom('user_role').where('user_id', '=', userId).execute()
  await addUserRoles(db, userId, roleIds)
}

export interface RoleWithCounts extends Role {
  screen_count: number
  permission_count: number
  user_count: number
}

/** Roles with their grant and holder counts; a handful of rows, each count an index range. */
function rolesWithCounts(db: Q) {
  return db
    .selectFrom('role')
    .selectAll('role')
    .select((eb) => [
      ...(['screen', 'permission'] as const).map((kind) =>
        eb
          .selectFrom('role_grant')
          .whereRef('role_grant.role_id', '=', 'role.id')
          .where('role_grant.kind', '=', kind)
          .select((e) => e.fn.countAll<number | string>().as('n'))
          .as(`${kind}_count` as const),
      ),
      eb
        .selectFrom('user_role')
        .whereRef('user_role.role_id', '=', 'role.id')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .as('user_count'),
    ])
}

type CountedRole = Role & Record<'screen_count' | 'permission_count' | 'user_count', number | string | null>

const counted = (r: CountedRole): RoleWithCounts => ({
  ...r,
  screen_count: Number(r.screen_count ?? 0),
  permission_count: Number(r.permission_count ?? 0),
  user_count: Number(r.user_count ?? 0),
})

/** Built-in roles first in their seeded order (ids), then the others by id. */
export async function listRoleRows(db: Q): Promise<RoleWithCounts[]> {
  const rows = await rolesWithCounts(db).orderBy('role.id').execute()
  return rows.map(counted)
}

export async function findRoleWithCounts(db: Q, id: number): Promise<RoleWithCounts | undefined> {
  const row = await rolesWithCounts(db).where('role.id', '=', id).executeTakeFirst()
  return row && counted(row)
}

export function findRoleById(db: Q, id: number): Promise<Role | undefined> {
  return db.selectFrom('role').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Another role of that Chinese name, whatever its case. */
export function findRoleByName(db: Q, nameZh: string): Promise<Role | undefined> {
  return db
    .selectFrom('role')
    .selectAll()
    .where(sql<string>`lower(name_zh)`, '=', sql<string>`lower(${nameZh})`)
    .executeTakeFirst()
}

export async function updateRoleRow(
  db: Q,
  id: number,
  r: { name_zh: string; name_en: string; remarks: string },
  now: string,
): Promise<void> {
  await db
    .updateTable('role')
    .set({ ...r, updated_at: now })
    .where('id', '=', id)
    .execute()
}

export async function deleteGrants(db: Q, roleId: number): Promise<void> {
  await db.deleteFrom('role_grant').where('role_id', '=', roleId).execute()
}

export async function deleteRoleRow(db: Q, id: number): Promise<void> {
  await db.deleteFrom('role_grant').where('role_id', '=', id).execute()
  await db.deleteFrom('role').where('id', '=', id).execute()
}

export async function countRoleHolders(db: Q, roleId: number): Promise<number> {
  const row = await db
    .selectFrom('user_role')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role_id', '=', roleId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
