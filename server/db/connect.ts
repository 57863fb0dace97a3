import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely'
import { startCheckpointer } from './checkpointer.ts'
import type { Database } from './database.ts'

export type Dialect = 'sqlite' | 'postgres'

export interface Db {
  kysely: Kysely<Database>
  dialect: Dialect
  close(): Promise<void>
}

const sqliteHandles = new WeakMap<Kysely<Database>, SQLite.Database>()

/**
 * The better-sqlite3 connection behind a Kysely that connect() made (none for PostgreSQL), for
 * the few repositories that prepare a statement once and run it over many rows: an upload's
 * writes inside its open transaction, a download's page reads inside `db.connection()`. Either
 * way Kysely's hold on the one connection orders them.
 */
export const sqliteHandle = (db: Kysely<Database>): SQLite.Database | undefined => sqliteHandles.get(db)

/** Statements kept per SQLite connection; past it the least recently used one goes. */
const statementCacheSize = 500

/**
 * Kysely has better-sqlite3 prepare (parse and plan) every statement it runs, which cost a list
 * page about as much as running it; a statement is kept by its SQL text instead. SQLite prepares a
 * kept one again by itself when the schema changes (a new index, ANALYZE). One still iterating is
 * never handed out twice.
 */
function keepingStatements(db: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>()
  return {
    close: () => db.close(),
    prepare(sql) {
      const hit = kept.get(sql)
      kept.delete(sql)
      const stmt = hit && !hit.busy ? hit : db.prepare(sql)
      kept.set(sql, stmt)
      if (kept.size > statementCacheSize) kept.delete(kept.keys().next().value!)
      return stmt
    },
  }
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
  const checkpointer = file === ':memory:' ? null : startCheckpointer(sqlite, file)
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: keepingStatements(sqlite) }) })
  sqliteHandles.set(kysely, sqlite)
  return {
    kysely,
    dialect: 'sqlite',
    close: async () => {
      await checkpointer?.stop()
      await kysely.destroy()
    },
  }
}
