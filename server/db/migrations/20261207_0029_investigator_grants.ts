import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * The built-in researcher is the investigator: the one who signs CRFs and may unblind a subject
 * in an emergency. The seed gave the role neither permission, so a project role's sign and unblind
 * authorities did nothing for a researcher until an administrator edited the system role. The seed
 * gives them now; databases seeded before get them here where missing. Fixed names, not the
 * seed's: a migration means the same thing whenever it runs.
 */
const added = ['subject.sign', 'subject.unblind']

async function researcher(db: AnyDb): Promise<number | undefined> {
  const row = (await db.selectFrom('role').select('id').where('builtin', '=', 'researcher').executeTakeFirst()) as
    { id: number } | undefined
  return row?.id
}

export async function up(db: AnyDb): Promise<void> {
  const id = await researcher(db)
  if (id === undefined) return
  const held = (await db
    .selectFrom('role_grant')
    .select('name')
    .where('role_id', '=', id)
    .where('kind', '=', 'permission')
    .where('name', 'in', added)
    .execute()) as { name: string }[]
  const missing = added.filter((name) => !held.some((g) => g.name === name))
  if (missing.length > 0)
    await db
      .insertInto('role_grant')
      .values(missing.map((name) => ({ role_id: id, kind: 'permission', name })))
      .execute()
}

export async function down(db: AnyDb): Promise<void> {
  const id = await researcher(db)
  if (id === undefined) return
  await db.deleteFrom('role_grant').where('role_id', '=', id).where('kind', '=', 'permission').where('name', 'in', added).execute()
}
