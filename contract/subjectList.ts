/**
 * The research-object list (SPEC §2 /patient/index and a project's research objects; §7
 * getHeaderList, pageList, getDisplayFieldList, saveDisplayFieldInfo, getViewInfo): fixed columns
 * plus the indicators a user chose, server sort on any shown column, filters per column, keyset
 * paging (DESIGN §6). Only subjects of the caller's queues and centers, inside the SQL.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'
import { choice, indicatorTypes, type IndicatorType } from './dictionary.ts'
import { dayOrMinuteSpelling } from './dayOrMinute.ts'
import { idParam, idValue, integerParam } from './ids.ts'
import { buttonAuthority, studyCenter, studyGroup, studyObjectPaths } from './studyObject.ts'
import { subjectStatuses } from './subjects.ts'
import { identifierText } from './identifierText.ts'

export const subjectListPaths = {
  headerList: 'api/scientific/studyObject/getHeaderList',
  pageList: 'api/scientific/studyObject/pageList',
  displayFields: 'api/scientific/form/getDisplayFieldList',
  saveDisplayFields: 'api/scientific/form/saveDisplayFieldInfo',
  displayFieldInfo: 'api/scientific/studyObject/getDisplayFieldInfo',
  viewInfo: 'api/scientific/studyObject/getViewInfo',
  /** Not a SPEC call: the subjects before and after one in the list's order (next / previous subject). */
  neighbours: (projectId: number, subjectId: number) => `api/projects/${projectId}/subjects/${subjectId}/neighbours`,
} as const

/** The fixed columns; an indicator column's key is `f<indicatorId>`. */
export const fixedColumns = ['subjectNo', 'center', 'queue', 'status', 'group', 'enrolledAt', 'updatedAt'] as const
export type FixedColumn = (typeof fixedColumns)[number]
export const columnKey = z.union([z.enum(fixedColumns), z.string().regex(/^f\d{1,10}$/)])
export type ColumnKey = z.infer<typeof columnKey>

export const listLimits = { page: 200, filters: 20, filterValue: 200, displayFields: 30 } as const

/**
 * The list's query (also the neighbours call's, so next / previous follow the list's order).
 * `filter` is a JSON list of per-column conditions: [{ column, op, value }].
 */
export const subjectListQuery = z.object({
  studyId: idParam,
  sort: columnKey.default('subjectNo'),
  order: z.enum(['asc', 'desc']).default('asc'),
  /** Subject number prefix, any case. */
  q: z.string().transform(identifierText).pipe(z.string().max(50)).optional(),
  centerId: idParam.optional(),
  queueId: idParam.optional(),
  status: z.enum(subjectStatuses).optional(),
  filter: z.string().max(4000).optional(),
  after: z.string().max(500).optional(),
  limit: integerParam(z.number().int().min(1).max(listLimits.page)).default(50),
})
export type SubjectListQuery = z.infer<typeof subjectListQuery>

export const subjectRow = z.object({
  id: z.number().int(),
  subjectNo: z.string(),
  centerId: z.number().int(),
  centerName: z.string(),
  queueId: z.number().int(),
  queueName: z.string(),
  status: z.enum(subjectStatuses),
  /** Null without randomization and for callers kept blind. */
  group: z.string().nullable(),
  enrolledAt: z.string().nullable(),
  updatedAt: z.string(),
  /** The chosen indicator columns' values by `f<id>` (a multiple choice joined with '|'). */
  values: z.record(z.string(), z.string()),
})
export type SubjectRow = z.infer<typeof subjectRow>
export const subjectPage = z.object({ rows: z.array(subjectRow), next: z.string().nullable(), total: z.number().int() })
export type SubjectPage = z.infer<typeof subjectPage>

export const neighbours = z.object({ previous: z.number().int().nullable(), next: z.number().int().nullable() })
export type Neighbours = z.infer<typeof neighbours>

export const listSubjects = endpoint({
  method: 'GET',
  input: subjectListQuery,
  output: subjectPage,
  request: (query) => ({ path: subjectListPaths.pageList, query }),
})

export const getNeighbours = endpoint({
  method: 'GET',
  input: subjectListQuery.omit({ after: true, limit: true }).extend({ objectId: idValue }),
  output: neighbours,
  request: ({ studyId, objectId, ...query }) => ({ path: subjectListPaths.neighbours(studyId, objectId), query: { studyId, ...query } }),
})

/** getViewInfo: one research object's header, for its detail screen. */
export const viewInfo = subjectRow.extend({
  projectId: z.number().int(),
  projectName: z.string(),
  checklist: z.object({ inclusion: z.array(z.boolean()), exclusion: z.array(z.boolean()) }),
  entryCondition: z.string(),
  excludeCondition: z.string(),
  enrolledBy: z.string(),
  /** The subject has a group the caller's blinded role may not see (group is then null). */
  blinded: z.boolean(),
  /** Whether the caller may reveal the group (an emergency unblinding) now. */
  canUnblind: z.boolean(),
})
export type ViewInfo = z.infer<typeof viewInfo>
export const getViewInfo = endpoint({
  method: 'GET',
  input: z.object({ studyId: idParam, objectId: idParam }),
  output: viewInfo,
  request: (query) => ({ path: subjectListPaths.viewInfo, query }),
})

