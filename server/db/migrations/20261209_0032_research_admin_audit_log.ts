import type { Kysely } from 'kysely'
import { giveGrants, takeGrants, type RoleGrant } from './builtinRoleGrants.ts'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * The built-in research administrator was seeded with the system audit log (screen and audit.view),
 * as the monitor was until 0030. That log lists every project's enrolments and samples, with
 * subject numbers and centers, and every person's sign-ins and addresses, while a research
 * administrator reads subjects only in projects they are a member of. The seed no longer gives it;
 * here it is taken from the role of databases seeded before. Down gives it back.
 */
const grants: RoleGrant[] = [
  { kind: 'screen', name: 'auditLog' },
  { kind: 'permission', name: 'audit.view' },
]

export const up = (db: AnyDb): Promise<void> => takeGrants(db, 'researchAdmin', grants)

export const down = (db: AnyDb): Promise<void> => giveGrants(db, 'researchAdmin', grants)
