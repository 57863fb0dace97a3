import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { toJson } from '../../server/db/json.ts'
import {
  ensureFieldIndex,
  subjectPage,
  subjectPageQuery,
  type KeyCondition,
  type ListKey,
  type SubjectPageQuery,
} from '../../server/db/repositories/subjectList.ts'
import type { ListScope } from '../../server/db/scope.ts'
import { explain, type Plan } from '../support/explain.ts'
import { freshDb } from '../support/testDb.ts'

/**
 * Every page of the subject list is read from an index in sort order (issue 10 item 1;
 * migration 0018 and the per-indicator indexes): for each sort key, both orders, scoped to one
 * center or to all, with and without a value filter, first page and a page behind a cursor, the
 * plan of the exact SQL the repository runs has no sort step. 30,000 subjects in three projects
 * and three centers, with statistics gathered, so the planners choose as in use.
 */

const rows = 30_000
const field = 7
let db: Awaited<ReturnType<typeof freshDb>>
let projectId = 0
let centerIds: number[] = []

beforeAll(async () => {
  db = await freshDb()
  const k = db.kysely
  const at = new Date().toISOString()
  centerIds = (
    await k
      .insertInto('center')
      .values(['A', 'B', 'C'].map((code) => ({ code, name_zh: code, name_en: code, created_at: at, updated_at: at })))
      .returning('id')
      .execute()
  ).map((r) => r.id)
  const projects: number[] = []
  for (let i = 0; i < 3; i++) {
    const p = await k
      .insertInto('project')
      .values({
        scope: 'multi',
        type: 'prospective',
        name: `P${i}`,
        number: `P${i}`,
        test_stage: null,
        group_type: 'group',
        disease_id: null,
        blinded: 'open',
        random_method: 'none',
        planned_quantity: rows,
        planned_groups: 2,
        status: 'active',
        creator_id: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    projects.push(p.id)
  }
  projectId = projects[1]!
  const queues: number[] = []
  for (const pid of projects) {
    const q = await k
      .insertInto('project_queue')
      .values({ project_id: pid, name: 'Q', key: 'Q', sort: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    queues.push(q.id)
  }
  const batch = 500
  for (let start = 0; start < rows; start += batch) {
    await k
      .insertInto('subject')
      .values(
        Array.from({ length: batch }, (_, j) => {
          const i = start + j
          const h = (i * 2654435761) >>> 0
          const p = i % 3
          return {
            project_id: projects[p]!,
            queue_id: queues[p]!,
            center_id: centerIds[h % 3]!,
            subject_no: `S${String(h).padStart(10, '0')}`,
            created_by: null,
            created_at: at,
            updated_at: new Date(Date.UTC(2026, 0, 1) + (h % 1e6) * 60_000).toISOString(),
            status: 'enrolled',
            enrolled_by: null,
            enrolled_at: i % 10 === 0 ? null : at,
            group_id: null,
            summary: toJson(i % 5 === 0 ? {} : { [`f${field}`]: String(h % 97), f8: 'x' }),
          }
        }),
      )
      .execute()
  }
  await ensureFieldIndex(k, field)
  await sql.raw(db.dialect === 'postgres' ? 'VACUUM ANALYZE subject' : 'ANALYZE').execute(k)
}, 180_000)
afterAll(() => db.drop())

const show = (p: Plan) => p.lines.join(' | ')
const keys: ListKey[] = [
  { kind: 'subjectNo' },
  { kind: 'center' },
  { kind: 'queue' },
  { kind: 'status' },
  { kind: 'group' },
  { kind: 'enrolledAt' },
  { kind: 'updatedAt' },
  { kind: 'field', indicatorId: field },
]
const scopes: Record<string, () => ListScope> = {
  whole: () => ({ kind: 'project', projectId, queueIds: null, centerIds: null }),
  oneCenter: () => ({ kind: 'project', projectId, queueIds: null, centerIds: [centerIds[0]!] }),
}
const filters: Record<string, KeyCondition[]> = {
  none: [],
  /** One value of 97 of an indexed column: the planner may read that value's rows and sort those few. */
  value: [{ key: { kind: 'field', indicatorId: field }, op: 'eq', value: '5' }],
  /** Most rows pass: only the order's index serves. */
  broad: [{ key: { kind: 'field', indicatorId: 8 }, op: 'notEmpty', value: '' }],
  /** A pattern PostgreSQL cannot estimate (it guesses few rows and may sort them): a plan without a sort must exist. */
  pattern: [{ key: { kind: 'field', indicatorId: 8 }, op: 'has', value: 'x' }],
}

describe('plans of the subject list', () => {
  for (const key of keys) {
    for (const [scopeName, scope] of Object.entries(scopes)) {
      for (const [filterName, conditions] of Object.entries(filters)) {
        it(`sort ${key.kind}, ${scopeName}, filter ${filterName}: both orders, first and later pages, no sort step`, async () => {
          for (const order of ['asc', 'desc'] as const) {
            const q: SubjectPageQuery = { scope: scope(), conditions, sort: key, order, after: null, limit: 51 }
            const { rows: first } = await subjectPageQuery(q).execute(db.kysely)
            expect(first.length).toBeGreaterThan(0)
            const last = first.at(-1)!
            for (const [after, part] of [
              [null, undefined],
              [[last.sort_value, last.id] as const, 'tie'],
              [[last.sort_value, last.id] as const, 'past'],
              // PostgreSQL's later pages are one statement over a row value (repositories/subjectList.ts).
              ...(db.dialect === 'postgres' ? ([[[last.sort_value, last.id] as const, 'row']] as const) : []),
            ] as const) {
              // A selective filter on an indexed column may rightly be read through its index and its
              // few rows sorted (so may the rows tied on one value): PostgreSQL must have a plan without
              // a sort; SQLite reads that index.
              const selective = filterName === 'value' || filterName === 'pattern'
              const plan = await explain(db, subjectPageQuery({ ...q, after, part }).compile(db.kysely), {
                sortFreeIfAny: selective || part === 'tie',
              })
              // The counters' total beside the rows is read through subject_tally's own key.
              const subjectIndexes = plan.indexes.filter((i) => !i.includes('subject_tally'))
              if (selective && db.dialect === 'sqlite' && plan.sorts.length > 0)
                expect(subjectIndexes, show(plan)).toEqual([`subject_f${field}_idx`])
              else expect(plan.sorts, show(plan)).toEqual([])
            }
          }
        })
      }
    }
  }

  it('pages in order: a keyset walk gives what a plain ORDER BY gives', async () => {
    const key: ListKey = { kind: 'field', indicatorId: field }
    const scope = scopes.oneCenter!()
    const { rows: all } = await subjectPageQuery({ scope, conditions: [], sort: key, order: 'asc', after: null, limit: rows }).execute(
      db.kysely,
    )
    const walked: number[] = []
    let after: readonly [string | number, number] | null = null
    for (;;) {
      const page: { id: number; sort_value: string | number }[] = await subjectPage(db.kysely, {
        scope,
        conditions: [],
        sort: key,
        order: 'asc',
        after,
        limit: 997,
      })
      walked.push(...page.map((r) => r.id))
      if (page.length < 997) break
      const last = page.at(-1)!
      after = [last.sort_value, last.id]
    }
    expect(walked).toEqual(all.map((r) => r.id))
  })
})
