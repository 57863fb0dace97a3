/**
 * Follow-up management and project progress (issue 10 item 10; SPEC §2 project action menu
 * "follow-up management" and "project progress"). A project's visit schedule (name, day offset
 * from enrolment, window before and after in days, its follow-up CRFs), each subject's planned
 * visit dates with their state, the due and overdue lists per center and queue (keyset pages,
 * scope inside the SQL), and progress: enrolment against plan by month, center and queue, and
 * CRF completion. Dates are calendar days (YYYY-MM-DD) and months (YYYY-MM) of the server's TIME_ZONE.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'
import { idParam, idValue, integerParam } from './ids.ts'

export const followUpPaths = {
  visits: (projectId: number) => `api/projects/${projectId}/visits`,
  visit: (projectId: number, visitId: number) => `api/projects/${projectId}/visits/${visitId}`,
  subjectVisits: (projectId: number, subjectId: number) => `api/projects/${projectId}/subjects/${subjectId}/visits`,
  dueList: (projectId: number) => `api/projects/${projectId}/follow-up`,
  progress: (projectId: number) => `api/projects/${projectId}/progress`,
} as const

export const followUpLimits = { visits: 100, name: 100, dayOffset: 3650, window: 365, formsPerVisit: 50, page: 500 } as const

export const visitInput = z.object({
  name: z.string().trim().min(1).max(followUpLimits.name),
  /** Days after enrolment (0: the enrolment day). */
  dayOffset: z.number().int().min(0).max(followUpLimits.dayOffset),
  windowBefore: z.number().int().min(0).max(followUpLimits.window),
  windowAfter: z.number().int().min(0).max(followUpLimits.window),
  /** Pinned forms of the project with collect type followUp, in order. */
  templateIds: z.array(idValue).min(1).max(followUpLimits.formsPerVisit),
})
export type VisitInput = z.infer<typeof visitInput>

const formRef = z.object({ templateId: z.number().int(), name: z.string() })

export const visitView = z.object({
  id: z.number().int(),
  name: z.string(),
  dayOffset: z.number().int(),
  windowBefore: z.number().int(),
  windowAfter: z.number().int(),
  forms: z.array(formRef),
  /** Form records entered for this visit; a visit with records cannot be deleted. */
  records: z.number().int(),
})
export type VisitView = z.infer<typeof visitView>

/** The schedule, plus the pinned follow-up CRFs a visit may collect. */
export const visitPlan = z.object({ visits: z.array(visitView), followUpForms: z.array(formRef) })
export type VisitPlan = z.infer<typeof visitPlan>

export const visitStates = ['done', 'due', 'overdue', 'upcoming'] as const
export type VisitState = (typeof visitStates)[number]

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)

/** The record slot of a visit instance (form_record.slot), as the server stores it and the client names it. */
export const visitSlot = (visitId: number) => `v${visitId}`

/** A calendar day `n` days after `date` (YYYY-MM-DD). */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}

/** A visit's state on `today`: done once every CRF is entered, else by its window. */
export function visitState(window: { start: string; end: string }, today: string, done: boolean): VisitState {
  if (done) return 'done'
  if (today < window.start) return 'upcoming'
  return today > window.end ? 'overdue' : 'due'
}

export const subjectVisit = z.object({
  visitId: z.number().int(),
  name: z.string(),
  plannedDate: day,
  windowStart: day,
  windowEnd: day,
  state: z.enum(visitStates),
  forms: z.array(formRef.extend({ recordId: z.number().int().nullable(), status: z.enum(['saved', 'signed']).nullable() })),
})
export type SubjectVisit = z.infer<typeof subjectVisit>

export const subjectSchedule = z.object({
  subjectId: z.number().int(),
  subjectNo: z.string(),
  /** The calendar day of enrolment in the configured time zone, which the planned dates count from; null: none planned. */
  enrolledDay: day.nullable(),
  today: day,
  visits: z.array(subjectVisit),
})
export type SubjectSchedule = z.infer<typeof subjectSchedule>

export const dueStates = ['due', 'overdue'] as const
export type DueState = (typeof dueStates)[number]

