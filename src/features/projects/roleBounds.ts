import { projectAuthorities, type MembershipView, type ProjectAuthority, type ProjectRoleInput } from '../../../contract/projects.ts'
import { beyondReach, reachOf } from '../../../contract/roleReach.ts'

type Reach = Parameters<typeof reachOf>[0]

/**
 * What the role dialog lets a member grant: no more than their own project role holds (the
 * server's rule, contract/roleReach.ts). `me` is null for one who manages without
 * a membership (the system administrator): nothing is bounded.
 */
export interface RoleBounds {
  /** Some choice is out of reach (the dialog says why). */
  narrowed: boolean
  authority(a: ProjectAuthority): boolean
  /** May the role be unblinded. */
  unblinded: boolean
  allQueues: boolean
  queue(id: number): boolean
  allCenters: boolean
  center(id: number): boolean
  /** The whole role lies inside: it may be given, and its members changed. */
  covers(role: Reach): boolean
}

export function roleBoundsOf(me: MembershipView | null): RoleBounds {
  if (!me)
    return {
      narrowed: false,
      authority: () => true,
      unblinded: true,
      allQueues: true,
      queue: () => true,
      allCenters: true,
      center: () => true,
      covers: () => true,
    }
  const { queueIds, centerIds } = me
  const authority = (a: ProjectAuthority) => me.authorities.includes(a)
  const queue = (id: number) => queueIds === null || queueIds.includes(id)
  const center = (id: number) => centerIds === null || centerIds.includes(id)
  return {
    narrowed: me.blinded || queueIds !== null || centerIds !== null || projectAuthorities.some((a) => !authority(a)),
    authority,
    unblinded: !me.blinded,
    allQueues: queueIds === null,
    queue,
    allCenters: centerIds === null,
    center,
    covers: (r) => beyondReach(me, reachOf(r)) === null,
  }
}

/** A new role's starting point inside the bounds: blinded if the granter is, their own queues and centers. */
export function blankRole(me: MembershipView | null): ProjectRoleInput {
  return {
    name: '',
    remarks: '',
    authorities: [],
    blinded: me?.blinded ?? false,
    allQueues: !me || me.queueIds === null,
    queueIds: me?.queueIds ?? [],
    allCenters: !me || me.centerIds === null,
    centerIds: me?.centerIds ?? [],
  }
}
