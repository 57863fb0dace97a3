import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { sampleSortKeys } from '../../contract/samples.ts'
import { samplePageQuery, sampleSortColumns } from '../../server/db/repositories/samples.ts'
import type { ListScope } from '../../server/db/scope.ts'
import { explain, type Plan } from '../support/explain.ts'
import { freshDb } from '../support/testDb.ts'

/**
 * The sample list's SQL (migration 0020): in every sort and order, for a project-wide caller and
 * for a member limited to some centers, first and deep pages are read from the (project, sort,
 * id) index in order, with no sort step; on the database of this run.
 */

const size = 3000
let db: Awaited<ReturnType<typeof freshDb>>
let projectId = 0

beforeAll(async () => {
  db = await freshDb()
  const at = new Date().toISOString()
  const k = db.kysely
  projectId = (
    await k
      .insertInto('project')
      .values({
        scope: 'multi',
        type: 'prospective',
        name: '样本计划',
        number: 'SP-1',
        group_type: 'group',
        blinded: 'open',
        random_method: 'none',
        planned_quantity: 10,
        planned_groups: 2,
        status: 'active',
        subject_count: 1,
        creator_id: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id
  // A second project holds half the samples, so the project condition matters to the plan.
  const otherId = (
    await k
      .insertInto('project')
      .values({
        scope: 'multi',
        type: 'prospective',
        name: '另一个',
        number: 'SP-2',
        group_type: 'group',
        blinded: 'open',
        random_method: 'none',
        planned_quantity: 10,
        planned_groups: 2,
        status: 'active',
        subject_count: 1,
        creator_id: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id
  const queue = await k
    .insertInto('project_queue')
    .values({ project_id: projectId, name: 'A', key: 'A' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const center = await k
    .insertInto('center')
    .values({ code: 'C1', name_zh: '中心', name_en: 'Center', created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  const subject = await k
    .insertInto('subject')
    .values({ project_id: projectId, queue_id: queue.id, center_id: center.id, subject_no: 'S-1', created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (let start = 0; start < size; start += 500) {
    await k
      .insertInto('sample')
      .values(
        Array.from({ length: 500 }, (_, j) => {
          const i = start + j
          const h = (i * 2654435761) >>> 0
          return {
            project_id: i % 2 === 0 ? projectId : otherId,
            subject_id: subject.id,
            center_id: 1 + (h % 5),
            queue_id: 1 + (h % 2),
            parent_id: null,
            root_id: null,
            sample_no: `N${String(h).padStart(10, '0')}`,
            type: 'serum',
            collected_at: `2026-${String(1 + (h % 12)).padStart(2, '0')}-${String(1 + (h % 28)).padStart(2, '0')}`,
            quantity: null,
            unit: null,
            freezer: '',
            rack: '',
            box: '',
            position: '',
            remarks: '',
            created_by: null,
            created_at: at,
            updated_by: null,
            updated_at: new Date(Date.UTC(2026, 0, 1) + (h % 1e6) * 60_000).toISOString(),
          }
        }),
      )
      .execute()
  }
  await sql.raw(db.dialect === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE').execute(k)
}, 120_000)
afterAll(() => db?.drop())

const show = (p: Plan) => p.lines.join(' | ')
const scopes: Record<string, () => ListScope> = {
  'project-wide': () => ({ kind: 'project', projectId, queueIds: null, centerIds: null }),
  'limited to two centers': () => ({ kind: 'project', projectId, queueIds: null, centerIds: [1, 2] }),
}
const indexOf = { sampleNo: 'sample_no_idx', collectedAt: 'sample_collected_idx', updated: 'sample_updated_idx' } as const

describe('plans of the sample list SQL', () => {
  for (const [who, scope] of Object.entries(scopes)) {
    for (const sort of sampleSortKeys) {
      for (const order of ['asc', 'desc'] as const) {
        it(`sort ${sort} ${order}, ${who}: first and deep pages from ${indexOf[sort]} in order, no sort`, async () => {
          for (const after of [null, ['N2000000000', 1500] as const]) {
            const q = samplePageQuery(db.kysely, {
              scope: scope(),
              filter: {},
              sort: sampleSortColumns[sort],
              order,
              after,
              limit: 51,
            }).compile()
            const plan = await explain(db, q)
            expect(plan.sorts, show(plan)).toEqual([])
            expect(plan.indexes, show(plan)).toContain(indexOf[sort])
          }
        })
      }
    }
  }
})
