import type { User } from '../db/tables/user.ts'
import type { SignedIn } from './auth.ts'

/** A back-office role held across the system; the roles issue defines them. */
export type SystemRole = string

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
  sessionId: number
  roles: readonly SystemRole[]
  memberships: readonly Membership[]
}

/** The signed-in user as an actor. No roles or memberships exist yet; their issues load them here. */
export function actorOf(signedIn: SignedIn): Actor {
  return { user: signedIn.user, sessionId: signedIn.sessionId, roles: [], memberships: [] }
}
