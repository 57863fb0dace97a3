import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * The project authority 'identifiers' (downloading identifier fields, issue 11): a project's
 * manager role holds every authority, so the existing ones get it too. The JSON array is read and
 * written here in code: the same on both dialects.
 */
export async function up(db: AnyDb): Promise<void> {
  const roles = (await db.selectFrom('project_role').select(['id', 'authorities']).where('builtin', '=', 'manager').execute()) as {
    id: number
    authorities: string
  }[]
  for (const r of roles) {
    const held = JSON.parse(r.authorities) as string[]
    if (held.includes('identifiers')) continue
    await db
      .updateTable('project_role')
      .set({ authorities: JSON.stringify([...held, 'identifiers']) })
      .where('id', '=', r.id)
      .execute()
  }
}

export async function down(db: AnyDb): Promise<void> {
  const roles = (await db.selectFrom('project_role').select(['id', 'authorities']).execute()) as { id: number; authorities: string }[]
  for (const r of roles) {
    const held = JSON.parse(r.authorities) as string[]
    if (!held.includes('identifiers')) continue
    await db
      .updateTable('project_role')
      .set({ authorities: JSON.stringify(held.filter((a) => a !== 'identifiers')) })
      .where('id', '=', r.id)
      .execute()
  }
}
