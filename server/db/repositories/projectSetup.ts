import { sql } from 'kysely'
import type { FormPin, QueueInput } from '../../../contract/projects.ts'
import type { Q } from '../query.ts'
import { scopeConditions, type ListScope } from '../scope.ts'
import type { ProjectQueue } from '../tables/project.ts'

/** The parts of a project its edit tabs set one at a time: queues, centers, pinned forms. */

/** Every write to a part of the project is a change of the project; the update also locks its row. */
export async function touchProject(db: Q, id: number, now: string): Promise<void> {
  await db.updateTable('project').set({ updated_at: now }).where('id', '=', id).execute()
}

// --- Queues ----------------------------------------------------------------------------------

export interface QueueWithCount extends ProjectQueue {
  subject_count: number
}

/**
 * One queue of the project with its research objects, counted within `scope` (the caller's queues
 * and centers): a member of center A is not told how many subjects center B put in the queue.
 */
export async function findQueueWithCount(db: Q, projectId: number, queueId: number, scope: ListScope): Promise<QueueWithCount | undefined> {
  const row = await db
    .selectFrom('project_queue as x')
    .selectAll('x')
    .select((eb) =>
      eb
        .selectFrom('subject as s')
        .whereRef('s.queue_id', '=', 'x.id')
        .where((e) => e.and(scopeConditions(scope, { project: 's.project_id', queue: 's.queue_id', center: 's.center_id' })))
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .as('subject_count'),
    )
    .where('x.project_id', '=', projectId)
    .where('x.id', '=', queueId)
    .executeTakeFirst()
  return row && { ...row, subject_count: Number(row.subject_count ?? 0) }
}

/** The project's queue holding `key` in any case. */
export function findQueueByKey(db: Q, projectId: number, key: string): Promise<ProjectQueue | undefined> {
  return db
    .selectFrom('project_queue')
    .selectAll()
    .where('project_id', '=', projectId)
    .where(sql<string>`lower(key)`, '=', sql<string>`lower(${key})`)
    .executeTakeFirst()
}

