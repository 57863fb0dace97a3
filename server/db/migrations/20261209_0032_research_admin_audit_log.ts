import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * The built-in research administrator was seeded with the system audit log (screen and audit.view),
 * as the monitor was until 0030. That log lists every project's enrolments and samples, with
 * subject numbers and centers, and every person's sign-ins and addresses, while a research
 * administrator reads subjects only in projects they are a member of. The seed no longer gives it;
 * here it is taken from the role of databases seeded before. Down gives it back.
 */
const grants = [
  { kind: 'screen', name: 'auditLog' },
  { kind: 'permission', name: 'audit.view' },
]

async function researchAdmin(db: AnyDb): Promise<number | undefined> {
  const row = (await db.selectFrom('role').select('id').where('builtin', '=', 'researchAdmin').executeTakeFirst()) as
    { id: number } | undefined
  return row?.id
}

export async function up(db: AnyDb): Promise<void> {
  const id = await researchAdmin(db)
  if (id === undefined) return
  for (const g of grants)
    await db.deleteFrom('role_grant').where('role_id', '=', id).where('kind', '=', g.kind).where('name', '=', g.name).execute()
}

export async function down(db: AnyDb): Promise<void> {
  const id = await researchAdmin(db)
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
