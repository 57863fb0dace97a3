import type { MembershipView } from '../../../contract/projects.ts'

/**
 * What the edit page leaves out for a role limited to chosen queues or centers, as the server
 * refuses it: a new queue would lie outside the role, and the center list is the whole project's
 * (a save would drop or add centers the member cannot see). `me` null: not limited.
 */
export function editLimits(me: MembershipView | null): { addQueue: boolean; changeCenters: boolean } {
  return { addQueue: me?.queueIds == null, changeCenters: me?.centerIds == null }
}