/** One page of the due (inside the window) or overdue (past it) list: visit order, then enrolment order. */
export const dueListQuery = z.object({
  state: z.enum(dueStates).default('due'),
  centerId: idParam.optional(),
  queueId: idParam.optional(),
  visitId: idParam.optional(),
  after: z.string().max(500).optional(),
  limit: integerParam(z.number().int().min(1).max(followUpLimits.page)).default(100),
})
export type DueListQuery = z.infer<typeof dueListQuery>

export const dueRow = z.object({
  subjectId: z.number().int(),
  subjectNo: z.string(),
  centerId: z.number().int(),
  centerCode: z.string(),
  centerNameZh: z.string(),
  centerNameEn: z.string(),
  queueId: z.number().int(),
  queueName: z.string(),
  visitId: z.number().int(),
  visitName: z.string(),
  plannedDate: day,
  windowStart: day,
  windowEnd: day,
  /** CRFs of the visit not yet entered. */
  missing: z.number().int(),
})
export type DueRow = z.infer<typeof dueRow>
export const duePage = z.object({ rows: z.array(dueRow), next: z.string().nullable(), total: z.number().int(), today: day })
export type DuePage = z.infer<typeof duePage>

/** What a CRF's completion is counted against (progressView.forms). */
export const completionBases = ['subjects', 'dueVisits', 'samples'] as const

export const progressView = z.object({
  /** The project's planned enrolment, all centers and queues: the plan has no per-center or per-queue targets. */
  plannedQuantity: z.number().int(),
  /**
   * Whether the caller's centers and queues are all of the project's; when not, the counts cover
   * only their part, and plannedQuantity is not a target of that part.
   */
  wholeProject: z.boolean(),
  /** Subjects inside the caller's centers and queues. */
  enrolled: z.number().int(),
  centers: z.array(z.object({ id: z.number().int(), code: z.string(), nameZh: z.string(), nameEn: z.string() })),
  queues: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** Enrolments per month (YYYY-MM), center and queue, months in order. */
  enrolment: z.array(z.object({ month: z.string(), centerId: z.number().int(), queueId: z.number().int(), count: z.number().int() })),
  /** The day (server's TIME_ZONE) the due visits are counted on. */
  today: day,
  /**
   * Per pinned CRF: records saved (not signed) and signed, against the expected count, as `basis`
   * says: 'subjects', one per enrolled subject for a form entered once; 'dueVisits', one per
   * subject and visit collecting it whose window has opened by `today` (records of visits not yet
   * due are not counted either); 'samples', one per sample, so expected is null.
   */
  forms: z.array(
    z.object({
      templateId: z.number().int(),
      name: z.string(),
      collectType: z.string(),
      basis: z.enum(completionBases),
      expected: z.number().int().nullable(),
      saved: z.number().int(),
      signed: z.number().int(),
    }),
  ),
})
export type ProgressView = z.infer<typeof progressView>

const id = idValue

export const getVisitPlan = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: visitPlan,
  request: ({ id }) => ({ path: followUpPaths.visits(id) }),
})

export const createVisit = endpoint({
  method: 'POST',
  input: z.object({ id, visit: visitInput }),
  output: visitPlan,
  request: ({ id, visit }) => ({ path: followUpPaths.visits(id), body: visit }),
})

export const updateVisit = endpoint({
  method: 'PUT',
  input: z.object({ id, visitId: id, visit: visitInput }),
  output: visitPlan,
  request: ({ id, visitId, visit }) => ({ path: followUpPaths.visit(id, visitId), body: visit }),
})

/** Refused (409) while form records were entered for the visit. */
export const deleteVisit = endpoint({
  method: 'DELETE',
  input: z.object({ id, visitId: id }),
  output: visitPlan,
  request: ({ id, visitId }) => ({ path: followUpPaths.visit(id, visitId) }),
})

export const getSubjectSchedule = endpoint({
  method: 'GET',
  input: z.object({ id, subjectId: id }),
  output: subjectSchedule,
  request: ({ id, subjectId }) => ({ path: followUpPaths.subjectVisits(id, subjectId) }),
})

export const listDue = endpoint({
  method: 'GET',
  input: dueListQuery.partial().extend({ id }),
  output: duePage,
  request: ({ id, ...query }) => ({ path: followUpPaths.dueList(id), query }),
})

export const getProgress = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: progressView,
  request: ({ id }) => ({ path: followUpPaths.progress(id) }),
})
