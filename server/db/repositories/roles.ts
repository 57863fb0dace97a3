import type { Q } from '../query.ts'
import type { Role } from '../tables/role.ts'

export interface HeldRole {
  id: number
  builtin: string | null
  nameZh: string
  nameEn: string
}

/** The roles a user holds, for the actor. */
export async function rolesOfUser(db: Q, userId: number): Promise<HeldRole[]> {
  const rows = await db
    .selectFrom('user_role')
    .innerJoin('role', 'role.id', 'user_role.role_id')
    .select(['role.id', 'role.builtin', 'role.name_zh', 'role.name_en'])
    .where('user_role.user_id', '=', userId)
    .orderBy('role.id')
    .execute()
  return rows.map((r) => ({ id: r.id, builtin: r.builtin, nameZh: r.name_zh, nameEn: r.name_en }))
}

/** Every grant of the given roles. */
export async function grantsOfRoles(db: Q, roleIds: readonly number[]): Promise<{ kind: 'screen' | 'permission'; name: string }[]> {
  if (roleIds.length === 0) return []
  return db.selectFrom('role_grant').select(['kind', 'name']).distinct().where('role_id', 'in', roleIds).execute()
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
