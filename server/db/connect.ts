import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { Kysely, PostgresDialect } from 'kysely'
import { startCheckpointer } from './checkpointer.ts'
import type { Database } from './database.ts'
import { rawReadsOf, TwoConnectionSqliteDialect, type RawReads } from './sqliteDriver.ts'

export type Dialect = 'sqlite' | 'postgres'

export interface Db {
  kysely: Kysely<Database>
  dialect: Dialect
  close(): Promise<void>
}

const sqliteHandles = new WeakMap<Kysely<Database>, { writer: SQLite.Database; reads: RawReads }>()

/**
 * The better-sqlite3 writer behind a Kysely that connect() made (none for PostgreSQL), for an
 * upload's writes inside its open transaction, which prepare a statement once and run it over many
 * rows: the transaction holds the writer, so nothing else runs on it meanwhile.
 */
export const sqliteHandle = (db: Kysely<Database>): SQLite.Database | undefined => sqliteHandles.get(db)?.writer

/** Raw reads beside Kysely (a download's pages), on the reader when there is one (see sqliteDriver.ts). */
export const sqliteReads = (db: Kysely<Database>): RawReads | undefined => sqliteHandles.get(db)?.reads

/** `sqlite:<path>` (`sqlite::memory:` for a throw-away one) or `postgres://…`. */
export function connect(url: string): Db {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    // COUNT(*) and BIGINT come back as strings by default; our ids fit in a JS number.
    pg.types.setTypeParser(20, (v) => Number(v))
    const pool = new pg.Pool({ connectionString: url, max: 10 })
    // An idle connection the server ends (a restart, an administrator's terminate) is reported on
    // the pool; without a listener Node would end the whole process. The pool opens a new one.
    pool.on('error', (err) => console.warn(`[db] an idle PostgreSQL connection ended: ${err.message}`))
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() }
  }
  if (!url.startsWith('sqlite:')) throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${url})`)
  const file = url.slice('sqlite:'.length)
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  const sqlite = new SQLite(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  // Lets the planner gather statistics where they are missing: a filtered, sorted page picked a
  // poor index without them (20 ms instead of 2 ms at 100 k indicators).
  sqlite.pragma('optimize = 0x10002')
  const inMemory = file === ':memory:'
  const checkpointer = inMemory ? null : startCheckpointer(sqlite, file)
  const reader = inMemory ? null : new SQLite(file)
  reader?.pragma('busy_timeout = 5000')
  reader?.pragma('query_only = ON')
  const dialect = new TwoConnectionSqliteDialect({ writer: sqlite, reader })
  const kysely = new Kysely<Database>({ dialect })
  sqliteHandles.set(kysely, { writer: sqlite, reads: rawReadsOf(dialect) })
  return {
    kysely,
    dialect: 'sqlite',
    close: async () => {
      await checkpointer?.stop()
      await kysely.destroy()
    },
  }
}
