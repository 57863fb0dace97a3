import { beyondReach, type Beyond, type RoleReach } from '../../contract/roleReach.ts'
import type { Q } from '../db/query.ts'
import { centersOf, queuesOf } from '../db/repositories/projects.ts'
import { message, type Lang } from '../i18n/messages.ts'
import type { Actor } from './actor.ts'
import { ServiceError } from './errors.ts'
import { membershipOf } from './policy.ts'

/*
 * The server's side of contract/roleReach.ts: the refusal of a grant beyond the actor's own project
 * role, naming the queue or center in the caller's language. The system administrator is unbounded.
 */

/** Named for the refusal: a queue or center by its name or code. */
type Named = Exclude<Beyond, { kind: 'queue' | 'center' }> | { kind: 'queue' | 'center'; name: string }

/** The refusal, naming what lies beyond in the caller's language. */
export class BeyondOwnRole extends ServiceError {
  constructor(readonly beyond: Named) {
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

/** The first thing `reach` grants beyond the actor's own role in the project (contract/roleReach.ts), or null. */
export async function beyondOwn(db: Q, actor: Actor, projectId: number, reach: RoleReach): Promise<BeyondOwnRole | null> {
  if (actor.superuser) return null
  const m = membershipOf(actor, projectId)
  if (!m) return new BeyondOwnRole({ kind: 'allCenters' })
  const b = beyondReach({ ...m, authorities: [...m.authorities] }, reach)
  if (b === null) return null
  const whole = { kind: 'project', projectId, queueIds: null, centerIds: null } as const
  if (b.kind === 'queue') {
    const q = (await queuesOf(db, projectId, whole)).find((x) => x.id === b.id)
    return new BeyondOwnRole({ kind: 'queue', name: q?.name ?? String(b.id) })
  }
  if (b.kind === 'center') {
    const c = (await centersOf(db, projectId, whole, b.id))[0]
    return new BeyondOwnRole({ kind: 'center', name: c?.code ?? String(b.id) })
  }
  return new BeyondOwnRole(b)
}
