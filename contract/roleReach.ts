import type { ProjectAuthority, ProjectRoleInput } from './projects.ts'

/**
 * Inside a project, whoever manages members grants no more than their own project role holds: no
 * authority they lack, no queue or center outside theirs, no unblinded role when theirs is
 * blinded. One rule for the server, which refuses (server/services/projectRoleBounds.ts), and the
 * role dialog and member tab, which offer only what it allows.
 */

/** What a role grants, as the rule compares it: null queues or centers mean every one. */
export interface RoleReach {
  authorities: readonly ProjectAuthority[]
  blinded: boolean
  queueIds: readonly number[] | null
  centerIds: readonly number[] | null
}

export const reachOf = (
  r: Pick<ProjectRoleInput, 'authorities' | 'blinded' | 'allQueues' | 'queueIds' | 'allCenters' | 'centerIds'>,
): RoleReach => ({
  authorities: r.authorities,
  blinded: r.blinded,
  queueIds: r.allQueues ? null : r.queueIds,
  centerIds: r.allCenters ? null : r.centerIds,
})

/** The first thing a role grants beyond another's. */
export type Beyond =
  | { kind: 'authority'; authority: ProjectAuthority }
  | { kind: 'unblinded' }
  | { kind: 'allQueues' }
  | { kind: 'allCenters' }
  | { kind: 'queue'; id: number }
  | { kind: 'center'; id: number }

const outside = (mine: readonly number[] | null, theirs: readonly number[] | null): number | 'all' | undefined => {
  if (mine === null) return undefined
  if (theirs === null) return 'all'
  return theirs.find((id) => !mine.includes(id))
}

/** What `reach` grants beyond `own`, or null when it lies wholly inside. */
export function beyondReach(own: RoleReach, reach: RoleReach): Beyond | null {
  const authority = reach.authorities.find((a) => !own.authorities.includes(a))
  if (authority !== undefined) return { kind: 'authority', authority }
  if (own.blinded && !reach.blinded) return { kind: 'unblinded' }
  const queue = outside(own.queueIds, reach.queueIds)
  if (queue === 'all') return { kind: 'allQueues' }
  if (queue !== undefined) return { kind: 'queue', id: queue }
  const center = outside(own.centerIds, reach.centerIds)
  if (center === 'all') return { kind: 'allCenters' }
  if (center !== undefined) return { kind: 'center', id: center }
  return null
}
