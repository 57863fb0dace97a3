import { idValue } from '../../contract/ids.ts'
import { choiceCodePattern, type Choice } from '../../contract/dictionary.ts'
import {
  fixedColumns,
  filterOps,
  filterOpsFor,
  filterValueSpelling,
  listFilters,
  listLimits,
  type ColumnKey,
  type DisplayField,
  type DisplayFieldInfo,
  type FilterOp,
  type HeaderColumn,
  type Neighbours,
  type SaveDisplayFieldInput,
  type SubjectListQuery,
  type SubjectPage,
  type SubjectRow,
} from '../../contract/subjectList.ts'
import { subjectStatuses } from '../../contract/subjects.ts'
import type { ButtonAuthority } from '../../contract/studyObject.ts'
import type { VersionField } from '../../contract/crf.ts'
import { formsOf } from '../db/repositories/projects.ts'
import { foldAsciiCase } from '../db/repositories/indicators.ts'
import * as repo from '../db/repositories/subjectList.ts'
import type { Lang } from '../i18n/messages.ts'
import type { Actor } from './actor.ts'
import { actorStore } from './actorCache.ts'
import { buttonAuthority } from './buttonAuthority.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { decodeKeyCursor, encodeCursor } from './keysetCursor.ts'
import { can, holds, projectScope, seesGroups, type Action } from './policy.ts'
import { subjectFor } from './subjectAccess.ts'
import { getVersion } from './templates.ts'

/**
 * The research-object list (issue 10 item 1, SPEC §7 getHeaderList, pageList, display fields):
 * columns are the fixed ones plus the indicators each user chose; sort, filters and keyset
 * paging run in SQL over indexes, inside the caller's queues and centers; the total comes from
 * the per (project, center, queue, status) counters, or one count per filter.
 */

const fixedTitles: Record<(typeof fixedColumns)[number], [string, string]> = {
  subjectNo: ['研究对象编号', 'Subject number'],
  center: ['中心', 'Center'],
  queue: ['队列', 'Queue'],
  status: ['状态', 'Status'],
  group: ['分组', 'Group'],
  enrolledAt: ['入组时间', 'Enrolled at'],
  updatedAt: ['更新时间', 'Updated at'],
}

/** Single-instance CRFs feed subject.summary; visit and sample forms have many instances per subject. */
const summaryForm = (collectType: string) => collectType !== 'followUp' && collectType !== 'biomaterial'

interface Candidate {
  field: VersionField
  templateId: number
  templateName: string
}

