import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/**
 * Grants taken from or given back to one built-in role by a migration (0030, 0032). Not a
 * migration itself: the list in migrate.ts names those. The grants are the migration's own
 * fixed names, so it means the same thing whenever it runs.
 */
export interface RoleGrant {
  kind: 'screen' | 'permission'
  name: string
}

async function builtinRole(db: AnyDb, builtin: string): Promise<number | undefined> {
  const row = (await db.selectFrom('role').select('id').where('builtin', '=', builtin).executeTakeFirst()) as { id: number } | undefined
  return row?.id
}

export async function takeGrants(db: AnyDb, builtin: string, grants: readonly RoleGrant[]): Promise<void> {
  const id = await builtinRole(db, builtin)
  if (id === undefined) return
  for (const g of grants)
    await db.deleteFrom('role_grant').where('role_id', '=', id).where('kind', '=', g.kind).where('name', '=', g.name).execute()
}

export async function giveGrants(db: AnyDb, builtin: string, grants: readonly RoleGrant[]): Promise<void> {
  const id = await builtinRole(db, builtin)
  if (id === undefined) return
  for (const g of grants) {
    const held = await db
      .selectFrom('role_grant')
      .select('name')
      .where('role_id', '=', id)
      .where('kind', '=', g.kind)
      .where('name', '=', g.name)
      .executeTakeFirst()
    if (!held)
      await db
        .insertInto('role_grant')
        .values({ role_id: id, ...g })
        .execute()
  }
}
