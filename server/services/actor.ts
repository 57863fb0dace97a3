import { superRoleKey, type Permission } from '../../contract/permissions.ts'
import type { Account } from '../db/tables/account.ts'
import type { User } from '../db/tables/user.ts'
import type { Q } from '../db/query.ts'
import { rolesAndGrantsOfUser, type HeldRole } from '../db/repositories/roles.ts'
import type { SignedIn } from './auth.ts'

/** What a user may be in one project; the projects issue fills these from the database. */
export interface Membership {
  projectId: number
  role: string
  /** Centers the member works for; empty means every center of the project. */
  centerIds: readonly number[]
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
  memberships: readonly Membership[]
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
    memberships: [],
  }
}
