import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * Follow-up management, project progress and data loading came after the built-in roles were
 * first seeded, and the seed never touches a role again: a researcher, data entry clerk or monitor
 * of such a database could not open them (a data entry clerk holding dataLoad.import had no screen
 * to upload from). The screens the seed now gives these roles are added where missing. Fixed
 * lists here, not the seed's: a migration means the same thing whenever it runs.
 */
const added: Record<string, readonly string[]> = {
  researcher: ['followUp', 'progress', 'dataLoading'],
  dataEntry: ['followUp', 'progress', 'dataLoading', 'dataList'],
  monitor: ['followUp', 'progress'],
}

async function rolesById(db: AnyDb): Promise<{ id: number; builtin: string }[]> {
  return (await db.selectFrom('role').select(['id', 'builtin']).where('builtin', 'in', Object.keys(added)).execute()) as {
    id: number
    builtin: string
  }[]
}

export async function up(db: AnyDb): Promise<void> {
  for (const r of await rolesById(db)) {
    const held = new Set(
      (
        (await db.selectFrom('role_grant').select('name').where('role_id', '=', r.id).where('kind', '=', 'screen').execute()) as {
          name: string
        }[]
      ).map((g) => g.name),
    )
    const missing = added[r.builtin]!.filter((name) => !held.has(name))
    if (missing.length > 0)
      await db
        .insertInto('role_grant')
        .values(missing.map((name) => ({ role_id: r.id, kind: 'screen', name })))
        .execute()
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const r of await rolesById(db))
    await db
      .deleteFrom('role_grant')
      .where('role_id', '=', r.id)
      .where('kind', '=', 'screen')
      .where('name', 'in', [...added[r.builtin]!])
      .execute()
}
