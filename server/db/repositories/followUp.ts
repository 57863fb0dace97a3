import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { Q } from '../query.ts'
import { scopeConditions, type ListScope } from '../scope.ts'
import type { Visit } from '../tables/followUp.ts'
import { visitSlot } from '../../../contract/followUp.ts'

/** Follow-up (migration 0021): the visit schedule, the due and overdue lists, project progress. */

/** A project's visits in schedule order. */
export function visitsOf(db: Q, projectId: number): Promise<Visit[]> {
  return db
    .selectFrom('visit')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('day_offset')
    .orderBy('sort')
    .orderBy('id')
    .execute()
}

export function findVisit(db: Q, projectId: number, visitId: number): Promise<Visit | undefined> {
  return db.selectFrom('visit').selectAll().where('project_id', '=', projectId).where('id', '=', visitId).executeTakeFirst()
}

/** The CRFs of the project's visits, in each visit's order, with their names. */
export function visitFormsOf(db: Q, projectId: number) {
  return db
    .selectFrom('visit_form as vf')
    .innerJoin('visit as v', 'v.id', 'vf.visit_id')
    .innerJoin('template as t', 't.id', 'vf.template_id')
    .select(['vf.visit_id', 'vf.template_id', 't.name'])
    .where('v.project_id', '=', projectId)
    .orderBy('vf.visit_id')
    .orderBy('vf.sort')
    .execute()
}

/**
 * Form records entered per visit of the project, inside `scope` (the record carries its subject's
 * center and queue); `{ kind: 'all' }` counts every record, as a deletion's check must.
 */
export async function recordCountsByVisit(db: Q, projectId: number, scope: ListScope): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('form_record as r')
    .select(['r.visit_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where((eb) =>
      eb.and([
        eb('r.project_id', '=', projectId),
        eb('r.visit_id', 'is not', null),
        ...scopeConditions(scope, { project: 'r.project_id', queue: 'r.queue_id', center: 'r.center_id' }),
      ]),
    )
    .groupBy('r.visit_id')
    .execute()
  return new Map(rows.map((r) => [r.visit_id!, Number(r.n)]))
}

/** The project's pinned forms of collect type followUp, in project order. */
export function followUpFormsOf(db: Q, projectId: number) {
  return db
    .selectFrom('project_form as f')
    .innerJoin('template as t', 't.id', 'f.template_id')
    .select(['f.template_id', 't.name'])
    .where('f.project_id', '=', projectId)
    .where('t.collect_type', '=', 'followUp')
    .orderBy('f.sort')
    .orderBy('f.template_id')
    .execute()
}

/** Whether another visit of the project has this name, whatever its case. */
export async function visitNameTaken(db: Q, projectId: number, name: string, exceptId: number | null): Promise<boolean> {
  let q = db
    .selectFrom('visit')
    .select('id')
    .where('project_id', '=', projectId)
    .where(sql<string>`lower(name)`, '=', sql<string>`lower(${name})`)
  if (exceptId !== null) q = q.where('id', '<>', exceptId)
  return (await q.executeTakeFirst()) !== undefined
}

