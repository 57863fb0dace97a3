import type { Q } from '../query.ts'
import type { Allocation, ProjectGroup, RandomizationPlan } from '../tables/project.ts'
import type { IndicatorRow } from '../tables/dictionary.ts'

/** A project's randomization plan, its groups and its allocation list. */

export function planOf(db: Q, projectId: number): Promise<RandomizationPlan | undefined> {
  return db.selectFrom('randomization_plan').where('project_id', '=', projectId).selectAll().executeTakeFirst()
}

export function groupsOf(db: Q, projectId: number): Promise<ProjectGroup[]> {
  return db.selectFrom('project_group').where('project_id', '=', projectId).selectAll().orderBy('sort').orderBy('id').execute()
}

/** The project's centers in their order. */
export async function centerIdsOf(db: Q, projectId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('project_center')
    .where('project_id', '=', projectId)
    .select('center_id')
    .orderBy('sort')
    .orderBy('center_id')
    .execute()
  return rows.map((r) => r.center_id)
}

export function indicatorsByIds(
  db: Q,
  ids: readonly number[],
): Promise<Pick<IndicatorRow, 'id' | 'code' | 'name_zh' | 'name_en' | 'type' | 'options'>[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('indicator')
    .where('id', 'in', [...ids])
    .select(['id', 'code', 'name_zh', 'name_en', 'type', 'options'])
    .execute()
}

export interface PlanRow {
  method: string
  seed: string
  block_sizes: string
  strata_by_center: number
  factors: string
  list_size: number
}

/** Replaces the plan and its groups; the list goes first (its entries name the groups). */
export async function replacePlan(
  db: Q,
  projectId: number,
  plan: PlanRow,
  groups: readonly { code: string; name: string; ratio: number }[],
  now: string,
): Promise<void> {
  await db.deleteFrom('allocation').where('project_id', '=', projectId).execute()
  await db.deleteFrom('project_group').where('project_id', '=', projectId).execute()
  await db.deleteFrom('randomization_plan').where('project_id', '=', projectId).execute()
  await db
    .insertInto('randomization_plan')
    .values({ project_id: projectId, ...plan, generated_at: null, updated_at: now })
    .execute()
  if (groups.length > 0) {
    await db
      .insertInto('project_group')
      .values(groups.map((g, sort) => ({ project_id: projectId, code: g.code, name: g.name, ratio: g.ratio, sort })))
      .execute()
  }
  // The project's own random method follows the plan: lists filter on it.
  await db.updateTable('project').set({ random_method: plan.method, updated_at: now }).where('id', '=', projectId).execute()
}

/** Entries already given to a subject. */
export async function allocatedCount(db: Q, projectId: number): Promise<number> {
  const row = await db
    .selectFrom('allocation')
    .where('project_id', '=', projectId)
    .where('subject_id', 'is not', null)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

export interface StratumCount {
  stratum: string
  entries: number
  allocated: number
}

export async function stratumCounts(db: Q, projectId: number): Promise<StratumCount[]> {
  const rows = await db
    .selectFrom('allocation')
    .where('project_id', '=', projectId)
    .groupBy('stratum')
    .select((eb) => [
      'stratum',
      eb.fn.countAll<string | number>().as('entries'),
      eb.fn.count<string | number>('subject_id').as('allocated'),
    ])
    .execute()
  return rows.map((r) => ({ stratum: r.stratum, entries: Number(r.entries), allocated: Number(r.allocated) }))
}

export type NewEntry = Pick<Allocation, 'stratum' | 'seq' | 'block' | 'block_size' | 'group_id'>

/** Multi-row inserts stay well below SQLite's and PostgreSQL's parameter limits. */
const chunk = 500

export async function replaceList(db: Q, projectId: number, entries: readonly NewEntry[], now: string): Promise<void> {
  await db.deleteFrom('allocation').where('project_id', '=', projectId).execute()
  for (let i = 0; i < entries.length; i += chunk) {
    await db
      .insertInto('allocation')
      .values(entries.slice(i, i + chunk).map((e) => ({ ...e, project_id: projectId, subject_id: null, allocated_at: null })))
      .execute()
  }
  await db.updateTable('randomization_plan').set({ generated_at: now, updated_at: now }).where('project_id', '=', projectId).execute()
}

export interface AllocationListRow {
  id: number
  stratum: string
  seq: number
  block: number
  block_size: number
  group_code: string
  group_name: string
  subject_id: number | null
  subject_no: string | null
  center_id: number | null
  queue_id: number | null
  allocated_at: string | null
}

export interface AllocationPageQuery {
  projectId: number
  stratum: string | undefined
  /** The last row of the previous page: (stratum, seq). */
  after: [string, number] | null
  limit: number
}

/** One keyset page in (stratum, seq) order, which the unique (project_id, stratum, seq) index serves. */
export function allocationPageRows(db: Q, p: AllocationPageQuery): Promise<AllocationListRow[]> {
  let q = db
    .selectFrom('allocation as a')
    .innerJoin('project_group as g', 'g.id', 'a.group_id')
    .leftJoin('subject as s', 's.id', 'a.subject_id')
    .where('a.project_id', '=', p.projectId)
  if (p.stratum !== undefined) q = q.where('a.stratum', '=', p.stratum)
  const after = p.after
  if (after) {
    q = q.where((eb) => eb.or([eb('a.stratum', '>', after[0]), eb.and([eb('a.stratum', '=', after[0]), eb('a.seq', '>', after[1])])]))
  }
  return q
    .select([
      'a.id',
      'a.stratum',
      'a.seq',
      'a.block',
      'a.block_size',
      'g.code as group_code',
      'g.name as group_name',
      'a.subject_id',
      's.subject_no',
      's.center_id',
      's.queue_id',
      'a.allocated_at',
    ])
    .orderBy('a.stratum')
    .orderBy('a.seq')
    .limit(p.limit)
    .execute()
}

export async function allocationTotal(db: Q, projectId: number, stratum: string | undefined): Promise<number> {
  let q = db.selectFrom('allocation').where('project_id', '=', projectId)
  if (stratum !== undefined) q = q.where('stratum', '=', stratum)
  const row = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst()
  return Number(row?.n ?? 0)
}

/** The first free entry of a stratum. */
export function nextFreeEntry(db: Q, projectId: number, stratum: string): Promise<Pick<Allocation, 'id' | 'group_id'> | undefined> {
  return db
    .selectFrom('allocation')
    .where('project_id', '=', projectId)
    .where('stratum', '=', stratum)
    .where('subject_id', 'is', null)
    .select(['id', 'group_id'])
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst()
}

/** Gives the entry to the subject unless another call took it first; true when this one did. */
export async function takeEntry(db: Q, id: number, subjectId: number, now: string): Promise<boolean> {
  const r = await db
    .updateTable('allocation')
    .set({ subject_id: subjectId, allocated_at: now })
    .where('id', '=', id)
    .where('subject_id', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}
