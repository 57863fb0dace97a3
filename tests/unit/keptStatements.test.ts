import { afterEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { connect, type Db } from '../../server/db/connect.ts'

/** SQLite statements are kept by their SQL (server/db/connect.ts): the same text must follow schema changes. */
let db: Db | undefined
afterEach(() => db?.close())

describe('kept SQLite statements', () => {
  it('answer new columns, use a new index and read a table made again under the same name', async () => {
    db = connect('sqlite::memory:')
    const k = db.kysely
    const all = async () => (await sql<Record<string, unknown>>`SELECT * FROM t`.execute(k)).rows
    const plan = async () =>
      (await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT a FROM t WHERE a = ${1}`.execute(k)).rows.map((r) => r.detail).join()
    await sql`CREATE TABLE t (a integer)`.execute(k)
    await sql`INSERT INTO t VALUES (1)`.execute(k)
    expect(await all()).toEqual([{ a: 1 }])
    expect(await plan()).toBe('SCAN t')
    await sql`ALTER TABLE t ADD COLUMN b text DEFAULT 'x'`.execute(k)
    await sql`CREATE INDEX t_a ON t (a)`.execute(k)
    expect(await all()).toEqual([{ a: 1, b: 'x' }])
    expect(await plan()).toContain('USING COVERING INDEX t_a')
    await sql`DROP TABLE t`.execute(k)
    await sql`CREATE TABLE t (z integer)`.execute(k)
    await sql`INSERT INTO t VALUES (5)`.execute(k)
    expect(await all()).toEqual([{ z: 5 }])
  })

  it('run one text with different parameters and inside a transaction, each answer its own', async () => {
    db = connect('sqlite::memory:')
    const k = db.kysely
    await sql`CREATE TABLE n (v integer)`.execute(k)
    for (const v of [1, 2, 3]) await sql`INSERT INTO n VALUES (${v})`.execute(k)
    const over = async (q: typeof k, v: number) => (await sql<{ v: number }>`SELECT v FROM n WHERE v > ${v} ORDER BY v`.execute(q)).rows
    expect(await over(k, 0)).toEqual([{ v: 1 }, { v: 2 }, { v: 3 }])
    expect(await over(k, 2)).toEqual([{ v: 3 }])
    await k.transaction().execute(async (trx) => {
      await sql`DELETE FROM n WHERE v = ${3}`.execute(trx)
      expect(await over(trx, 1)).toEqual([{ v: 2 }])
    })
    expect(await over(k, 1)).toEqual([{ v: 2 }])
  })
})