/** Plain-section fields of the project's pinned single-instance CRFs, as their pinned versions define them. */
async function candidates(ctx: ServiceContext, projectId: number): Promise<Map<number, Candidate>> {
  const out = new Map<number, Candidate>()
  for (const f of await formsOf(ctx.db, projectId)) {
    if (f.kind !== 'crf' || !summaryForm(f.collect_type)) continue
    const v = await getVersion(ctx, f.template_id, f.version)
    const byId = new Map(v.indicators.map((i) => [i.id, i]))
    for (const s of v.layout.sections) {
      if (s.repeating) continue
      for (const item of s.items) {
        const field = byId.get(item.indicatorId)
        if (field && !out.has(field.id)) out.set(field.id, { field, templateId: f.template_id, templateName: f.name })
      }
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Columns

/** By project: read once per cached actor, as every page needs them (server/services/actorCache.ts). */
const chosenOf = actorStore(() => new Map<number, readonly number[]>())

/** The caller's indicator columns of the project, in order. */
async function chosenColumns(ctx: ServiceContext, actor: Actor, projectId: number): Promise<readonly number[]> {
  const known = chosenOf(actor)
  let ids = known.get(projectId)
  if (!ids) known.set(projectId, (ids = await repo.listFieldIds(ctx.db, projectId, actor.user.id)))
  return ids
}

function toKey(column: ColumnKey): repo.ListKey {
  return column.startsWith('f') && /^f\d+$/.test(column)
    ? { kind: 'field', indicatorId: Number(column.slice(1)) }
    : { kind: column as Exclude<repo.ListKey['kind'], 'field'> }
}

/** A column the caller may sort or filter by: fixed, or one of their chosen indicators (which has its index). */
function checkedKey(column: ColumnKey, chosen: readonly number[], sees: boolean): repo.ListKey {
  const key = toKey(column)
  if (key.kind === 'field' && !chosen.includes(key.indicatorId)) throw new ServiceError('badRequest', 'list.unknownColumn', [column])
  if (key.kind === 'group' && !sees) throw new ServiceError('forbidden', 'list.groupHidden')
  return key
}

/** The list's own (filterOpsFor); through the API a group also by its id, and a field by any operator (its type is not read here). */
function opsOf(key: repo.ListKey): readonly FilterOp[] {
  if (key.kind === 'group') return ['eq', 'empty', 'notEmpty']
  if (key.kind === 'field') return filterOps
  return filterOpsFor({ key: key.kind, type: null })
}

/** A time column's value: a year, a month, a day or a minute, as its ISO text starts. */
const timePrefix = /^\d{4}(-\d{2}(-\d{2}( \d{2}:\d{2})?)?)?$/

function filterConditions(raw: string | undefined, chosen: readonly number[], sees: boolean): repo.KeyCondition[] {
  if (raw === undefined || raw.trim() === '') return []
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    throw new ServiceError('badRequest', 'list.badFilter', [listLimits.filters])
  }
  const parsed = listFilters.safeParse(json)
  if (!parsed.success) throw new ServiceError('badRequest', 'list.badFilter', [listLimits.filters])
  return parsed.data.map((f) => {
    const key = checkedKey(f.column, chosen, sees)
    if (!opsOf(key).includes(f.op)) throw new ServiceError('badRequest', 'list.filterOp', [f.column, f.op])
    const bad = () => new ServiceError('badRequest', 'list.filterValue', [f.column, f.value])
    if (f.op === 'empty' || f.op === 'notEmpty') return { key, op: f.op, value: '' }
    if (repo.numericKey(key)) {
      const id = idValue.safeParse(Number(f.value))
      if (!/^\d+$/.test(f.value) || !id.success) throw bad()
      return { key, op: f.op, value: id.data }
    }
    if (key.kind === 'status' && !(subjectStatuses as readonly string[]).includes(f.value)) throw bad()
    if (key.kind === 'enrolledAt' || key.kind === 'updatedAt') {
      const value = filterValueSpelling({ key: key.kind, type: null }, f.value)
      if (!timePrefix.test(value)) throw bad()
      // "Up to 2026-06-01" keeps that day's subjects: '~' sorts after every character of an ISO time.
      return { key, op: f.op, value: value.replace(' ', 'T') + (f.op === 'lte' ? '~' : '') }
    }
    if (f.op === 'has' && !choiceCodePattern.test(f.value)) throw bad()
    if (f.value.includes('\u0000')) throw bad()
    return { key, op: f.op, value: f.value }
  })
}

// ---------------------------------------------------------------------------------------------
// Totals: counters when only center / queue / status narrow the list, else one count per filter.

interface CachedTotal {
  n: number
  at: number
}
const totalTtlMs = 60_000
const totalCacheSize = 1000
/** Per database, so test apps sharing a process never read each other's totals. */
const totals = new WeakMap<object, Map<string, CachedTotal>>()

/**
 * `tally` is the counters' total of the where without its filters, read with the page. Counted
 * once per filter: the key holds the filter and that total, so an enrolment (or a deletion, or a
 * change of status when one is asked for) counts afresh; changed values are seen within the TTL.
 */
async function totalOf(ctx: ServiceContext, w: repo.SubjectWhere, tally: number): Promise<number> {
  if (!w.q && w.conditions.length === 0) return tally
  let cache = totals.get(ctx.db)
  if (!cache) totals.set(ctx.db, (cache = new Map()))
  const key = JSON.stringify([w.scope, w.centerId, w.queueId, w.status, w.q, w.conditions, tally])
  const now = ctx.now().getTime()
  const hit = cache.get(key)
  if (hit && now - hit.at < totalTtlMs) return hit.n
  const n = await repo.countSubjectsWhere(ctx.db, w)
  cache.delete(key)
  cache.set(key, { n, at: now })
  if (cache.size > totalCacheSize) cache.delete(cache.keys().next().value!)
  return n
}

// ---------------------------------------------------------------------------------------------
// Reads

interface ListPlan {
  where: repo.SubjectWhere
  sort: repo.ListKey
  chosen: readonly number[]
  sees: boolean
}

async function planOf(ctx: ServiceContext, actor: Actor, q: Omit<SubjectListQuery, 'after' | 'limit'>): Promise<ListPlan> {
  const chosen = await chosenColumns(ctx, actor, q.studyId)
  // Blinded members may not sort or filter by the group either: the order would tell.
  const sees = seesGroups(actor, q.studyId)
  const sort = checkedKey(q.sort, chosen, sees)
  const where: repo.SubjectWhere = {
    scope: projectScope(actor, 'subject.list', q.studyId),
    centerId: q.centerId,
    queueId: q.queueId,
    status: q.status,
    q: q.q ? foldAsciiCase(q.q) : undefined,
    conditions: filterConditions(q.filter, chosen, sees),
  }
  return { where, sort, chosen, sees }
}

interface PageNames {
  centers: Map<number, { zh: string; en: string }>
  queues: Map<number, string>
  groups: Map<number, string>
}

/** The names pages showed the caller, kept with the cached actor: a page reads only names it has not seen. */
const namesOf = actorStore<PageNames>(() => ({ centers: new Map(), queues: new Map(), groups: new Map() }))

/** The names of the page's centers, queues and (for callers who see them) groups. */
async function pageNames(ctx: ServiceContext, actor: Actor, rows: readonly repo.SubjectPageRow[], sees: boolean): Promise<PageNames> {
  const known = namesOf(actor)
  const missing = (seen: Map<number, unknown>, pick: (r: repo.SubjectPageRow) => number | null) => [
    ...new Set(rows.map(pick).filter((id): id is number => id !== null && !seen.has(id))),
  ]
  const centers = missing(known.centers, (r) => r.center_id)
  const queues = missing(known.queues, (r) => r.queue_id)
  const groups = sees ? missing(known.groups, (r) => r.group_id) : []
  if (centers.length + queues.length + groups.length === 0) return known
  const names = await repo.namesOfPage(ctx.db, centers, queues, groups)
  for (const c of names.centers) known.centers.set(c.id, { zh: c.name_zh, en: c.name_en })
  for (const q of names.queues) known.queues.set(q.id, q.name)
  for (const g of names.groups) known.groups.set(g.id, g.name)
  return known
}

/** `rows` carry the values of `chosen` as v0, v1, … (repo.subjectPage's `fields`). */
function toRows(
  lang: Lang,
  rows: readonly repo.SubjectPageRow[],
  names: PageNames,
  chosen: readonly number[],
  sees: boolean,
): SubjectRow[] {
  return rows.map((r) => {
    const values: Record<string, string> = {}
    chosen.forEach((id, i) => {
      // Summary values are text (server/services/studyData.ts); null: not entered.
      const v = r[`v${i}`]
      if (typeof v === 'string') values[`f${id}`] = v
    })
    const center = names.centers.get(r.center_id)
    return {
      id: r.id,
      subjectNo: r.subject_no,
      centerId: r.center_id,
      centerName: center ? (lang === 'en' && center.en ? center.en : center.zh) : '',
      queueId: r.queue_id,
      queueName: names.queues.get(r.queue_id) ?? '',
      status: r.status as SubjectRow['status'],
      group: sees && r.group_id !== null ? (names.groups.get(r.group_id) ?? null) : null,
      enrolledAt: r.enrolled_at,
      updatedAt: r.updated_at,
      values,
    }
  })
}

/** SPEC pageList: one keyset page of the caller's subjects with the total. */
export async function pageList(ctx: ServiceContext, actor: Actor, lang: Lang, q: SubjectListQuery): Promise<SubjectPage> {
  const plan = await planOf(ctx, actor, q)
  const after = q.after === undefined ? null : decodeKeyCursor(q.after, repo.numericKey(plan.sort))
  // One row more than asked tells whether a next page exists.
  const { rows, tally } = await repo.subjectPageWithTally(ctx.db, {
    ...plan.where,
    sort: plan.sort,
    order: q.order,
    after,
    limit: q.limit + 1,
    fields: plan.chosen,
  })
  const more = rows.length > q.limit
  const page = more ? rows.slice(0, q.limit) : rows
  const [names, total] = await Promise.all([pageNames(ctx, actor, page, plan.sees), totalOf(ctx, plan.where, tally)])
  const last = page[page.length - 1]
  return {
    rows: toRows(lang, page, names, plan.chosen, plan.sees),
    next: more && last ? encodeCursor(last.sort_value, last.id) : null,
    total,
  }
}

/** The subjects just before and after one in the list's order (with its filters), for next / previous. */
export async function neighboursOf(
  ctx: ServiceContext,
  actor: Actor,
  q: Omit<SubjectListQuery, 'after' | 'limit'> & { objectId: number },
): Promise<Neighbours> {
  const subject = await subjectFor(ctx.db, actor, 'subject.list', q.studyId, q.objectId)
  const plan = await planOf(ctx, actor, q)
  const value = await repo.sortValueOf(ctx.db, subject.id, plan.sort)
  if (value === undefined) throw new ServiceError('notFound', 'subject.notFound', [q.objectId])
  const one = async (order: 'asc' | 'desc') => {
    const [r] = await repo.subjectPage(ctx.db, { ...plan.where, sort: plan.sort, order, after: [value, subject.id], limit: 1 })
    return r?.id ?? null
  }
  const [previous, next] = await Promise.all([one(q.order === 'asc' ? 'desc' : 'asc'), one(q.order)])
  return { previous, next }
}

/** SPEC getHeaderList: the fixed columns (no group for blinded callers), then the caller's indicator columns. */
export async function headerList(ctx: ServiceContext, actor: Actor, projectId: number): Promise<HeaderColumn[]> {
  const sees = seesGroups(actor, projectId)
  const fixed: HeaderColumn[] = fixedColumns
    .filter((c) => c !== 'group' || sees)
    .map((c) => ({ key: c, titleZh: fixedTitles[c][0], titleEn: fixedTitles[c][1], indicatorId: null, type: null, choices: [] }))
  const chosen = await chosenColumns(ctx, actor, projectId)
  if (chosen.length === 0) return fixed
  const all = await candidates(ctx, projectId)
  const fields = chosen.flatMap((id) => {
    const c = all.get(id)
    if (!c) return []
    const choices: Choice[] = c.field.options
    return [{ key: `f${id}`, titleZh: c.field.nameZh, titleEn: c.field.nameEn, indicatorId: id, type: c.field.type, choices }]
  })
  return [...fixed, ...fields]
}

/** SPEC getDisplayFieldList: every indicator that may be a column, with the caller's choice. */
export async function displayFieldList(ctx: ServiceContext, actor: Actor, projectId: number): Promise<DisplayField[]> {
  const [all, chosen] = await Promise.all([candidates(ctx, projectId), chosenColumns(ctx, actor, projectId)])
  return [...all.values()].map(({ field, templateId, templateName }) => {
    const at = chosen.indexOf(field.id)
    return {
      indicatorId: field.id,
      templateId,
      templateName,
      code: field.code,
      nameZh: field.nameZh,
      nameEn: field.nameEn,
      type: field.type,
      position: at < 0 ? null : at,
    }
  })
}

/** SPEC getDisplayFieldInfo: the caller's chosen columns, in order. */
export async function displayFieldInfo(ctx: ServiceContext, actor: Actor, projectId: number): Promise<DisplayFieldInfo> {
  return { indicatorIds: [...(await chosenColumns(ctx, actor, projectId))] }
}

/**
 * SPEC saveDisplayFieldInfo: the caller's columns for the project, each an indicator of a pinned
 * single-instance CRF; each column's expression index is made if no one made it before.
 */
export async function saveDisplayFields(ctx: ServiceContext, actor: Actor, input: SaveDisplayFieldInput): Promise<DisplayFieldInfo> {
  const seen = new Set<number>()
  for (const id of input.indicatorIds) {
    if (seen.has(id)) throw new ServiceError('badRequest', 'list.duplicateField', [id])
    seen.add(id)
  }
  const all = await candidates(ctx, input.studyId)
  const missing = input.indicatorIds.find((id) => !all.has(id))
  if (missing !== undefined) throw new ServiceError('badRequest', 'list.fieldNotOnForms', [missing])
  // The indexes first: a column is only saved once sorting by it is served by an index.
  for (const id of input.indicatorIds) await repo.ensureFieldIndex(ctx.db, id)
  await ctx.db.transaction().execute((tx) => repo.replaceListFields(tx, input.studyId, actor.user.id, input.indicatorIds))
  return { indicatorIds: [...input.indicatorIds] }
}

/**
 * SPEC studyObjectButtonAuthority. With `studyId`, from the caller's role in that project: the
 * same rules the routes' guard applies there; without it, from the system grants alone.
 */
export function projectButtonAuthority(actor: Actor, projectId: number | undefined): ButtonAuthority {
  if (projectId === undefined) return buttonAuthority(actor)
  const may = (action: Action) => can(actor, action, { type: 'subject', id: projectId })
  return {
    view: may('subject.list'),
    add: may('subject.enrol'),
    edit: may('subject.enter'),
    delete: may('subject.deleteForm'),
    sign: may('subject.sign'),
    export: holds(actor, 'subject.export') && may('subject.read'),
    unblind: may('subject.unblind'),
    import: holds(actor, 'dataLoad.import') && may('subject.enter'),
  }
}