export async function countVisits(db: Q, projectId: number): Promise<number> {
  const r = await db
    .selectFrom('visit')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

export interface VisitValues {
  name: string
  dayOffset: number
  windowBefore: number
  windowAfter: number
}

export async function insertVisit(db: Q, projectId: number, v: VisitValues, now: string): Promise<number> {
  const last = await db
    .selectFrom('visit')
    .select((eb) => eb.fn.max('sort').as('m'))
    .where('project_id', '=', projectId)
    .executeTakeFirst()
  const row = await db
    .insertInto('visit')
    .values({
      project_id: projectId,
      name: v.name,
      day_offset: v.dayOffset,
      window_before: v.windowBefore,
      window_after: v.windowAfter,
      sort: Number(last?.m ?? -1) + 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateVisitRow(db: Q, visitId: number, v: VisitValues, now: string): Promise<void> {
  await db
    .updateTable('visit')
    .set({ name: v.name, day_offset: v.dayOffset, window_before: v.windowBefore, window_after: v.windowAfter, updated_at: now })
    .where('id', '=', visitId)
    .execute()
}

export async function replaceVisitForms(db: Q, visitId: number, templateIds: readonly number[]): Promise<void> {
  await db.deleteFrom('visit_form').where('visit_id', '=', visitId).execute()
  if (templateIds.length === 0) return
  await db
    .insertInto('visit_form')
    .values(templateIds.map((template_id, sort) => ({ visit_id: visitId, template_id, sort })))
    .execute()
}

export async function deleteVisitRow(db: Q, visitId: number): Promise<void> {
  await db.deleteFrom('visit_form').where('visit_id', '=', visitId).execute()
  await db.deleteFrom('visit').where('id', '=', visitId).execute()
}

/** A subject's visit records (slot 'v<visitId>'). */
export function visitRecordsOf(db: Q, subjectId: number) {
  return db
    .selectFrom('form_record')
    .select(['id', 'template_id', 'slot', 'status'])
    .where('subject_id', '=', subjectId)
    .where('slot', 'like', 'v%')
    .execute()
}

/**
 * One visit's slice of the due or overdue list: subjects of the scope enrolled between `from`
 * and `before` (ISO bounds on enrolled_at, `from` inclusive, `before` exclusive, either open)
 * with at least one of the visit's CRFs not entered, in (enrolled_at, id) order after `after`.
 */
export interface DueSlice {
  projectId: number
  scope: ListScope
  visitId: number
  from: string | null
  before: string | null
  centerId?: number
  queueId?: number
}

function dueConditions(s: DueSlice): Expression<SqlBool>[] {
  const slot = visitSlot(s.visitId)
  const out: Expression<SqlBool>[] = [
    sql<SqlBool>`s.project_id = ${s.projectId}`,
    sql<SqlBool>`s.enrolled_at is not null`,
    ...scopeConditions(s.scope, { project: 's.project_id', queue: 's.queue_id', center: 's.center_id' }),
    sql<SqlBool>`exists (select 1 from visit_form vf where vf.visit_id = ${s.visitId} and not exists (
      select 1 from form_record r where r.subject_id = s.id and r.template_id = vf.template_id and r.slot = ${slot}))`,
  ]
  if (s.from !== null) out.push(sql<SqlBool>`s.enrolled_at >= ${s.from}`)
  if (s.before !== null) out.push(sql<SqlBool>`s.enrolled_at < ${s.before}`)
  if (s.centerId !== undefined) out.push(sql<SqlBool>`s.center_id = ${s.centerId}`)
  if (s.queueId !== undefined) out.push(sql<SqlBool>`s.queue_id = ${s.queueId}`)
  return out
}

/** The page query of one visit's slice, in (enrolled_at, id) order: subject_enrolled_idx delivers that order. */
export function dueQuery(db: Q, s: DueSlice, after: readonly [string, number] | null, limit: number) {
  const slot = visitSlot(s.visitId)
  let q = db
    .selectFrom('subject as s')
    .innerJoin('center as c', 'c.id', 's.center_id')
    .innerJoin('project_queue as pq', 'pq.id', 's.queue_id')
    .select([
      's.id',
      's.subject_no',
      's.enrolled_at',
      's.center_id',
      'c.code as center_code',
      'c.name_zh as center_name_zh',
      'c.name_en as center_name_en',
      's.queue_id',
      'pq.name as queue_name',
      sql<number | string>`(select count(*) from visit_form vf where vf.visit_id = ${s.visitId} and not exists (
        select 1 from form_record r where r.subject_id = s.id and r.template_id = vf.template_id and r.slot = ${slot}))`.as('missing'),
    ])
    .where((eb) => eb.and(dueConditions(s)))
  if (after) q = q.where(sql<SqlBool>`(s.enrolled_at > ${after[0]} or (s.enrolled_at = ${after[0]} and s.id > ${after[1]}))`)
  return q.orderBy('s.enrolled_at').orderBy('s.id').limit(limit)
}

export function dueRows(db: Q, s: DueSlice, after: readonly [string, number] | null, limit: number) {
  return dueQuery(db, s, after, limit).execute()
}

export async function dueCount(db: Q, s: DueSlice): Promise<number> {
  const r = await db
    .selectFrom('subject as s')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => eb.and(dueConditions(s)))
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

const enrolledIn = (projectId: number, scope: ListScope): Expression<SqlBool>[] => [
  sql<SqlBool>`s.project_id = ${projectId}`,
  sql<SqlBool>`s.enrolled_at is not null`,
  ...scopeConditions(scope, { project: 's.project_id', queue: 's.queue_id', center: 's.center_id' }),
]

/** The first and last enrolment instants inside the scope; null without any. */
export async function enrolmentSpan(db: Q, projectId: number, scope: ListScope): Promise<{ first: string; last: string } | null> {
  const r = await db
    .selectFrom('subject as s')
    .select([sql<string | null>`min(s.enrolled_at)`.as('first'), sql<string | null>`max(s.enrolled_at)`.as('last')])
    .where((eb) => eb.and(enrolledIn(projectId, scope)))
    .executeTakeFirstOrThrow()
  return r.first !== null && r.last !== null ? { first: r.first, last: r.last } : null
}

/** A month of the configured zone and its first instant, written as enrolled_at is (ISO, UTC). */
export interface ZoneMonth {
  month: string
  start: string
}

/**
 * The month of enrolled_at among `months` (in order, the first holding every enrolment): a
 * comparison with the middle month's first instant halves the list, so a row costs a handful of
 * text comparisons however many months there are. The months are YYYY-MM made by our code.
 */
function monthOf(months: readonly ZoneMonth[], lo: number, hi: number): RawBuilder<string> {
  if (hi - lo === 1) return sql<string>`${sql.lit(months[lo]!.month)}`
  const mid = (lo + hi) >> 1
  return sql<string>`case when s.enrolled_at < ${months[mid]!.start} then ${monthOf(months, lo, mid)} else ${monthOf(months, mid, hi)} end`
}

/**
 * Enrolments per month, center and queue, inside the scope: months of the configured zone, not of
 * UTC (an enrolment at 07:00 in Beijing on the 1st is 23:00 UTC on the last day of the month
 * before). `months` covers every enrolment of the scope (`enrolmentSpan`).
 */
export async function enrolmentByMonth(db: Q, projectId: number, scope: ListScope, months: readonly ZoneMonth[]) {
  if (months.length === 0) return []
  const enrolments = db
    .selectFrom('subject as s')
    .select([monthOf(months, 0, months.length).as('month'), 's.center_id', 's.queue_id'])
    .where((eb) => eb.and(enrolledIn(projectId, scope)))
    .as('e')
  const rows = await db
    .selectFrom(enrolments)
    .select(['e.month', 'e.center_id', 'e.queue_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy(['e.month', 'e.center_id', 'e.queue_id'])
    .orderBy('e.month')
    .orderBy('e.center_id')
    .orderBy('e.queue_id')
    .execute()
  return rows.map((r) => ({ month: r.month, centerId: r.center_id, queueId: r.queue_id, count: Number(r.n) }))
}

/** How many subjects of the scope were enrolled before each of `instants` (ISO), in one pass. */
export async function enrolledBefore(db: Q, projectId: number, scope: ListScope, instants: readonly string[]): Promise<number[]> {
  if (instants.length === 0) return []
  const row = await db
    .selectFrom('subject as s')
    .select(instants.map((at, i) => sql<number | string>`count(case when s.enrolled_at < ${at} then 1 end)`.as(`n${i}`)))
    .where((eb) => eb.and(enrolledIn(projectId, scope)))
    .executeTakeFirstOrThrow()
  const counts = row as Record<string, number | string>
  return instants.map((_, i) => Number(counts[`n${i}`]))
}

/**
 * Form records per CRF and status, inside the scope (the record carries its subject's center and
 * queue). A visit's record counts only where `opened` says the visit's window has opened: its
 * subject was enrolled before the visit's instant there, as enrolledBefore counts the expected ones.
 */
export async function recordCountsByForm(db: Q, projectId: number, scope: ListScope, opened: ReadonlyMap<number, string>) {
  const cases = [...opened].map(([visitId, at]) => sql`when ${visitId} then ${at}`)
  const dueVisit =
    cases.length === 0
      ? sql<SqlBool>`r.visit_id is null`
      : sql<SqlBool>`(r.visit_id is null or exists (select 1 from subject s where s.id = r.subject_id
          and s.enrolled_at < case r.visit_id ${sql.join(cases, sql` `)} end))`
  const rows = await db
    .selectFrom('form_record as r')
    .select(['r.template_id', 'r.status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where((eb) =>
      eb.and([
        eb('r.project_id', '=', projectId),
        ...scopeConditions(scope, { project: 'r.project_id', queue: 'r.queue_id', center: 'r.center_id' }),
        dueVisit,
      ]),
    )
    .groupBy(['r.template_id', 'r.status'])
    .execute()
  return rows.map((r) => ({ templateId: r.template_id, status: r.status, count: Number(r.n) }))
}
