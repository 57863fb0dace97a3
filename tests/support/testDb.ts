import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { connect, type Db } from '../../server/db/connect.ts'
import { migrateTo, type MigrationName } from '../../server/db/migrate.ts'

/**
 * A fresh database for one test file, migrated to the latest (or to `migratedTo`): a SQLite file in a temporary folder
 * (a file, as the server runs it: two connections, see server/db/sqliteDriver.ts), or a new database on the PostgreSQL
 * of TEST_DATABASE_URL when the project runs with TEST_DB=postgres.
 */
export async function freshDb(migratedTo?: MigrationName): Promise<Db & { drop(): Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-test-'))
    const db = connect(`sqlite:${path.join(dir, 'test.db')}`)
    await migrateTo(db, migratedTo)
    return {
      ...db,
      async drop() {
        await db.close()
        fs.rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL')
  const name = `t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const db = connect(url.toString())
  await migrateTo(db, migratedTo)
  return {
    ...db,
    async drop() {
      await db.close()
      const c = new pg.Client({ connectionString: adminUrl })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}
