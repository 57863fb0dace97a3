import type { Q } from '../query.ts'

/** The records a project refers to, looked up to check them before a project write. */

export async function existingCenterIds(db: Q, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('center')
    .where('id', 'in', [...ids])
    .select('id')
    .execute()
  return new Set(rows.map((r) => r.id))
}

export interface VersionRef {
  id: number
  template_id: number
  version: number
  state: string
}

export async function versionsByIds(db: Q, ids: readonly number[]): Promise<VersionRef[]> {
  if (ids.length === 0) return []
  return db
    .selectFrom('template_version')
    .where('id', 'in', [...ids])
    .select(['id', 'template_id', 'version', 'state'])
    .execute()
}

export async function diseaseExists(db: Q, id: number): Promise<boolean> {
  return (await db.selectFrom('disease').where('id', '=', id).select('id').executeTakeFirst()) !== undefined
}