/**
 * One condition of the list's `filter` JSON. Values compare as text (summary values are text):
 * `eq` exact, `prefix` starts with, `has` a multiple choice holds the code, `gte`/`lte` text
 * order (dates are ISO, so they range correctly), `empty`/`notEmpty` ignore `value`.
 * center / queue / group take an id, status a status.
 */
export const filterOps = ['eq', 'prefix', 'has', 'gte', 'lte', 'empty', 'notEmpty'] as const
export type FilterOp = (typeof filterOps)[number]
/** Columns holding a time of the subject's (ISO, so they range as text). */
const timeColumns: readonly string[] = ['enrolledAt', 'updatedAt']

/**
 * The operators a column's filter offers: `has` only where a field holds several choices, no
 * emptiness test where a value is always there. The server accepts these (and, through the API, a
 * group's id).
 */
export function filterOpsFor(c: { key: string; type: IndicatorType | null }): readonly FilterOp[] {
  if (c.key === 'center' || c.key === 'queue' || c.key === 'status') return ['eq']
  // Groups are filtered by whether one is allocated: their ids are not the caller's to pick.
  if (c.key === 'group') return ['empty', 'notEmpty']
  if (c.key === 'subjectNo') return ['eq', 'prefix', 'gte', 'lte']
  if (timeColumns.includes(c.key)) return ['gte', 'lte', 'prefix']
  if (c.type === 'multiple') return ['has', 'empty', 'notEmpty']
  if (c.type === 'single') return ['eq', 'empty', 'notEmpty']
  return ['eq', 'prefix', 'gte', 'lte', 'empty', 'notEmpty']
}

/**
 * A filter's value as its column compares it: a day or a minute typed into a time column or a date
 * field is read as date entry reads one (`2026/6/1` is 2026-06-01: compared as typed, `/` sorts
 * after every digit and `-`, so "from 2026/6/1" matched nothing); other text trimmed.
 */
export function filterValueSpelling(c: { key: string; type: IndicatorType | null }, value: string): string {
  return timeColumns.includes(c.key) || c.type === 'date' ? dayOrMinuteSpelling(value) : value.trim()
}

export const listFilter = z.object({
  column: columnKey,
  op: z.enum(filterOps),
  value: z.string().max(listLimits.filterValue).default(''),
})
export type ListFilter = z.infer<typeof listFilter>
export const listFilters = z.array(listFilter).max(listLimits.filters)

/** A column of the list: a fixed one, or a chosen indicator with its type and choices for its filter. */
export const headerColumn = z.object({
  key: columnKey,
  titleZh: z.string(),
  titleEn: z.string(),
  /** Null for a fixed column. */
  indicatorId: z.number().int().nullable(),
  type: z.enum(indicatorTypes).nullable(),
  choices: z.array(choice),
})
export type HeaderColumn = z.infer<typeof headerColumn>

export const studyQuery = z.object({ studyId: idParam })

export const getHeaderList = endpoint({
  method: 'GET',
  input: studyQuery,
  output: z.array(headerColumn),
  request: (query) => ({ path: subjectListPaths.headerList, query }),
})

/** An indicator that may be a list column: a plain-section field of a pinned single-instance CRF. */
export const displayField = z.object({
  indicatorId: z.number().int(),
  templateId: z.number().int(),
  templateName: z.string(),
  code: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  type: z.enum(indicatorTypes),
  /** Shown as a column by the caller, and where (null when not chosen). */
  position: z.number().int().nullable(),
})
export type DisplayField = z.infer<typeof displayField>

export const getDisplayFieldList = endpoint({
  method: 'GET',
  input: studyQuery,
  output: z.array(displayField),
  request: (query) => ({ path: subjectListPaths.displayFields, query }),
})

/** The caller's chosen indicator columns of the project, in order. */
export const displayFieldInfo = z.object({ indicatorIds: z.array(z.number().int()) })
export type DisplayFieldInfo = z.infer<typeof displayFieldInfo>

export const getDisplayFieldInfo = endpoint({
  method: 'GET',
  input: studyQuery,
  output: displayFieldInfo,
  request: (query) => ({ path: subjectListPaths.displayFieldInfo, query }),
})

export const saveDisplayFieldInput = z.object({
  studyId: idValue,
  indicatorIds: z.array(idValue).max(listLimits.displayFields),
})
export type SaveDisplayFieldInput = z.infer<typeof saveDisplayFieldInput>

export const saveDisplayFieldInfo = endpoint({
  method: 'POST',
  input: saveDisplayFieldInput,
  output: displayFieldInfo,
  request: (body) => ({ path: subjectListPaths.saveDisplayFields, body }),
})

/** The list page's pickers and buttons (SPEC getStudyGroupList, centerList, studyObjectButtonAuthority with studyId). */
export const getStudyGroups = endpoint({
  method: 'GET',
  input: studyQuery,
  output: z.array(studyGroup),
  request: (query) => ({ path: studyObjectPaths.groupList, query }),
})

export const getStudyCenters = endpoint({
  method: 'GET',
  input: studyQuery,
  output: z.array(studyCenter),
  request: (query) => ({ path: studyObjectPaths.centerList, query }),
})

export const getButtonAuthority = endpoint({
  method: 'GET',
  input: studyQuery,
  output: buttonAuthority,
  request: (query) => ({ path: studyObjectPaths.buttonAuthority, query }),
})
