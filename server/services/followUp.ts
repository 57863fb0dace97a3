import {
  addDays,
  followUpLimits,
  visitState,
  type DueListQuery,
  type DuePage,
  type DueRow,
  type ProgressView,
  type SubjectSchedule,
  type VisitInput,
  type VisitPlan,
  visitSlot,
} from '../../contract/followUp.ts'
import { idValue } from '../../contract/ids.ts'
import type { Q } from '../db/query.ts'
import * as repo from '../db/repositories/followUp.ts'
import { centersOf, findProjectById, formsOf, queuesOf } from '../db/repositories/projects.ts'
import { touchProject } from '../db/repositories/projectSetup.ts'
import type { Visit } from '../db/tables/followUp.ts'
import type { Actor } from './actor.ts'
import { audit, type Actor as AuditActor } from './audit.ts'
import { dayIn, monthsBetween, startOfDay } from './calendarDay.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { projectScope } from './policy.ts'
import { subjectFor } from './subjectAccess.ts'

/**
 * Follow-up management (issue 10 item 10): the visit schedule of a project, each subject's
 * planned visits, the due and overdue lists, and project progress. A visit is planned
 * `dayOffset` days after the subject's enrolment day and is done once each of its CRFs has a
 * record in slot 'v<visitId>'. Days are calendar days of the configured time zone (TIME_ZONE).
 */

const object = (id: number) => ({ type: 'project', id })
const today = (ctx: ServiceContext) => dayIn(ctx.now(), ctx.timeZone)

async function mustFindProject(db: Q, projectId: number) {
  const p = await findProjectById(db, projectId)
  if (!p) throw new ServiceError('notFound', 'project.notFound', [projectId])
  return p
}

export async function getVisitPlan(ctx: ServiceContext, actor: Actor, projectId: number): Promise<VisitPlan> {
  await mustFindProject(ctx.db, projectId)
  return planView(ctx.db, actor, projectId)
}

/**
 * The schedule as the actor may count it: each visit's records within the queues and centers of
 * their project role (a member of center A does not learn how far center B has got).
 */
async function planView(db: Q, actor: Actor, projectId: number): Promise<VisitPlan> {
  const [visits, forms, records, followUpForms] = await Promise.all([
    repo.visitsOf(db, projectId),
    repo.visitFormsOf(db, projectId),
    repo.recordCountsByVisit(db, projectId, projectScope(actor, 'project.read', projectId)),
    repo.followUpFormsOf(db, projectId),
  ])
  return {
    visits: visits.map((v) => ({
      id: v.id,
      name: v.name,
      dayOffset: v.day_offset,
      windowBefore: v.window_before,
      windowAfter: v.window_after,
      forms: forms.filter((f) => f.visit_id === v.id).map((f) => ({ templateId: f.template_id, name: f.name })),
      records: records.get(v.id) ?? 0,
    })),
    followUpForms: followUpForms.map((f) => ({ templateId: f.template_id, name: f.name })),
  }
}

/** The project row locked by its touch (PostgreSQL), so two schedule writes run one after the other; closed projects refuse. */
async function writable(db: Q, projectId: number, now: Date) {
  await touchProject(db, projectId, now.toISOString())
  const p = await mustFindProject(db, projectId)
  if (p.status === 'closed') throw new ServiceError('conflict', 'project.closed')
  return p
}

/** Each CRF once, each a pinned form of the project with collect type followUp. */
async function checkVisit(db: Q, projectId: number, v: VisitInput, exceptId: number | null): Promise<void> {
  const seen = new Set<number>()
  for (const id of v.templateIds) {
    if (seen.has(id)) throw new ServiceError('badRequest', 'visit.formTwice', [id])
    seen.add(id)
  }
  const allowed = new Set((await repo.followUpFormsOf(db, projectId)).map((f) => f.template_id))
  const wrong = v.templateIds.find((id) => !allowed.has(id))
  if (wrong !== undefined) throw new ServiceError('badRequest', 'visit.formNotFollowUp', [wrong])
  if (await repo.visitNameTaken(db, projectId, v.name, exceptId)) throw new ServiceError('conflict', 'visit.nameTaken', [v.name])
}

