import { setImmediate as nextTurn } from 'node:timers/promises'
import type SQLite from 'better-sqlite3'
import { CompiledQuery, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult } from 'kysely'

/**
 * Kysely's SQLite driver over two connections to one WAL database file. The writer runs every
 * transaction and every statement that may write, one caller at a time (SQLite has one writer);
 * the reader runs a read outside a transaction at once, on the last committed state. Kysely's own
 * driver has one connection for both, so a 100,000-row upload (one transaction of seconds) held
 * every other user's list and form reads until it committed; PostgreSQL's pool never did.
 * Reads inside a transaction stay on the writer and see its own writes. A database in memory has
 * no second connection: there everything waits its turn on the one.
 */

/** Statements kept per SQLite connection; past it the least recently used one goes. */
const statementCacheSize = 500

/**
 * Kysely has better-sqlite3 prepare (parse and plan) every statement it runs, which cost a list
 * page about as much as running it; a statement is kept by its SQL text instead. SQLite prepares a
 * kept one again by itself when the schema changes (a new index, ANALYZE). One still iterating is
 * never handed out twice.
 */
class KeptStatements {
  private readonly kept = new Map<string, SQLite.Statement>()

  constructor(readonly db: SQLite.Database) {}

  prepare(sql: string): SQLite.Statement {
    const hit = this.kept.get(sql)
    this.kept.delete(sql)
    const stmt = hit && !hit.busy ? hit : this.db.prepare(sql)
    this.kept.set(sql, stmt)
    if (this.kept.size > statementCacheSize) this.kept.delete(this.kept.keys().next().value!)
    return stmt
  }
}

const mayRead = /^\s*(select|with)\b/i

function run(stmt: SQLite.Statement, parameters: readonly unknown[]): QueryResult<unknown> {
  if (stmt.reader) return { rows: stmt.all(parameters) }
  const { changes, lastInsertRowid } = stmt.run(parameters)
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
}

/** Callers wait here for the writer, in turn. */
class Turn {
  private tail: Promise<void> = Promise.resolve()

  async take(): Promise<() => void> {
    let release!: () => void
    const mine = new Promise<void>((resolve) => (release = resolve))
    const before = this.tail
    this.tail = before.then(() => mine)
    await before
    return release
  }
}

/** What Kysely holds for a query, a `connection()` or a transaction: it has the writer only within a transaction. */
class Lease implements DatabaseConnection {
  /** Set while this lease holds the writer (from begin to commit or rollback). */
  release: (() => void) | null = null

  constructor(private readonly driver: TwoConnectionDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, query) as Promise<QueryResult<R>>
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not offered on SQLite: read in pages')
  }
}

/**
 * better-sqlite3 answers at once, so a run of awaited queries (an upload's batches, a dictionary
 * import's layers) is one chain of promises that keeps every other request out of the event loop
 * until it ends. A chain that has gone this long without the loop turning waits for a turn.
 */
const turnEveryMs = 20

class TwoConnectionDriver implements Driver {
  private readonly turn = new Turn()
  /** When the current chain of queries began; `turned`: the event loop has turned since the last query. */
  private chainStart = 0
  private turned = true
  private readonly writer: KeptStatements
  private readonly reader: KeptStatements | null

  constructor(connections: SqliteConnections) {
    this.writer = new KeptStatements(connections.writer)
    this.reader = connections.reader ? new KeptStatements(connections.reader) : null
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(new Lease(this))
  }

  private async letOthersIn(): Promise<void> {
    if (this.turned) {
      // A chain begins; a callback of the loop's next turn tells the chain's later queries it has turned.
      this.turned = false
      this.chainStart = performance.now()
      setImmediate(() => (this.turned = true))
      return
    }
    if (performance.now() - this.chainStart < turnEveryMs) return
    // Whoever runs in the turn (a request just come in) starts with a whole slice of its own.
    this.chainStart = performance.now()
    await nextTurn()
  }

  async execute(lease: Lease, { sql, parameters }: CompiledQuery): Promise<QueryResult<unknown>> {
    await this.letOthersIn()
    if (lease.release) return run(this.writer.prepare(sql), parameters)
    if (this.reader && mayRead.test(sql)) {
      const stmt = this.reader.prepare(sql)
      if (stmt.readonly) return run(stmt, parameters)
    }
    return this.inTurn(() => run(this.writer.prepare(sql), parameters))
  }

  /** fn on the reader at once; without one, on the writer in its turn. */
  async read<T>(fn: () => T): Promise<T> {
    await this.letOthersIn()
    return this.reader ? fn() : this.inTurn(fn)
  }

  /** fn on the writer once no one else holds it, outside any transaction. */
  private async inTurn<T>(fn: () => T): Promise<T> {
    const release = await this.turn.take()
    try {
      return fn()
    } finally {
      release()
    }
  }

  readHandle(): SQLite.Database {
    return (this.reader ?? this.writer).db
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    const release = await this.turn.take()
    try {
      this.writer.db.exec('begin')
    } catch (err) {
      release()
      throw err
    }
    lease.release = release
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    // A failed commit keeps the writer held: Kysely rolls back next.
    this.writer.db.exec('commit')
    this.let(connection as Lease)
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    if (!lease.release) return
    try {
      // SQLite ends a transaction by itself on some errors (a full disk): nothing is left to roll back then.
      if (this.writer.db.inTransaction) this.writer.db.exec('rollback')
    } finally {
      this.let(lease)
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    // Only a transaction whose begin, commit and rollback all failed could still hold the writer.
    if (lease.release && this.writer.db.inTransaction) this.writer.db.exec('rollback')
    this.let(lease)
  }

  private let(lease: Lease) {
    lease.release?.()
    lease.release = null
  }

  async destroy(): Promise<void> {
    this.reader?.db.close()
    this.writer.db.close()
  }
}

export interface SqliteConnections {
  writer: SQLite.Database
  /** A second connection to the same file, query_only; null for a database in memory. */
  reader: SQLite.Database | null
}

/** The dialect: Kysely's SQLite one (its compiler, adapter, introspector) with the driver above. */
export class TwoConnectionSqliteDialect extends SqliteDialect {
  readonly driver: TwoConnectionDriver

  constructor(connections: SqliteConnections) {
    // The database given to Kysely's own driver is never opened through it: createDriver is ours.
    super({ database: connections.writer })
    this.driver = new TwoConnectionDriver(connections)
  }

  override createDriver(): Driver {
    return this.driver
  }
}

/** Raw reads beside Kysely: the handle to prepare them on, and where to run them (see TwoConnectionDriver.read). */
export interface RawReads {
  handle: SQLite.Database
  run<T>(fn: () => T): Promise<T>
}

export const rawReadsOf = (dialect: TwoConnectionSqliteDialect): RawReads => ({
  handle: dialect.driver.readHandle(),
  run: (fn) => dialect.driver.read(fn),
})
