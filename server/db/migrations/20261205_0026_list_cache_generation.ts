import type { Kysely } from 'kysely'
import { addGenerationTriggers, dropGenerationTriggers } from './20261204_0025_access_generation.ts'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/**
 * What the subject list keeps with the caller's cached actor (server/services/actorCache.ts,
 * `actorStore`): the list columns each user chose, and the names of centers, queues and groups
 * its pages show. Writes to these tables bump the access generation as writes to the actor's own
 * tables do, in the writer's transaction, whatever code or server writes; all are rare
 * (a choice of columns, the directory of centers, a project's setup).
 */
export const listCacheTables = ['subject_list_field', 'center', 'project_queue', 'project_group'] as const

export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await addGenerationTriggers(db, dialect, listCacheTables)
}

export async function down(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await dropGenerationTriggers(db, dialect, listCacheTables)
}
