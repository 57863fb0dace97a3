import type { Kysely } from 'kysely'
import { giveGrants, takeGrants, type RoleGrant } from './builtinRoleGrants.ts'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * The built-in monitor was seeded with the system audit log (screen and audit.view). That log lists
 * every project's enrolments and samples, with subject numbers and centers, and every person's
 * sign-ins and addresses: past the centers and queues a monitor's project role allows. The seed no
 * longer gives them; here they are taken from the monitor role of databases seeded before. Down
 * gives them back.
 */
const grants: RoleGrant[] = [
  { kind: 'screen', name: 'auditLog' },
  { kind: 'permission', name: 'audit.view' },
]

export const up = (db: AnyDb): Promise<void> => takeGrants(db, 'monitor', grants)

export const down = (db: AnyDb): Promise<void> => giveGrants(db, 'monitor', grants)
