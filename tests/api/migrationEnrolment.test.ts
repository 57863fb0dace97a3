/**
 * Migration 20261130_0016 (enrolment) goes down and up again on both databases: the subject's
 * added columns and the number sequence come and go, and the case-insensitive number index
 * with them.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateTo, migrateToLatest } from '../../server/db/migrate.ts'
import { freshDb } from '../support/testDb.ts'

let db: Awaited<ReturnType<typeof freshDb>>
beforeAll(async () => {
  db = await freshDb()
})
afterAll(() => db.drop())

const probe = async (query: ReturnType<typeof sql>) =>
  query.execute(db.kysely).then(
    () => true,
    () => false,
  )

describe('migration 0016 enrolment', () => {
  it('goes down to 0015 and up again', async () => {
    const added = sql`SELECT status, enrolled_by, enrolled_at, checklist, group_id FROM subject`
    const sequence = sql`SELECT project_id, center_id, last FROM subject_sequence`
    expect(await probe(added)).toBe(true)
    expect(await probe(sequence)).toBe(true)
    await migrateTo(db, '20261129_0015_projects')
    expect(await probe(added)).toBe(false)
    expect(await probe(sequence)).toBe(false)
    expect(await probe(sql`SELECT id, subject_no FROM subject`)).toBe(true)
    await migrateToLatest(db)
    expect(await probe(added)).toBe(true)
    expect(await probe(sequence)).toBe(true)
  })
})
