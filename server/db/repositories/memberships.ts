import type { Q } from '../query.ts'

export interface MembershipRow {
  project_id: number
  role_id: number
  role_name: string
  authorities: string
  blinded: number
  all_queues: number
  all_centers: number
  queue_ids: number[]
  center_ids: number[]
}

/**
 * Every project the user is a member of, with their project role and the queues and centers it
 * grants: the policy decides every project call on it. Two indexed queries, the second only for
 * roles limited to some queues or centers.
 */
export async function membershipsOfUser(db: Q, userId: number): Promise<MembershipRow[]> {
  const rows = await db
    .selectFrom('project_member as m')
    .innerJoin('project_role as r', 'r.id', 'm.role_id')
    .where('m.user_id', '=', userId)
    .select(['m.project_id', 'm.role_id', 'r.name as role_name', 'r.authorities', 'r.blinded', 'r.all_queues', 'r.all_centers'])
    .execute()
  const limited = [...new Set(rows.filter((r) => r.all_queues === 0 || r.all_centers === 0).map((r) => r.role_id))]
  const grants =
    limited.length === 0
      ? []
      : await db
          .selectFrom('project_role_queue')
          .where('role_id', 'in', limited)
          .select(['role_id', 'queue_id as id', (eb) => eb.val('queue').as('kind')])
          .unionAll(
            db
              .selectFrom('project_role_center')
              .where('role_id', 'in', limited)
              .select(['role_id', 'center_id as id', (eb) => eb.val('center').as('kind')]),
          )
          .execute()
  return rows.map((r) => ({
    ...r,
    queue_ids: grants.filter((g) => g.role_id === r.role_id && g.kind === 'queue').map((g) => g.id),
    center_ids: grants.filter((g) => g.role_id === r.role_id && g.kind === 'center').map((g) => g.id),
  }))
}