const detail = (v: VisitInput) => ({
  name: v.name,
  dayOffset: v.dayOffset,
  windowBefore: v.windowBefore,
  windowAfter: v.windowAfter,
  templateIds: v.templateIds,
})

export async function createVisit(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  v: VisitInput,
): Promise<VisitPlan> {
  const now = ctx.now()
  return ctx.db.transaction().execute(async (tx) => {
    await writable(tx, projectId, now)
    if ((await repo.countVisits(tx, projectId)) >= followUpLimits.visits) {
      throw new ServiceError('conflict', 'visit.limit', [followUpLimits.visits])
    }
    await checkVisit(tx, projectId, v, null)
    const visitId = await repo.insertVisit(tx, projectId, v, now.toISOString())
    await repo.replaceVisitForms(tx, visitId, v.templateIds)
    await audit(tx, who, 'project.visit.create', 'ok', now, { projectId, visitId, ...detail(v) }, object(projectId))
    return planView(tx, actor, projectId)
  })
}

async function mustFindVisit(db: Q, projectId: number, visitId: number): Promise<Visit> {
  const v = await repo.findVisit(db, projectId, visitId)
  if (!v) throw new ServiceError('notFound', 'visit.notFound', [visitId])
  return v
}

export async function updateVisit(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  visitId: number,
  v: VisitInput,
): Promise<VisitPlan> {
  const now = ctx.now()
  return ctx.db.transaction().execute(async (tx) => {
    await writable(tx, projectId, now)
    const before = await mustFindVisit(tx, projectId, visitId)
    await checkVisit(tx, projectId, v, visitId)
    await repo.updateVisitRow(tx, visitId, v, now.toISOString())
    await repo.replaceVisitForms(tx, visitId, v.templateIds)
    const was = { name: before.name, dayOffset: before.day_offset, windowBefore: before.window_before, windowAfter: before.window_after }
    await audit(tx, who, 'project.visit.update', 'ok', now, { projectId, visitId, before: was, ...detail(v) }, object(projectId))
    return planView(tx, actor, projectId)
  })
}

export async function deleteVisit(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  visitId: number,
): Promise<VisitPlan> {
  const now = ctx.now()
  return ctx.db.transaction().execute(async (tx) => {
    await writable(tx, projectId, now)
    const v = await mustFindVisit(tx, projectId, visitId)
    const records = (await repo.recordCountsByVisit(tx, projectId, { kind: 'all' })).get(visitId) ?? 0
    if (records > 0) throw new ServiceError('conflict', 'visit.hasRecords', [v.name, records])
    await repo.deleteVisitRow(tx, visitId)
    await audit(tx, who, 'project.visit.delete', 'ok', now, { projectId, visitId, name: v.name }, object(projectId))
    return planView(tx, actor, projectId)
  })
}

/** A visit's planned day and window for a subject enrolled on `enrolledDay`. */
function windowOf(v: Visit, enrolledDay: string) {
  const planned = addDays(enrolledDay, v.day_offset)
  return { planned, start: addDays(planned, -v.window_before), end: addDays(planned, v.window_after) }
}

export async function subjectSchedule(ctx: ServiceContext, actor: Actor, projectId: number, subjectId: number): Promise<SubjectSchedule> {
  const subject = await subjectFor(ctx.db, actor, 'subject.followUp', projectId, subjectId)
  const [visits, forms, records] = await Promise.all([
    repo.visitsOf(ctx.db, projectId),
    repo.visitFormsOf(ctx.db, projectId),
    repo.visitRecordsOf(ctx.db, subjectId),
  ])
  const now = today(ctx)
  const enrolledDay = subject.enrolled_at === null ? null : dayIn(subject.enrolled_at, ctx.timeZone)
  const bySlot = new Map(records.map((r) => [`${r.slot}:${r.template_id}`, r]))
  return {
    subjectId: subject.id,
    subjectNo: subject.subject_no,
    enrolledDay,
    today: now,
    visits:
      enrolledDay === null
        ? []
        : visits.map((v) => {
            const w = windowOf(v, enrolledDay)
            const its = forms
              .filter((f) => f.visit_id === v.id)
              .map((f) => {
                const r = bySlot.get(`${visitSlot(v.id)}:${f.template_id}`)
                return {
                  templateId: f.template_id,
                  name: f.name,
                  recordId: r?.id ?? null,
                  status: r ? (r.status === 'signed' ? ('signed' as const) : ('saved' as const)) : null,
                }
              })
            const done = its.length > 0 && its.every((f) => f.recordId !== null)
            return {
              visitId: v.id,
              name: v.name,
              plannedDate: w.planned,
              windowStart: w.start,
              windowEnd: w.end,
              state: visitState(w, now, done),
              forms: its,
            }
          }),
  }
}

