import type { ProjectAuthority, ProjectRole } from '../../contract/projects.ts'
import type { Q } from '../db/query.ts'
import { centersOf, queuesOf } from '../db/repositories/projects.ts'
import { message, type Lang } from '../i18n/messages.ts'
import type { Actor } from './actor.ts'
import { ServiceError } from './errors.ts'
import { membershipOf } from './policy.ts'

/**
 * Inside a project, whoever manages members grants no more than their own project role holds: no
 * authority they lack, no queue or center outside theirs, no unblinded role when theirs is blinded.
 * Else a member managing one center's people could make a role over every center, or one that may
 * unblind, and take it. The same bound covers the roles and members they change or remove (a
 * narrower manager may not demote or remove a broader one). The system administrator is unbounded;
 * a project manager (every authority, queue and center, unblinded) is bounded by nothing they
 * could name.
 */

/** What a role grants, as the bound compares it: null queues or centers mean every one. */
export interface RoleReach {
  authorities: readonly ProjectAuthority[]
  blinded: boolean
  queueIds: readonly number[] | null
  centerIds: readonly number[] | null
}

export const reachOf = (
  r: Pick<ProjectRole, 'authorities' | 'blinded' | 'allQueues' | 'queueIds' | 'allCenters' | 'centerIds'>,
): RoleReach => ({
  authorities: r.authorities,
  blinded: r.blinded,
  queueIds: r.allQueues ? null : r.queueIds,
  centerIds: r.allCenters ? null : r.centerIds,
})

type Beyond =
  | { kind: 'authority'; authority: ProjectAuthority }
  | { kind: 'unblinded' }
  | { kind: 'allQueues' }
  | { kind: 'allCenters' }
  | { kind: 'queue'; name: string }
  | { kind: 'center'; name: string }

/** The refusal, naming what lies beyond in the caller's language. */
export class BeyondOwnRole extends ServiceError {
  constructor(readonly beyond: Beyond) {
    super('forbidden', 'members.beyondOwn', [beyond.kind])
  }

  override describe(lang: Lang): string {
    const b = this.beyond
    const part =
      b.kind === 'authority'
        ? message(lang, `projectAuthority.${b.authority}`)
        : b.kind === 'queue' || b.kind === 'center'
          ? message(lang, `members.beyond.${b.kind}`, [b.name])
          : message(lang, `members.beyond.${b.kind}`)
    return message(lang, 'members.beyondOwn', [part])
  }
}

const outside = (mine: readonly number[] | null, theirs: readonly number[] | null): number | 'all' | undefined => {
  if (mine === null) return undefined
  if (theirs === null) return 'all'
  return theirs.find((id) => !mine.includes(id))
}

/** The first thing `reach` grants beyond the actor's own role in the project, or null. */
export async function beyondOwn(db: Q, actor: Actor, projectId: number, reach: RoleReach): Promise<BeyondOwnRole | null> {
  if (actor.superuser) return null
  const m = membershipOf(actor, projectId)
  if (!m) return new BeyondOwnRole({ kind: 'allCenters' })
  const authority = reach.authorities.find((a) => !m.authorities.has(a))
  if (authority !== undefined) return new BeyondOwnRole({ kind: 'authority', authority })
  if (m.blinded && !reach.blinded) return new BeyondOwnRole({ kind: 'unblinded' })
  const queue = outside(m.queueIds, reach.queueIds)
  if (queue === 'all') return new BeyondOwnRole({ kind: 'allQueues' })
  const whole = { kind: 'project', projectId, queueIds: null, centerIds: null } as const
  if (queue !== undefined) {
    const q = (await queuesOf(db, projectId, whole)).find((x) => x.id === queue)
    return new BeyondOwnRole({ kind: 'queue', name: q?.name ?? String(queue) })
  }
  const center = outside(m.centerIds, reach.centerIds)
  if (center === 'all') return new BeyondOwnRole({ kind: 'allCenters' })
  if (center !== undefined) {
    const c = (await centersOf(db, projectId, whole, center))[0]
    return new BeyondOwnRole({ kind: 'center', name: c?.code ?? String(center) })
  }
  return null
}
