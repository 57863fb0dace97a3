import { superRoleKey, type Permission } from '../../contract/permissions.ts'
import type { Account } from '../db/tables/account.ts'
import type { User } from '../db/tables/user.ts'
import type { Q } from '../db/query.ts'
import { rolesAndGrantsOfUser, type HeldRole } from '../db/repositories/roles.ts'
import { membershipsOfUser } from '../db/repositories/memberships.ts'
import { projectAuthorities, type ProjectAuthority } from '../../contract/projects.ts'
import type { SignedIn } from './auth.ts'

/** What a user is in one project: their project role, what it lets them do, and what it lets them see. */
export interface Membership {
  projectId: number
  roleId: number
  roleName: string
  authorities: ReadonlySet<ProjectAuthority>
  /** Sees no group names and no allocation list. */
  blinded: boolean
  /** The queues and centers the member sees; null means every one of the project. */
  queueIds: readonly number[] | null
  centerIds: readonly number[] | null
}

/** Who makes a request, resolved once per request (server/plugins/auth.ts); what the policy decides on. */
export interface Actor {
  user: User
  account: Account
  sessionId: number
  roles: readonly HeldRole[]
  /** Holds the system administrator role: every screen and permission. */
  superuser: boolean
  permissions: ReadonlySet<Permission>
  screens: ReadonlySet<string>
  /** By project id; read only for project and subject calls (`withMemberships`), else empty. */
  memberships: ReadonlyMap<number, Membership>
}

/** The signed-in user with their roles' grants, read once. */
export async function actorOf(db: Q, signedIn: SignedIn): Promise<Actor> {
  const { roles, grants } = await rolesAndGrantsOfUser(db, signedIn.user.id)
  return {
    ...signedIn,
    roles,
    superuser: roles.some((r) => r.builtin === superRoleKey),
    permissions: new Set(grants.filter((g) => g.kind === 'permission').map((g) => g.name as Permission)),
    screens: new Set(grants.filter((g) => g.kind === 'screen').map((g) => g.name)),
    memberships: new Map(),
  }
}

const isAuthority = (v: unknown): v is ProjectAuthority => (projectAuthorities as readonly unknown[]).includes(v)

/** The actor with their project memberships read (one or two queries). */
export async function withMemberships(db: Q, actor: Actor): Promise<Actor> {
  const rows = await membershipsOfUser(db, actor.user.id)
  const memberships = new Map<number, Membership>()
  for (const r of rows) {
    const parsed: unknown = JSON.parse(r.authorities)
    memberships.set(r.project_id, {
      projectId: r.project_id,
      roleId: r.role_id,
      roleName: r.role_name,
      authorities: new Set(Array.isArray(parsed) ? parsed.filter(isAuthority) : []),
      blinded: r.blinded === 1,
      queueIds: r.all_queues === 1 ? null : r.queue_ids,
      centerIds: r.all_centers === 1 ? null : r.center_ids,
    })
  }
  return { ...actor, memberships }
}
