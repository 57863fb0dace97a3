import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sql, type Kysely } from 'kysely'
import { connect, sqliteReads, type Db } from '../../server/db/connect.ts'

/**
 * SQLite's two connections (server/db/sqliteDriver.ts): a read outside a transaction never waits
 * for one in progress, and sees only what was committed; writes take their turn on the one writer.
 * Each test would hang (and time out) on a single shared connection, where the read waits for the
 * very transaction that waits for it.
 */
let db: Db | undefined
let dir: string | undefined
afterEach(async () => {
  await db?.close()
  db = undefined
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

async function fileDb(): Promise<Kysely<never>> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-reader-'))
  db = connect(`sqlite:${path.join(dir, 'r.db')}`)
  const k = db.kysely as unknown as Kysely<never>
  await sql`CREATE TABLE t (id integer primary key, v text)`.execute(k)
  await sql`INSERT INTO t (v) VALUES ('committed')`.execute(k)
  return k
}

const values = async (k: Kysely<never>) => (await sql<{ v: string }>`SELECT v FROM t ORDER BY id`.execute(k)).rows.map((r) => r.v)

describe('SQLite reads beside a transaction', () => {
  it('a read outside the transaction answers at once with the committed rows; inside it, its own too', async () => {
    const k = await fileDb()
    await k.transaction().execute(async (tx) => {
      await sql`INSERT INTO t (v) VALUES ('pending')`.execute(tx)
      expect(await values(tx)).toEqual(['committed', 'pending'])
      // Another caller's read, while this transaction holds the writer.
      expect(await values(k)).toEqual(['committed'])
      const rows = await (k as unknown as Kysely<{ t: { id: number; v: string } }>).selectFrom('t').select('v').execute()
      expect(rows.map((r) => r.v)).toEqual(['committed'])
    })
    expect(await values(k)).toEqual(['committed', 'pending'])
  })

  it('a raw read of a download reads beside the transaction too', async () => {
    const k = await fileDb()
    const reads = sqliteReads(db!.kysely)!
    const stmt = reads.handle.prepare('SELECT v FROM t ORDER BY id').pluck()
    await k.transaction().execute(async (tx) => {
      await sql`INSERT INTO t (v) VALUES ('pending')`.execute(tx)
      expect(await reads.run(() => stmt.all())).toEqual(['committed'])
    })
    expect(await reads.run(() => stmt.all())).toEqual(['committed', 'pending'])
  })

  it('a write outside the transaction waits for it and is not part of it', async () => {
    const k = await fileDb()
    let outside: Promise<unknown> | undefined
    await expect(
      k.transaction().execute(async (tx) => {
        await sql`INSERT INTO t (v) VALUES ('rolled back')`.execute(tx)
        outside = sql`INSERT INTO t (v) VALUES ('outside')`.execute(k)
        // Its turn has not come: the transaction sees only its own row.
        await new Promise((resolve) => setImmediate(resolve))
        expect(await values(tx)).toEqual(['committed', 'rolled back'])
        throw new Error('taken back')
      }),
    ).rejects.toThrow('taken back')
    await outside
    expect(await values(k)).toEqual(['committed', 'outside'])
  })

  it('a statement that starts like a read but writes goes to the writer', async () => {
    const k = await fileDb()
    await sql`WITH n(v) AS (SELECT 'from a cte') INSERT INTO t (v) SELECT v FROM n`.execute(k)
    expect(await values(k)).toEqual(['committed', 'from a cte'])
  })

  it('a commit that fails is taken back and frees the writer for the next caller', async () => {
    const k = await fileDb()
    await sql`CREATE TABLE p (id integer primary key)`.execute(k)
    await sql`CREATE TABLE c (p_id integer REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED)`.execute(k)
    await expect(
      k.transaction().execute(async (tx) => {
        await sql`INSERT INTO c VALUES (42)`.execute(tx)
      }),
    ).rejects.toThrow(/FOREIGN KEY/)
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM c`.execute(k)).rows[0]!.n).toBe(0)
    await k.transaction().execute(async (tx) => {
      await sql`INSERT INTO p VALUES (42)`.execute(tx)
      await sql`INSERT INTO c VALUES (42)`.execute(tx)
    })
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM c`.execute(k)).rows[0]!.n).toBe(1)
  })

  it('a long run of queries lets other work in: a timer set before a transaction fires inside it', async () => {
    const k = await fileDb()
    let fired = false
    setImmediate(() => (fired = true))
    const firedInside = await k.transaction().execute(async (tx) => {
      // SQLite answers at once: without a turn of the event loop this loop runs its full two seconds.
      const until = performance.now() + 2000
      while (!fired && performance.now() < until) await sql`INSERT INTO t (v) VALUES ('more')`.execute(tx)
      return fired
    })
    expect(firedInside).toBe(true)
  })

  it('transactions run one after the other, never interleaved', async () => {
    const k = await fileDb()
    const order: string[] = []
    const one = (name: string) =>
      k.transaction().execute(async (tx) => {
        order.push(`${name} begins`)
        await sql`INSERT INTO t (v) VALUES (${name})`.execute(tx)
        await new Promise((resolve) => setImmediate(resolve))
        order.push(`${name} ends`)
      })
    await Promise.all([one('a'), one('b'), one('c')])
    expect(order).toEqual(['a begins', 'a ends', 'b begins', 'b ends', 'c begins', 'c ends'])
    expect(await values(k)).toEqual(['committed', 'a', 'b', 'c'])
  })
})