export async function countSubjectsInQueue(db: Q, queueId: number): Promise<number> {
  const row = await db
    .selectFrom('subject')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('queue_id', '=', queueId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** A new queue goes last. */
export async function insertQueue(db: Q, projectId: number, q: QueueInput): Promise<number> {
  const last = await db
    .selectFrom('project_queue')
    .select((eb) => eb.fn.max('sort').as('m'))
    .where('project_id', '=', projectId)
    .executeTakeFirst()
  const sort = last?.m == null ? 0 : Number(last.m) + 1
  const row = await db
    .insertInto('project_queue')
    .values({
      project_id: projectId,
      name: q.name,
      key: q.key,
      entry_condition: q.entryCondition,
      exclude_condition: q.excludeCondition,
      sort,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateQueueRow(db: Q, queueId: number, q: QueueInput): Promise<void> {
  await db
    .updateTable('project_queue')
    .set({ name: q.name, key: q.key, entry_condition: q.entryCondition, exclude_condition: q.excludeCondition })
    .where('id', '=', queueId)
    .execute()
}

/** Project roles' grants of the queue go with it (project_role_queue cascades). */
export async function deleteQueueRow(db: Q, queueId: number): Promise<void> {
  await db.deleteFrom('project_queue').where('id', '=', queueId).execute()
}

// --- Centers ---------------------------------------------------------------------------------

export interface ProjectCenterRow {
  id: number
  code: string
  name_zh: string
  name_en: string
  region: string
  sort: number
  subject_count: number
}

/** The project's centers in order with their research objects, within `scope`. */
export async function listCentersOf(db: Q, projectId: number, scope: ListScope): Promise<ProjectCenterRow[]> {
  const rows = await db
    .selectFrom('project_center as x')
    .innerJoin('center as c', 'c.id', 'x.center_id')
    .select(['c.id', 'c.code', 'c.name_zh', 'c.name_en', 'c.region', 'x.sort'])
    .select((eb) =>
      eb
        .selectFrom('subject as s')
        .whereRef('s.project_id', '=', 'x.project_id')
        .whereRef('s.center_id', '=', 'x.center_id')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .as('subject_count'),
    )
    .where((eb) =>
      eb.and([eb('x.project_id', '=', projectId), ...scopeConditions(scope, { project: 'x.project_id', center: 'x.center_id' })]),
    )
    .orderBy('x.sort')
    .orderBy('c.id')
    .execute()
  return rows.map((r) => ({ ...r, subject_count: Number(r.subject_count ?? 0) }))
}

/**
 * Makes `ids` the project's centers in that order. A removed center also leaves the project's
 * roles that were limited to it.
 */
export async function replaceProjectCenters(db: Q, projectId: number, ids: readonly number[]): Promise<void> {
  const current = new Set(
    (await db.selectFrom('project_center').select('center_id').where('project_id', '=', projectId).execute()).map((r) => r.center_id),
  )
  const removed = [...current].filter((id) => !ids.includes(id))
  if (removed.length > 0) {
    await db.deleteFrom('project_center').where('project_id', '=', projectId).where('center_id', 'in', removed).execute()
    await db
      .deleteFrom('project_role_center')
      .where('center_id', 'in', removed)
      .where('role_id', 'in', (eb) => eb.selectFrom('project_role').select('id').where('project_id', '=', projectId))
      .execute()
  }
  for (const [sort, id] of ids.entries()) {
    if (current.has(id)) {
      await db.updateTable('project_center').set({ sort }).where('project_id', '=', projectId).where('center_id', '=', id).execute()
    } else {
      await db.insertInto('project_center').values({ project_id: projectId, center_id: id, sort }).execute()
    }
  }
}

// --- Pinned forms ----------------------------------------------------------------------------

export function pinsOf(db: Q, projectId: number): Promise<{ template_id: number; version_id: number }[]> {
  return db.selectFrom('project_form').select(['template_id', 'version_id']).where('project_id', '=', projectId).execute()
}

/** What still uses pinned templates about to be removed: the first visit collecting one, and the entered forms of each. */
export async function usesOfPins(db: Q, projectId: number, templateIds: readonly number[]) {
  if (templateIds.length === 0) return { visit: undefined, records: [] }
  const visit = await db
    .selectFrom('visit_form as vf')
    .innerJoin('visit as v', 'v.id', 'vf.visit_id')
    .innerJoin('template as t', 't.id', 'vf.template_id')
    .select(['v.name as visit', 't.name as template'])
    .where('v.project_id', '=', projectId)
    .where('vf.template_id', 'in', templateIds)
    .orderBy('v.day_offset')
    .orderBy('v.id')
    .executeTakeFirst()
  const records = await db
    .selectFrom('form_record as r')
    .innerJoin('template as t', 't.id', 'r.template_id')
    .select(['t.name as template', (eb) => eb.fn.countAll<number>().as('n')])
    .where('r.project_id', '=', projectId)
    .where('r.template_id', 'in', templateIds)
    .groupBy('t.name')
    .execute()
  return { visit, records }
}

/** Makes `pins` the project's forms in that order; kept pins keep their version (the caller checked). */
export async function replaceProjectForms(db: Q, projectId: number, pins: readonly FormPin[]): Promise<void> {
  const current = new Set((await pinsOf(db, projectId)).map((r) => r.template_id))
  const removed = [...current].filter((id) => !pins.some((p) => p.templateId === id))
  if (removed.length > 0) {
    await db.deleteFrom('project_form').where('project_id', '=', projectId).where('template_id', 'in', removed).execute()
  }
  for (const [sort, p] of pins.entries()) {
    if (current.has(p.templateId)) {
      await db
        .updateTable('project_form')
        .set({ sort })
        .where('project_id', '=', projectId)
        .where('template_id', '=', p.templateId)
        .execute()
    } else {
      await db
        .insertInto('project_form')
        .values({ project_id: projectId, template_id: p.templateId, version_id: p.versionId, sort })
        .execute()
    }
  }
}

export async function setPinVersion(db: Q, projectId: number, templateId: number, versionId: number): Promise<void> {
  await db
    .updateTable('project_form')
    .set({ version_id: versionId })
    .where('project_id', '=', projectId)
    .where('template_id', '=', templateId)
    .execute()
}
