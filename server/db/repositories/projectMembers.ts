import { sql, type Expression, type SqlBool } from 'kysely'
import type { Q } from '../query.ts'
import type { ProjectRole } from '../tables/project.ts'
import { foldAsciiCase, prefixUpperBound } from './indicators.ts'

/** Project roles with their queue and center permissions, members, the user picker, and the scoped queue and center lists. */

export interface RoleRow extends ProjectRole {
  member_count: number
  queue_ids: number[]
  center_ids: number[]
}

/** The roles of a project (or one of them) with member counts and their queue and center grants. */
export async function roleRows(db: Q, projectId: number, roleId?: number): Promise<RoleRow[]> {
  let q = db
    .selectFrom('project_role as r')
    .where('r.project_id', '=', projectId)
    .selectAll('r')
    .select((eb) =>
      eb
        .selectFrom('project_member as m')
        .whereRef('m.role_id', '=', 'r.id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('member_count'),
    )
  if (roleId !== undefined) q = q.where('r.id', '=', roleId)
  const roles = await q.orderBy('r.id').execute()
  if (roles.length === 0) return []
  const ids = roles.map((r) => r.id)
  const [queues, centers] = await Promise.all([
    db.selectFrom('project_role_queue').where('role_id', 'in', ids).select(['role_id', 'queue_id']).orderBy('queue_id').execute(),
    db.selectFrom('project_role_center').where('role_id', 'in', ids).select(['role_id', 'center_id']).orderBy('center_id').execute(),
  ])
  return roles.map((r) => ({
    ...r,
    member_count: Number(r.member_count ?? 0),
    queue_ids: queues.filter((g) => g.role_id === r.id).map((g) => g.queue_id),
    center_ids: centers.filter((g) => g.role_id === r.id).map((g) => g.center_id),
  }))
}

export async function roleNameTaken(db: Q, projectId: number, name: string, selfId: number | null): Promise<boolean> {
  let q = db.selectFrom('project_role').where('project_id', '=', projectId).where('name', '=', name).select('id')
  if (selfId !== null) q = q.where('id', '<>', selfId)
  return (await q.executeTakeFirst()) !== undefined
}

export interface RoleWrite {
  name: string
  remarks: string
  authorities: string
  blinded: number
  all_queues: number
  all_centers: number
}

export async function insertRole(db: Q, projectId: number, role: RoleWrite, at: string): Promise<number> {
  const row = await db
    .insertInto('project_role')
    .values({ ...role, project_id: projectId, builtin: null, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateRole(db: Q, roleId: number, role: RoleWrite, at: string): Promise<void> {
  await db
    .updateTable('project_role')
    .set({ ...role, updated_at: at })
    .where('id', '=', roleId)
    .execute()
}

/** Replaces the role's queue and center grants as sets. */
export async function setRoleGrants(db: Q, roleId: number, queueIds: readonly number[], centerIds: readonly number[]): Promise<void> {
  await db.deleteFrom('project_role_queue').where('role_id', '=', roleId).execute()
  await db.deleteFrom('project_role_center').where('role_id', '=', roleId).execute()
  if (queueIds.length > 0) {
    await db
      .insertInto('project_role_queue')
      .values(queueIds.map((queue_id) => ({ role_id: roleId, queue_id })))
      .execute()
  }
  if (centerIds.length > 0) {
    await db
      .insertInto('project_role_center')
      .values(centerIds.map((center_id) => ({ role_id: roleId, center_id })))
      .execute()
  }
}

export async function deleteRole(db: Q, roleId: number): Promise<void> {
  await db.deleteFrom('project_role').where('id', '=', roleId).execute()
}

/** Of `ids`, those that are queues of the project. */
export async function queueIdsOfProject(db: Q, projectId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('project_queue')
    .where('project_id', '=', projectId)
    .where('id', 'in', [...ids])
    .select('id')
    .execute()
  return new Set(rows.map((r) => r.id))
}

/** Of `ids`, those that are centers of the project. */
export async function centerIdsOfProject(db: Q, projectId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('project_center')
    .where('project_id', '=', projectId)
    .where('center_id', 'in', [...ids])
    .select('center_id')
    .execute()
  return new Set(rows.map((r) => r.center_id))
}

/**
 * Takes the row lock of the project's manager role for the rest of the transaction (a no-op
 * write, on SQLite and PostgreSQL alike): two writes that each leave one manager run one after
 * the other, so together they cannot leave none.
 */
export async function lockManagerRole(db: Q, projectId: number): Promise<void> {
  await db
    .updateTable('project_role')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('project_id', '=', projectId)
    .where('builtin', '=', 'manager')
    .execute()
}

export async function countManagers(db: Q, projectId: number): Promise<number> {
  const row = await db
    .selectFrom('project_member as m')
    .innerJoin('project_role as r', 'r.id', 'm.role_id')
    .where('m.project_id', '=', projectId)
    .where('r.builtin', '=', 'manager')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export interface MemberRow {
  id: number
  user_id: number
  name: string
  username: string | null
  image: string
  role_id: number
  role_name: string
  role_builtin: string | null
  created_at: string
}

/** A user's first account name (by id): a person may sign in through several. */
const usernameOf = sql<string | null>`(select a.username from account a where a.user_id = u.id order by a.id limit 1)`.as('username')

export async function memberRows(db: Q, projectId: number, memberId?: number): Promise<MemberRow[]> {
  let q = db
    .selectFrom('project_member as m')
    .innerJoin('app_user as u', 'u.id', 'm.user_id')
    .innerJoin('project_role as r', 'r.id', 'm.role_id')
    .where('m.project_id', '=', projectId)
    .select(['m.id', 'm.user_id', 'u.name', 'u.image', 'm.role_id', 'r.name as role_name', 'r.builtin as role_builtin', 'm.created_at'])
    .select(usernameOf)
  if (memberId !== undefined) q = q.where('m.id', '=', memberId)
  return q.orderBy('m.id').execute()
}

export async function memberOfUser(db: Q, projectId: number, userId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('project_member')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .select('id')
    .executeTakeFirst()
  return row?.id
}

export async function insertMember(db: Q, projectId: number, userId: number, roleId: number, at: string): Promise<number> {
  const row = await db
    .insertInto('project_member')
    .values({ project_id: projectId, user_id: userId, role_id: roleId, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function setMemberRole(db: Q, memberId: number, roleId: number): Promise<void> {
  await db.updateTable('project_member').set({ role_id: roleId }).where('id', '=', memberId).execute()
}

export async function deleteMember(db: Q, memberId: number): Promise<void> {
  await db.deleteFrom('project_member').where('id', '=', memberId).execute()
}

export async function activeUserName(db: Q, userId: number): Promise<string | undefined> {
  const row = await db.selectFrom('app_user').where('id', '=', userId).where('status', '=', 1).select('name').executeTakeFirst()
  return row?.name
}

/** `lower(col)` starts with the folded prefix: a range the lower() indexes serve, exact in any collation. */
function startsWith(col: string, q: string): Expression<SqlBool> {
  const folded = foldAsciiCase(q)
  const upper = prefixUpperBound(folded)
  const lowered = sql`lower(${sql.ref(col)})`
  const range = upper === null ? sql`${lowered} >= ${folded}` : sql`${lowered} >= ${folded} and ${lowered} < ${upper}`
  return sql<SqlBool>`(${range} and substr(${lowered}, 1, ${sql.lit(Array.from(folded).length)}) = ${folded})`
}

export interface CandidateRow {
  id: number
  name: string
  username: string | null
  department: string | null
}

/** Active users who are not members of the project, by name or username prefix, by name. */
export function candidateRows(db: Q, projectId: number, q: string | undefined, limit: number): Promise<CandidateRow[]> {
  let query = db
    .selectFrom('app_user as u')
    .leftJoin('department as d', 'd.id', 'u.department_id')
    .where('u.status', '=', 1)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('project_member as m').whereRef('m.user_id', '=', 'u.id').where('m.project_id', '=', projectId).select('m.id'),
        ),
      ),
    )
    .select(['u.id', 'u.name', 'd.name as department'])
    .select(usernameOf)
  if (q) {
    query = query.where((eb) =>
      eb.or([
        startsWith('u.name', q),
        eb.exists(eb.selectFrom('account as a').whereRef('a.user_id', '=', 'u.id').where(startsWith('a.username', q)).select('a.id')),
      ]),
    )
  }
  return query.orderBy('u.name').orderBy('u.id').limit(limit).execute()
}
