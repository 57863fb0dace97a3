import type { Kysely, Transaction } from 'kysely'
import type { Database } from './database.ts'

/** What a repository function runs on: the database or an open transaction. */
export type Q = Kysely<Database> | Transaction<Database>