/** A cursor: the visit, then the subject's (enrolled_at, id) inside it. */
function encodeCursor(visitId: number, enrolledAt: string, subjectId: number): string {
  return Buffer.from(JSON.stringify([visitId, enrolledAt, subjectId]), 'utf8').toString('base64url')
}

function decodeCursor(cursor: string): [number, string, number] {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    parsed = undefined
  }
  if (Array.isArray(parsed) && parsed.length === 3) {
    const [visitId, at, subjectId] = parsed as unknown[]
    const v = idValue.safeParse(visitId)
    const s = idValue.safeParse(subjectId)
    if (v.success && s.success && typeof at === 'string' && at.length <= 40 && !at.includes('\u0000')) return [v.data, at, s.data]
  }
  throw new ServiceError('badRequest', 'field.invalid', ['after'])
}

/**
 * The enrolled_at bounds of the subjects whose visit `v` is due (today inside the window) or
 * overdue (today past its end): enrolment day E is due when today - offset - after ≤ E ≤
 * today - offset + before, overdue when E < today - offset - after. The bounds are the first
 * instants of those days in the zone, as ISO timestamps, which compare with enrolled_at as text.
 */
function enrolledBounds(v: Visit, day: string, state: DueListQuery['state'], zone: string): { from: string | null; before: string | null } {
  const firstDue = startOfDay(addDays(day, -v.day_offset - v.window_after), zone)
  if (state === 'overdue') return { from: null, before: firstDue }
  return { from: firstDue, before: openedBefore(v, day, zone) }
}

/** Subjects enrolled before this instant have the window of visit `v` open on `day` (or past). */
function openedBefore(v: Visit, day: string, zone: string): string {
  return startOfDay(addDays(day, -v.day_offset + v.window_before + 1), zone)
}

export async function listDue(ctx: ServiceContext, actor: Actor, projectId: number, q: DueListQuery): Promise<DuePage> {
  await mustFindProject(ctx.db, projectId)
  const scope = projectScope(actor, 'subject.followUp', projectId)
  const day = today(ctx)
  const after = q.after === undefined ? null : decodeCursor(q.after)
  let visits = await repo.visitsOf(ctx.db, projectId)
  if (q.visitId !== undefined) visits = visits.filter((v) => v.id === q.visitId)
  const slices = visits.map((v) => ({
    visit: v,
    slice: { projectId, scope, visitId: v.id, centerId: q.centerId, queueId: q.queueId, ...enrolledBounds(v, day, q.state, ctx.timeZone) },
  }))

  const rows: DueRow[] = []
  let next: string | null = null
  // The cursor's visit is resumed after its subject; visits before it in order are done.
  let start = after ? slices.findIndex((s) => s.visit.id === after[0]) : 0
  if (start < 0) start = slices.length
  for (let i = start; i < slices.length && next === null; i++) {
    const { visit, slice } = slices[i]!
    const need = q.limit - rows.length
    const found = await repo.dueRows(ctx.db, slice, after && i === start ? [after[1], after[2]] : null, need + 1)
    for (const r of found.slice(0, need)) {
      const w = windowOf(visit, dayIn(r.enrolled_at!, ctx.timeZone))
      rows.push({
        subjectId: r.id,
        subjectNo: r.subject_no,
        centerId: r.center_id,
        centerCode: r.center_code,
        centerNameZh: r.center_name_zh,
        centerNameEn: r.center_name_en,
        queueId: r.queue_id,
        queueName: r.queue_name,
        visitId: visit.id,
        visitName: visit.name,
        plannedDate: w.planned,
        windowStart: w.start,
        windowEnd: w.end,
        missing: Number(r.missing),
      })
    }
    const last = rows.at(-1)
    if (rows.length === q.limit && last) {
      // More rows follow in this visit or in a later one: only then is there a next page.
      const more = found.length > need || (await anyLater(ctx.db, slices.slice(i + 1)))
      if (more) next = encodeCursor(last.visitId, found[need - 1]!.enrolled_at!, last.subjectId)
      break
    }
  }
  let total = 0
  for (const s of slices) total += await repo.dueCount(ctx.db, s.slice)
  return { rows, next, total, today: day }
}

