import { projectAuthorities, type MembershipView, type ProjectAuthority, type ProjectRoleInput } from '../../../contract/projects.ts'

/**
 * What the role dialog lets a member grant: no more than their own project role holds (the
 * server's rule, server/services/projectRoleBounds.ts). `me` is null for one who manages without
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
    }
  const { queueIds, centerIds } = me
  return {
    narrowed: me.blinded || queueIds !== null || centerIds !== null || projectAuthorities.some((a) => !me.authorities.includes(a)),
    authority: (a) => me.authorities.includes(a),
    unblinded: !me.blinded,
    allQueues: queueIds === null,
    queue: (id) => queueIds === null || queueIds.includes(id),
    allCenters: centerIds === null,
    center: (id) => centerIds === null || centerIds.includes(id),
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
