import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import type { Database } from './database.ts'

export type Dialect = 'sqlite' | 'postgres'

const sqliteHandles = new WeakMap<Kysely<Database>, SQLite.Database>()

/**
 * The better-sqlite3 connection behind a Kysely that connect() made, for a repository that reads
 * so many rows that a prepared statement in raw mode pays (use it inside `db.connection()`, so
 * Kysely's lock on the one connection still orders it); none for PostgreSQL.
 */
export const sqliteHandle = (db: Kysely<Database>): SQLite.Database | undefined => sqliteHandles.get(db)

export interface Db {
  kysely: Kysely<Database>
  dialect: Dialect
  close(): Promise<void>
}

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
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
  sqliteHandles.set(kysely, sqlite)
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() }
}