async function anyLater(db: Q, slices: readonly { slice: repo.DueSlice }[]): Promise<boolean> {
  for (const s of slices) if ((await repo.dueRows(db, s.slice, null, 1)).length > 0) return true
  return false
}

export async function getProgress(ctx: ServiceContext, actor: Actor, projectId: number): Promise<ProgressView> {
  const project = await mustFindProject(ctx.db, projectId)
  const scope = projectScope(actor, 'project.progress', projectId)
  const day = today(ctx)
  const visits = await repo.visitsOf(ctx.db, projectId)
  const opened = new Map(visits.map((v) => [v.id, openedBefore(v, day, ctx.timeZone)]))
  const enrolmentByMonth = async () => {
    const span = await repo.enrolmentSpan(ctx.db, projectId, scope)
    const months = span ? monthsBetween(span.first, span.last, ctx.timeZone) : []
    return repo.enrolmentByMonth(ctx.db, projectId, scope, months)
  }
  const [centers, queues, enrolment, forms, counts, visitForms, dueByVisit] = await Promise.all([
    centersOf(ctx.db, projectId, scope),
    queuesOf(ctx.db, projectId, scope),
    enrolmentByMonth(),
    formsOf(ctx.db, projectId),
    repo.recordCountsByForm(ctx.db, projectId, scope, opened),
    repo.visitFormsOf(ctx.db, projectId),
    repo.enrolledBefore(ctx.db, projectId, scope, [...opened.values()]),
  ])
  const due = new Map(visits.map((v, i) => [v.id, dueByVisit[i]!]))
  const whole = async () => {
    if (scope.kind !== 'project' || (scope.centerIds === null && scope.queueIds === null)) return true
    const everything = { ...scope, centerIds: null, queueIds: null }
    const [allCenters, allQueues] = await Promise.all([centersOf(ctx.db, projectId, everything), queuesOf(ctx.db, projectId, everything)])
    return centers.length === allCenters.length && queues.length === allQueues.length
  }
  const enrolled = enrolment.reduce((n, e) => n + e.count, 0)
  const count = (templateId: number, status: string) =>
    counts.filter((c) => c.templateId === templateId && c.status === status).reduce((n, c) => n + c.count, 0)
  return {
    plannedQuantity: project.planned_quantity,
    wholeProject: await whole(),
    enrolled,
    centers: centers.map((c) => ({ id: c.id, code: c.code, nameZh: c.name_zh, nameEn: c.name_en })),
    queues: queues.map((q) => ({ id: q.id, name: q.name })),
    enrolment,
    today: day,
    forms: forms.map((f) => {
      const basis = f.collect_type === 'biomaterial' ? 'samples' : f.collect_type === 'followUp' ? 'dueVisits' : 'subjects'
      // A follow-up CRF is expected at its visits once their window opens: none before, nor when no visit collects it.
      const dueVisits = () => visitForms.filter((v) => v.template_id === f.template_id).reduce((n, v) => n + (due.get(v.visit_id) ?? 0), 0)
      return {
        templateId: f.template_id,
        name: f.name,
        collectType: f.collect_type,
        basis,
        expected: basis === 'samples' ? null : basis === 'dueVisits' ? dueVisits() : enrolled,
        saved: count(f.template_id, 'saved'),
        signed: count(f.template_id, 'signed'),
      }
    }),
  }
}
