import type { ProjectAuthority } from '../../contract/projects.ts'
import type { TestApp } from './testApp.ts'

/**
 * Project members for API tests, written directly (the members screen is another area's), and
 * the switch between signed-in test users that the calls read their token from.
 */

export interface MemberRole {
  authorities: readonly ProjectAuthority[]
  /** Limits the role to these centers / queues; every one when left out. */
  centers?: readonly number[]
  queues?: readonly number[]
  blinded?: boolean
}

/** Makes the user a member of the project with a role of its own; answers the role's id. */
export async function addProjectMember(t: TestApp, projectId: number, userId: number, role: MemberRole): Promise<number> {
  const db = t.db.kysely
  const at = new Date().toISOString()
  const { id } = await db
    .insertInto('project_role')
    .values({
      project_id: projectId,
      name: `role of user ${userId}`,
      authorities: JSON.stringify(role.authorities),
      all_queues: role.queues ? 0 : 1,
      all_centers: role.centers ? 0 : 1,
      blinded: role.blinded ? 1 : 0,
      builtin: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const queue_id of role.queues ?? []) await db.insertInto('project_role_queue').values({ role_id: id, queue_id }).execute()
  for (const center_id of role.centers ?? []) await db.insertInto('project_role_center').values({ role_id: id, center_id }).execute()
  await db.insertInto('project_member').values({ project_id: projectId, user_id: userId, role_id: id, created_at: at }).execute()
  return id
}

/**
 * Who the calls are made as: `current()` for apiCalls' token, and `by(user, fn)` to make the
 * calls of `fn` as another user, back to the previous one afterwards, even when `fn` throws.
 */
export function userSwitch(initial: string) {
  let as = initial
  return {
    current: () => as,
    async by<T>(user: string, fn: () => Promise<T>): Promise<T> {
      const before = as
      as = user
      try {
        return await fn()
      } finally {
        as = before
      }
    },
  }
}
