import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

export interface AuthPolicy {
  /** How long a token lives after sign-in. */
  tokenTtlMs: number
  /** Failed sign-ins for one username within `failureWindowMs` that lock it. */
  maxFailures: number
  failureWindowMs: number
  lockMs: number
}

/** What services need from the world; tests pass their own clock. */
export interface ServiceContext {
  db: Kysely<Database>
  now: () => Date
  auth: AuthPolicy
  /** DATA_DIR: stored files live under its `files/` (server/services/fileStore.ts). */
  dataDir: string
  /** Days the files of data loading are kept (DATA_RETENTION_DAYS). */
  retentionDays: number
  /** TIME_ZONE: follow-up visits are planned in its calendar days (server/services/calendarDay.ts). */
  timeZone: string
}
