import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { auditPageQuery, type AuditFilter } from '../../server/db/repositories/audit.ts'
import { explain, type Plan } from '../support/explain.ts'
import { freshDb } from '../support/testDb.ts'

/**
 * Every page of the audit log viewer is read from an index in (at desc, id desc) order (migration
 * 0013): with no filter and with each equality filter, first page and a page behind a cursor, the
 * plan the database makes for the exact SQL the repository runs has no sort step (DESIGN §8). The
 * log holds 20,000 rows spread like real ones, with statistics gathered, so the planners choose as
 * they would in use.
 */

const rows = 20_000
let db: Awaited<ReturnType<typeof freshDb>>

beforeAll(async () => {
  db = await freshDb()
  const actions = ['auth.login', 'auth.logout', 'indicator.update', 'indicator.create', 'template.layout', 'disease.update']
  const batch = 500
  for (let start = 0; start < rows; start += batch) {
    await db.kysely
      .insertInto('audit_log')
      .values(
        Array.from({ length: batch }, (_, k) => {
          const i = start + k
          const h = (i * 2654435761) >>> 0
          const user = h % 50
          return {
            // Several rows per second, as a busy day has them: ties in `at` are broken by id.
            at: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 1000).toISOString(),
            user_id: user + 1,
            username: `user${user}`,
            ip: `10.0.${user % 7}.${user}`,
            action: actions[h % actions.length]!,
            outcome: h % 20 === 0 ? 'denied' : 'ok',
            detail: '{}',
            object_type: h % 3 === 0 ? null : 'indicator',
            object_id: h % 3 === 0 ? null : (h % 100) + 1,
          }
        }),
      )
      .execute()
  }
  await sql.raw(db.dialect === 'postgres' ? 'VACUUM ANALYZE audit_log' : 'ANALYZE').execute(db.kysely)
}, 120_000)
afterAll(() => db.drop())

const show = (p: Plan) => p.lines.join(' | ')

/** Each filter people use alone (and none), with the index that serves its pages. */
const filters: Record<string, { filter: AuditFilter; index: string }> = {
  none: { filter: {}, index: 'audit_log_at_idx' },
  userId: { filter: { userId: 7 }, index: 'audit_log_user_at_idx' },
  username: { filter: { username: { exact: 'user7' } }, index: 'audit_log_username_idx' },
  action: { filter: { action: { exact: 'indicator.update' } }, index: 'audit_log_action_idx' },
  object: { filter: { objectType: 'indicator', objectId: 17 }, index: 'audit_log_object_idx' },
  ip: { filter: { ip: { exact: '10.0.0.7' } }, index: 'audit_log_ip_idx' },
  timeRange: { filter: { from: '2026-01-01T01:00:00.000Z', to: '2026-01-01T03:00:00.000Z' }, index: 'audit_log_at_idx' },
}

describe('audit log pages', () => {
  for (const [name, { filter, index }] of Object.entries(filters)) {
    it(`filter ${name}: first and deep pages read an index in order (${index})`, async () => {
      const all = await auditPageQuery(db.kysely, filter, null, rows).execute()
      expect(all.length, name).toBeGreaterThan(50)
      const mid = all[Math.floor(all.length / 2)]!
      for (const after of [null, [mid.at, mid.id] as const]) {
        const plan = await explain(db, auditPageQuery(db.kysely, filter, after, 51).compile())
        expect(plan.sorts, show(plan)).toEqual([])
        // Where a filter matches a large share (an action of six), walking the time index and
        // testing each row is as good, and PostgreSQL may choose it: no sort either way.
        expect([index, 'audit_log_at_idx'], show(plan)).toContain(plan.indexes[0])
      }
    })
  }

  it('a combined filter can read one filter index in order', async () => {
    for (const filter of [
      { userId: 7, action: { exact: 'auth.login' } },
      { objectType: 'indicator', objectId: 17, outcome: 'ok' },
      { action: { exact: 'indicator.update' }, from: '2026-01-01T01:00:00.000Z' },
    ] satisfies AuditFilter[]) {
      const plan = await explain(db, auditPageQuery(db.kysely, filter, null, 51).compile(), { sortFreeIfAny: true })
      expect(plan.sorts, `${JSON.stringify(filter)}: ${show(plan)}`).toEqual([])
    }
  })
})
