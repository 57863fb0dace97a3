import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { sql } from 'kysely'
import SQLite from 'better-sqlite3'
import { startCheckpointer } from '../../server/db/checkpointer.ts'
import { connect, sqliteHandle, type Db } from '../../server/db/connect.ts'

/** SQLite's WAL is copied back by a thread of its own (server/db/checkpointer.ts), never by the commit. */
let db: Db | undefined
let dir: string | undefined
afterEach(async () => {
  await db?.close()
  db = undefined
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0)

describe('the SQLite checkpointer', () => {
  it(
    'copies a large commit into the database file after the commit, not in it, and the WAL starts over small',
    { timeout: 30_000 },
    async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-checkpoint-'))
      const file = path.join(dir, 'c.db')
      db = connect(`sqlite:${file}`)
      const k = db.kysely
      expect(sqliteHandle(k)!.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
      await sql`CREATE TABLE t (id integer primary key, body text)`.execute(k)
      await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
      INSERT INTO t (body) SELECT printf('%.2000c', 'x') FROM n`.execute(k)
      // Committed: 20 MB sit in the WAL, which the commit left for the thread.
      expect(size(`${file}-wal`)).toBeGreaterThan(15e6)
      expect(size(file)).toBeLessThan(1e6)
      await vi.waitFor(() => expect(size(file)).toBeGreaterThan(15e6), { timeout: 10_000, interval: 50 })
      // Once all is copied, a write starts the WAL over, cut back to its new frames.
      let more = 0
      await vi.waitFor(
        async () => {
          await sql`INSERT INTO t (body) VALUES ('y')`.execute(k)
          more++
          expect(size(`${file}-wal`)).toBeLessThan(1e6)
        },
        { timeout: 10_000, interval: 50 },
      )
      expect((await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(k)).rows[0]!.n).toBe(10_000 + more)
    },
  )

  it('stops with the connection: the WAL is folded in and removed, and the data reads back', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-checkpoint-'))
    const file = path.join(dir, 'c.db')
    db = connect(`sqlite:${file}`)
    await sql`CREATE TABLE t (a integer)`.execute(db.kysely)
    await sql`INSERT INTO t VALUES (7)`.execute(db.kysely)
    await db.close()
    expect(fs.existsSync(`${file}-wal`)).toBe(false)
    db = connect(`sqlite:${file}`)
    expect((await sql<{ a: number }>`SELECT a FROM t`.execute(db.kysely)).rows).toEqual([{ a: 7 }])
  })

  it('gives the checkpoint back to the connection when its thread cannot run', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const sqlite = new SQLite(':memory:')
    try {
      const cp = startCheckpointer(sqlite, path.join(os.tmpdir(), 'no-such-dir-crw', 'x.db'))
      expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
      await vi.waitFor(() => expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000), { timeout: 10_000 })
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('the checkpoint thread ended'))
      await cp.stop()
    } finally {
      sqlite.close()
      warn.mockRestore()
    }
  })
})
