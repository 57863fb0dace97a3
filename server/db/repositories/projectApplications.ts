import type { Q } from '../query.ts'

/** Applications to join a project (multi-apply) and their decisions. */

export interface ApplicationRow {
  id: number
  project_id: number
  project_name: string
  user_id: number
  name: string
  role_id: number | null
  role_name: string | null
  reason: string
  status: string
  decided_by_name: string | null
  decision_reason: string
  created_at: string
  decided_at: string | null
}

function base(db: Q) {
  return db
    .selectFrom('project_application as a')
    .innerJoin('project as p', 'p.id', 'a.project_id')
    .innerJoin('app_user as u', 'u.id', 'a.user_id')
    .leftJoin('project_role as r', 'r.id', 'a.role_id')
    .leftJoin('app_user as d', 'd.id', 'a.decided_by')
    .select([
      'a.id',
      'a.project_id',
      'p.name as project_name',
      'a.user_id',
      'u.name',
      'a.role_id',
      'r.name as role_name',
      'a.reason',
      'a.status',
      'd.name as decided_by_name',
      'a.decision_reason',
      'a.created_at',
      'a.decided_at',
    ])
}

/** A project's applications, newest first. */
export function applicationsOfProject(db: Q, projectId: number): Promise<ApplicationRow[]> {
  return base(db).where('a.project_id', '=', projectId).orderBy('a.id', 'desc').execute()
}

/** A user's applications, newest first. */
export function applicationsOfUser(db: Q, userId: number): Promise<ApplicationRow[]> {
  return base(db).where('a.user_id', '=', userId).orderBy('a.id', 'desc').execute()
}

export function findApplication(db: Q, projectId: number, id: number): Promise<ApplicationRow | undefined> {
  return base(db).where('a.project_id', '=', projectId).where('a.id', '=', id).executeTakeFirst()
}

export async function pendingApplicationOf(db: Q, projectId: number, userId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('project_application')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .select('id')
    .executeTakeFirst()
  return row?.id
}

export async function insertApplication(
  db: Q,
  a: { project_id: number; user_id: number; role_id: number | null; reason: string; created_at: string },
): Promise<number> {
  const row = await db
    .insertInto('project_application')
    .values({ ...a, status: 'pending' })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * Decides a pending application; answers false when it was no longer pending (another manager
 * decided it first), so the caller writes nothing else.
 */
export async function decideApplication(
  db: Q,
  id: number,
  d: { status: 'approved' | 'refused'; role_id: number | null; decided_by: number; decision_reason: string; decided_at: string },
): Promise<boolean> {
  const res = await db.updateTable('project_application').set(d).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst()
  return Number(res.numUpdatedRows) === 1
}
