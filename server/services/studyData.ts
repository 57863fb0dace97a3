import { collectTypes, type CollectType, type TemplateVersion } from '../../contract/crf.ts'
import { fieldKindOf, isMultiKind } from '../../contract/fieldKind.ts'
import {
  fieldPath,
  isEmpty,
  labelOf,
  validateForm,
  visibleData,
  type FieldValue,
  type FormDefinition,
  type FormErrors,
  type Lang,
} from '../../contract/formValues.ts'
import type {
  DisplayForm,
  FormInstance,
  FormMode,
  FormNode,
  FormRowData,
  FormSave,
  FormSaved,
  FormTree,
  HistoryEntry,
  HistoryPage,
  RecordHead,
  RowDeleted,
  RowSaved,
  SaveConflict,
  SaveInvalid,
  StoredValues,
} from '../../contract/studyData.ts'
import { dataAuditActions, type DataAuditAction } from '../../contract/studyData.ts'
import type { z } from 'zod'
import type {
  formDeleteQuery,
  formListQuery,
  formQuery,
  historyQuery,
  rowDeleteInput,
  rowSaveInput,
  signInput,
} from '../../contract/studyData.ts'
import { fromJson, toJson } from '../db/json.ts'
import type { Q } from '../db/query.ts'
import { findProjectById } from '../db/repositories/projects.ts'
import { visitFormsOf } from '../db/repositories/followUp.ts'
import { maxDbInt } from '../../contract/ids.ts'
import * as repo from '../db/repositories/studyData.ts'
import { isMessageKey, message } from '../i18n/messages.ts'
import type { Actor } from './actor.ts'
import type { Actor as AuditActor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { membershipOf, type Action } from './policy.ts'
import { sampleIdOfSlot } from './samples.ts'
import { subjectFor } from './subjectAccess.ts'
import { getVersion } from './templates.ts'

/**
 * Data entry (issue 10 items 3–6): a subject's forms, one instance read against its own version
 * (a new one against the version the project pins), and saves validated with the client's own
 * rules (contract/formValues.ts), the dependent-field rule included. A save names the rev it was
 * read at and is refused (409, with the current values) when that is old; changing saved data
 * needs a reason and the editData authority; each changed field gets its own audit row in the
 * transaction that changes it. Every call reaches the subject only through subjectFor.
 */

type Values = Record<string, FieldValue>

// ---------------------------------------------------------------------------------------------
// The project's forms

export interface PinnedForm {
  templateId: number
  versionId: number
  name: string
  collectType: CollectType
  preposeIds: number[]
}

const collectTypeOf = (raw: string): CollectType => collectTypes.find((c) => c === raw) ?? 'other'

export function modeOf(collectType: CollectType): FormMode {
  if (collectType === 'followUp') return 'visit'
  if (collectType === 'biomaterial') return 'sample'
  return 'single'
}

/** The project's status, and its pinned forms in project order, each with the preposes the project also pins. */
async function projectForms(db: Q, projectId: number): Promise<{ active: boolean; forms: PinnedForm[] }> {
  const { status, forms, edges } = await repo.projectForms(db, projectId)
  return {
    active: status === 'active',
    forms: forms.map((r) => ({
      templateId: r.template_id,
      versionId: r.version_id,
      name: r.name,
      collectType: collectTypeOf(r.collect_type),
      preposeIds: edges.filter((e) => e.template_id === r.template_id).map((e) => e.prepose_id),
    })),
  }
}

export const pinnedForms = async (db: Q, projectId: number) => (await projectForms(db, projectId)).forms

/** The pinned form a call names; for a write, the project must be active too. */
async function pinnedForm(db: Q, projectId: number, templateId: number, write = false): Promise<PinnedForm> {
  const { active, forms } = await projectForms(db, projectId)
  if (write && !active) throw new ServiceError('conflict', 'subject.projectClosed')
  const form = forms.find((f) => f.templateId === templateId)
  if (!form) throw new ServiceError('notFound', 'form.notPinned', [templateId])
  return form
}

/** Prepose forms before the ones that depend on them, otherwise in the given order. */
export function preposeOrder<T extends { templateId: number; preposeIds: readonly number[] }>(forms: readonly T[]): T[] {
  const out: T[] = []
  const placed = new Set<number>()
  const left = [...forms]
  while (left.length > 0) {
    // The template service refuses prepose cycles; should one exist anyway, the rest keep their order.
    const i = Math.max(
      0,
      left.findIndex((f) => f.preposeIds.every((p) => placed.has(p) || !left.some((l) => l.templateId === p))),
    )
    const [f] = left.splice(i, 1)
    if (!f) break
    out.push(f)
    placed.add(f.templateId)
  }
  return out
}

async function assertActive(db: Q, projectId: number): Promise<void> {
  const p = await findProjectById(db, projectId)
  if (p?.status !== 'active') throw new ServiceError('conflict', 'subject.projectClosed')
}

/** Changing what was saved needs the member's editData authority (or the administrator). */
const mayEditSaved = (actor: Actor, projectId: number) =>
  actor.superuser || membershipOf(actor, projectId)?.authorities.has('editData') === true

// ---------------------------------------------------------------------------------------------
// Versions: published ones never change, so they are read once per database

const versionCache = new WeakMap<object, Map<number, TemplateVersion>>()

export async function versionById(ctx: ServiceContext, versionId: number): Promise<TemplateVersion> {
  let cache = versionCache.get(ctx.db)
  if (!cache) versionCache.set(ctx.db, (cache = new Map()))
  const hit = cache.get(versionId)
  if (hit) return hit
  const head = await repo.versionHead(ctx.db, versionId)
  // form_record.version_id and project_form.version_id reference template_version.
  if (!head) throw new Error(`template version ${versionId} is missing`)
  const v = await getVersion(ctx, head.template_id, head.version)
  if (v.state === 'published') {
    if (cache.size >= 1000) cache.clear()
    cache.set(versionId, v)
  }
  return v
}

const definitionOf = (v: TemplateVersion): FormDefinition => ({ layout: v.layout, indicators: v.indicators })

// ---------------------------------------------------------------------------------------------
// Rows ↔ contract

function recordHead(r: repo.RecordRow): RecordHead {
  return {
    id: r.id,
    templateId: r.template_id,
    versionId: r.version_id,
    slot: r.slot,
    visitId: r.visit_id,
    sampleId: r.sample_id,
    status: r.status === 'signed' ? 'signed' : 'saved',
    rev: r.rev,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by_name ?? '',
  }
}

const valuesOf = (raw: unknown): Values => fromJson<Values>(raw)

function rowsView(rows: readonly repo.RowRow[]): Record<string, FormRowData[]> {
  const out: Record<string, FormRowData[]> = {}
  for (const r of rows) (out[r.section_key] ??= []).push({ id: r.id, rev: r.rev, values: valuesOf(r.data) as StoredValues })
  return out
}

/** What is stored now, for a stale save's 409. */
function conflict(record: repo.RecordRow | undefined, rows: readonly repo.RowRow[]): ServiceError {
  const data: SaveConflict = {
    kind: 'conflict',
    current: {
      record: record ? recordHead(record) : null,
      values: record ? (valuesOf(record.data) as StoredValues) : {},
      rows: rowsView(rows),
    },
  }
  return new ServiceError('conflict', 'entry.stale', [record?.rev ?? 0], undefined, data)
}

// ---------------------------------------------------------------------------------------------
// Slots

const slotPatterns: Record<FormMode, RegExp> = { single: /^$/, visit: /^v[1-9]\d{0,9}$/, sample: /^s[1-9]\d{0,9}$/ }

/**
 * The instance a slot names, checked against what it points to: a visit of the project's schedule
 * that collects this form, or a sample of this subject.
 */
async function checkSlot(
  db: Q,
  target: { projectId: number; subjectId: number; templateId: number },
  mode: FormMode,
  slot: string,
): Promise<{ visitId: number | null; sampleId: number | null }> {
  if (!slotPatterns[mode].test(slot)) throw new ServiceError('badRequest', 'entry.badSlot', [slot])
  if (mode === 'sample') return { visitId: null, sampleId: await sampleIdOfSlot(db, target.subjectId, slot) }
  if (mode === 'single') return { visitId: null, sampleId: null }
  const visitId = Number(slot.slice(1))
  const forms = visitId <= maxDbInt ? await visitFormsOf(db, target.projectId) : []
  if (!forms.some((f) => f.visit_id === visitId && f.template_id === target.templateId)) {
    throw new ServiceError('badRequest', 'entry.visitSlot', [slot])
  }
  return { visitId, sampleId: null }
}

// ---------------------------------------------------------------------------------------------
// Display forms and the tree

export async function displayForms(ctx: ServiceContext, actor: Actor, projectId: number): Promise<DisplayForm[]> {
  const forms = preposeOrder(await pinnedForms(ctx.db, projectId))
  const chosen = await repo.displayRows(ctx.db, actor.user.id, projectId)
  const rank = new Map(chosen.map((c, i) => [c.template_id, i]))
  const shown = new Map(chosen.map((c) => [c.template_id, c.shown === 1]))
  const ordered = [...forms].sort((a, b) => (rank.get(a.templateId) ?? Infinity) - (rank.get(b.templateId) ?? Infinity))
  return ordered.map((f) => ({ ...f, shown: shown.get(f.templateId) ?? true }))
}

export async function saveDisplayForms(
  ctx: ServiceContext,
  actor: Actor,
  projectId: number,
  forms: readonly { templateId: number; shown: boolean }[],
): Promise<void> {
  const pinned = new Set((await pinnedForms(ctx.db, projectId)).map((f) => f.templateId))
  const seen = new Set<number>()
  for (const f of forms) {
    if (!pinned.has(f.templateId)) throw new ServiceError('badRequest', 'form.notPinned', [f.templateId])
    if (seen.has(f.templateId)) throw new ServiceError('badRequest', 'entry.formTwice', [f.templateId])
    seen.add(f.templateId)
  }
  await ctx.db.transaction().execute((tx) => repo.replaceDisplay(tx, actor.user.id, projectId, forms))
}

export async function formTree(ctx: ServiceContext, actor: Actor, q: { studyId: number; objectId: number }): Promise<FormTree> {
  const subject = await subjectFor(ctx.db, actor, 'subject.read', q.studyId, q.objectId)
  const forms = preposeOrder(await displayForms(ctx, actor, q.studyId))
  const records = await repo.recordsOfSubject(ctx.db, subject.id)
  const filled = new Set(records.map((r) => r.template_id))
  const nodes: FormNode[] = forms.map((f) => ({
    templateId: f.templateId,
    versionId: f.versionId,
    name: f.name,
    collectType: f.collectType,
    preposeIds: f.preposeIds,
    mode: modeOf(f.collectType),
    waitingFor: f.preposeIds.filter((p) => !filled.has(p)),
    records: records.filter((r) => r.template_id === f.templateId).map(recordHead),
  }))
  return { nodes }
}

export async function formList(ctx: ServiceContext, actor: Actor, q: z.infer<typeof formListQuery>): Promise<RecordHead[]> {
  const subject = await subjectFor(ctx.db, actor, 'subject.read', q.studyId, q.objectId)
  await pinnedForm(ctx.db, q.studyId, q.templateId)
  return (await repo.recordsOfSubject(ctx.db, subject.id, q.templateId)).map(recordHead)
}

// ---------------------------------------------------------------------------------------------
// One instance

/**
 * getOneFormInfo (subject.enter) and viewOneFormInfo (subject.read): a saved record read against
 * its own version, or the empty instance at `slot` against the pinned version.
 */
export async function formInstance(ctx: ServiceContext, actor: Actor, action: Action, q: z.infer<typeof formQuery>): Promise<FormInstance> {
  const subject = await subjectFor(ctx.db, actor, action, q.studyId, q.objectId)
  const form = await pinnedForm(ctx.db, q.studyId, q.templateId)
  let record: repo.RecordRow | undefined
  if (q.recordId !== undefined) {
    record = await repo.findRecord(ctx.db, subject.id, q.recordId)
    if (!record || record.template_id !== form.templateId) throw new ServiceError('notFound', 'entry.recordNotFound', [q.recordId])
  } else {
    const slot = q.slot ?? ''
    await checkSlot(ctx.db, { projectId: q.studyId, subjectId: subject.id, templateId: form.templateId }, modeOf(form.collectType), slot)
    record = await repo.findRecordAt(ctx.db, subject.id, form.templateId, slot)
  }
  const rows = record ? await repo.rowsOf(ctx.db, [record.id]) : []
  return {
    record: record ? recordHead(record) : null,
    values: record ? (valuesOf(record.data) as StoredValues) : {},
    rows: rowsView(rows),
    version: await versionById(ctx, record?.version_id ?? form.versionId),
  }
}

// ---------------------------------------------------------------------------------------------
// Changes and their audit rows

interface FieldChange {
  field: string
  old: FieldValue | undefined
  new: FieldValue | undefined
}

/** Only values worth keeping: an empty one is no value. */
function compact(values: Readonly<Record<string, FieldValue>>): Values {
  const out: Values = {}
  for (const [k, v] of Object.entries(values)) if (!isEmpty(v)) out[k] = v
  return out
}

const same = (a: FieldValue | undefined, b: FieldValue | undefined) => JSON.stringify(a) === JSON.stringify(b)

function diff(before: Values, after: Values): FieldChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
  return keys.filter((k) => !same(before[k], after[k])).map((k) => ({ field: k, old: before[k], new: after[k] }))
}

const actionOf = (c: FieldChange): DataAuditAction => (c.old === undefined ? 'create' : c.new === undefined ? 'clear' : 'update')
const json = (v: FieldValue | undefined) => (v === undefined ? null : toJson(v))

/** Who, when, from where, on what: the part every audit row of one call shares. */
interface AuditBase {
  at: string
  who: AuditActor
  projectId: number
  subjectId: number
  templateId: number
  versionId: number
  reason: string
}

function auditRow(
  b: AuditBase,
  e: { action: DataAuditAction; recordId: number; rowId?: number; sectionKey?: string; change?: FieldChange },
): repo.NewDataAudit {
  return {
    at: b.at,
    user_id: b.who.userId,
    username: b.who.username,
    ip: b.who.ip,
    project_id: b.projectId,
    subject_id: b.subjectId,
    record_id: e.recordId,
    row_id: e.rowId ?? null,
    template_id: b.templateId,
    version_id: b.versionId,
    section_key: e.sectionKey ?? null,
    field: e.change?.field ?? '',
    action: e.action,
    old_value: json(e.change?.old),
    new_value: json(e.change?.new),
    reason: b.reason,
  }
}

const fieldRows = (b: AuditBase, recordId: number, changes: readonly FieldChange[], rowId?: number, sectionKey?: string) =>
  changes.map((change) => auditRow(b, { action: actionOf(change), recordId, rowId, sectionKey, change }))

/** The subject's summary after a save of a single-instance form: its plain values keyed f<id>. */
function nextSummary(raw: unknown, changes: readonly FieldChange[]): string {
  const summary = fromJson<Record<string, string>>(raw)
  for (const c of changes) {
    if (c.new === undefined) delete summary[`f${c.field}`]
    else summary[`f${c.field}`] = typeof c.new === 'string' ? c.new : c.new.join('|')
  }
  return toJson(summary)
}

/** A changed saved value needs the editData authority, then a reason. */
export function checkSavedChange(actor: Actor, projectId: number, reason: string): void {
  if (!mayEditSaved(actor, projectId)) throw new ServiceError('forbidden', 'entry.editDenied')
  if (reason === '') throw new ServiceError('badRequest', 'entry.reasonRequired')
}

/** The first refused field as one message (the client marks all of them from `data`). */
function invalid(def: FormDefinition, errors: FormErrors, lang: Lang): ServiceError {
  const [path, ref] = Object.entries(errors)[0]!
  const parts = path.split(':')
  const indicatorId = Number(parts.at(-1))
  const f = def.indicators.find((i) => i.id === indicatorId)
  const label = f ? labelOf(f, lang) : String(indicatorId)
  const section = parts[0] === 'r' ? def.layout.sections.find((s) => s.key === parts[1]) : undefined
  const where = section ? message(lang, 'entry.rowField', [section.title || section.key, Number(parts[2]) + 1, label]) : label
  const text = isMessageKey(ref.key) ? message(lang, ref.key, ref.params ?? []) : ref.key
  const data: SaveInvalid = {
    kind: 'invalid',
    errors: Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, { key: v.key, params: [...(v.params ?? [])] }])),
  }
  return new ServiceError('badRequest', 'entry.invalid', [where, text], undefined, data)
}

/** The fields of a version: plain ones, and each sub form's. */
function fieldsOf(v: TemplateVersion) {
  const plain = new Set<string>()
  const sections = new Map<string, Set<string>>()
  for (const s of v.layout.sections) {
    const ids = s.items.map((i) => String(i.indicatorId))
    if (s.repeating) sections.set(s.key, new Set(ids))
    else for (const id of ids) plain.add(id)
  }
  return { plain, sections }
}
type VersionFields = ReturnType<typeof fieldsOf>

/**
 * Every value names a field of the version, in the part of the form it is sent under (`part`:
 * null for the plain fields, else a sub form's key), and has its field's shape: a list of codes
 * for a multiple choice, one string otherwise.
 */
function checkValues(
  values: Readonly<Record<string, FieldValue>>,
  part: string | null,
  fields: VersionFields,
  v: TemplateVersion,
  lang: Lang,
): void {
  const allowed = part === null ? fields.plain : fields.sections.get(part)
  for (const [k, value] of Object.entries(values)) {
    if (!allowed?.has(k)) throw misplaced(k, part, fields, v, lang)
    const f = v.indicators.find((i) => String(i.id) === k)
    if (f && isMultiKind(fieldKindOf(f)) !== Array.isArray(value))
      throw new ServiceError('badRequest', 'entry.wrongShape', [labelOf(f, lang)])
  }
}

/** A value sent under a part of the form its field is not in: on another part of the version, or not on it at all. */
function misplaced(k: string, sentUnder: string | null, fields: VersionFields, v: TemplateVersion, lang: Lang): ServiceError {
  const home = fields.plain.has(k) ? null : [...fields.sections].find(([, ids]) => ids.has(k))?.[0]
  const f = v.indicators.find((i) => String(i.id) === k)
  if (home === undefined || !f) return new ServiceError('badRequest', 'entry.unknownField', [k, v.version])
  const partName = (part: string | null) => {
    if (part === null) return message(lang, 'entry.part.main')
    const section = v.layout.sections.find((x) => x.key === part)
    return message(lang, 'entry.part.sub', [section?.title || part])
  }
  return new ServiceError('badRequest', 'entry.wrongSection', [labelOf(f, lang), partName(home), partName(sentUnder)])
}

// ---------------------------------------------------------------------------------------------
// saveOneFormInfo

interface IntendedRow {
  id?: number | undefined
  rev?: number | undefined
  values: Readonly<Record<string, FieldValue>>
}

export async function saveForm(ctx: ServiceContext, actor: Actor, who: AuditActor, lang: Lang, input: FormSave): Promise<FormSaved> {
  const subject = await subjectFor(ctx.db, actor, 'subject.enter', input.studyId, input.objectId)
  const form = await pinnedForm(ctx.db, input.studyId, input.templateId, true)
  const mode = modeOf(form.collectType)
  // The version is read before the transaction, so as not to hold SQLite's one writer for it.
  const seen = input.recordId !== undefined ? await repo.findRecord(ctx.db, subject.id, input.recordId) : undefined
  if (input.recordId !== undefined && (!seen || seen.template_id !== form.templateId)) {
    throw new ServiceError('notFound', 'entry.recordNotFound', [input.recordId])
  }
  const slot = seen?.slot ?? input.slot
  const { visitId, sampleId } = seen
    ? { visitId: seen.visit_id, sampleId: seen.sample_id }
    : await checkSlot(ctx.db, { projectId: input.studyId, subjectId: subject.id, templateId: form.templateId }, mode, slot)
  const atSlot = seen ?? (await repo.findRecordAt(ctx.db, subject.id, form.templateId, slot))
  const version = await versionById(ctx, atSlot?.version_id ?? form.versionId)
  const def = definitionOf(version)
  const fields = fieldsOf(version)
  checkValues(input.values, null, fields, version, lang)
  for (const [key, rows] of Object.entries(input.rows ?? {})) {
    const allowed = fields.sections.get(key)
    if (!allowed) throw new ServiceError('badRequest', 'entry.unknownSection', [key, version.version])
    for (const r of rows) checkValues(r.values, key, fields, version, lang)
  }
  const reason = input.reason ?? ''
  const at = ctx.now().toISOString()

  return ctx.db.transaction().execute(async (tx) => {
    const locked = await repo.lockSubject(tx, subject.id)
    const record = await repo.findRecordAt(tx, subject.id, form.templateId, slot)
    const current = record ? await repo.rowsOf(tx, [record.id]) : []
    // The record named was deleted (and its slot perhaps saved anew) since it was read.
    const replaced = input.recordId !== undefined && record?.id !== input.recordId
    if (replaced || (record?.rev ?? 0) !== input.rev || (record?.version_id ?? form.versionId) !== version.id)
      throw conflict(record, current)

    // The rows the record is to hold per sub form: those sent, else the stored ones as they are.
    const intended = new Map<string, IntendedRow[]>()
    for (const key of fields.sections.keys()) {
      const sent = input.rows?.[key]
      const stored = current.filter((r) => r.section_key === key)
      if (!sent) {
        intended.set(
          key,
          stored.map((r) => ({ id: r.id, rev: r.rev, values: valuesOf(r.data) })),
        )
        continue
      }
      const listed = new Set<number>()
      for (const r of sent) {
        if (r.id === undefined) continue
        const mine = stored.find((s) => s.id === r.id)
        if (!mine) throw new ServiceError('badRequest', 'entry.rowNotFound', [r.id, key])
        if (r.rev === undefined) throw new ServiceError('badRequest', 'entry.rowRevRequired', [r.id])
        if (listed.has(r.id)) throw new ServiceError('badRequest', 'entry.rowTwice', [r.id])
        listed.add(r.id)
        if (r.rev !== mine.rev) throw conflict(record, current)
      }
      intended.set(key, sent)
    }

    // Hidden fields' values are dropped (the dependent-field rule), then every shown one is checked.
    const clean = visibleData(def, {
      values: input.values,
      rows: Object.fromEntries([...intended].map(([k, rows]) => [k, rows.map((r) => r.values)])),
    })
    const errors = validateForm(def, clean, lang)
    if (Object.keys(errors).length > 0) throw invalid(def, errors, lang)

    const values = compact(clean.values)
    const plain = diff(record ? valuesOf(record.data) : {}, values)
    let savedChanged = record !== undefined && plain.some((c) => c.old !== undefined)

    interface RowPlan {
      key: string
      sort: number
      stored?: repo.RowRow
      values: Values
      changes: FieldChange[]
    }
    const plans: RowPlan[] = []
    const deleted: repo.RowRow[] = []
    for (const [key, rows] of intended) {
      const cleanRows = clean.rows[key] ?? []
      rows.forEach((r, sort) => {
        const stored = r.id === undefined ? undefined : current.find((s) => s.id === r.id)
        const after = compact(cleanRows[sort] ?? {})
        const changes = diff(stored ? valuesOf(stored.data) : {}, after)
        if (stored && changes.some((c) => c.old !== undefined)) savedChanged = true
        plans.push({ key, sort, stored, values: after, changes })
      })
      const kept = new Set(rows.flatMap((r) => (r.id === undefined ? [] : [r.id])))
      deleted.push(...current.filter((s) => s.section_key === key && !kept.has(s.id)))
    }
    // A signed form's signature goes with any change, so any change to it is a change of saved data.
    if (deleted.length > 0 || record?.status === 'signed') savedChanged = true
    // A changed order of saved rows is a change of saved data: audited as the row ids before and after.
    const gone = new Set(deleted.map((r) => r.id))
    const reordered = [...intended.keys()].flatMap((key) => {
      const before = current.filter((r) => r.section_key === key && !gone.has(r.id)).map((r) => String(r.id))
      const after = plans.flatMap((p) => (p.key === key && p.stored ? [String(p.stored.id)] : []))
      return same(before, after) ? [] : [{ key, change: { field: '', old: before, new: after } }]
    })
    if (reordered.length > 0) savedChanged = true
    const rowsChanged = deleted.length > 0 || reordered.length > 0 || plans.some((p) => !p.stored || p.changes.length > 0)
    if (record && plain.length === 0 && !rowsChanged) {
      // Only the numbering of rows closes up (after a row call deleted one): their order stays.
      for (const p of plans) if (p.stored && p.stored.sort !== p.sort) await repo.moveRow(tx, p.stored.id, p.sort)
      return { record: recordHead(record), rows: savedRows(plans), changed: 0 }
    }
    if (savedChanged) checkSavedChange(actor, input.studyId, reason)

    let recordId: number
    if (record) {
      if (!(await repo.updateRecordData(tx, record.id, record.rev, toJson(values), who.userId, at))) throw conflict(record, current)
      recordId = record.id
    } else {
      const id = await repo.insertRecord(tx, {
        project_id: subject.project_id,
        subject_id: subject.id,
        center_id: subject.center_id,
        queue_id: subject.queue_id,
        template_id: form.templateId,
        version_id: version.id,
        slot,
        visit_id: visitId,
        sample_id: sampleId,
        data: toJson(values),
        user_id: who.userId,
        at,
      })
      if (id === undefined) throw conflict(await repo.findRecordAt(tx, subject.id, form.templateId, slot), [])
      recordId = id
    }
    const base: AuditBase = {
      at,
      who,
      projectId: subject.project_id,
      subjectId: subject.id,
      templateId: form.templateId,
      versionId: version.id,
      reason,
    }
    const audit: repo.NewDataAudit[] = []
    if (!record) audit.push(auditRow(base, { action: 'create', recordId }))
    audit.push(...fieldRows(base, recordId, plain))

    for (const r of deleted) {
      if (!(await repo.deleteRowById(tx, r.id, r.rev))) throw conflict(record, current)
      audit.push(auditRow(base, { action: 'rowDelete', recordId, rowId: r.id, sectionKey: r.section_key }))
      audit.push(...fieldRows(base, recordId, diff(valuesOf(r.data), {}), r.id, r.section_key))
    }
    for (const r of reordered) audit.push(auditRow(base, { action: 'rowOrder', recordId, sectionKey: r.key, change: r.change }))
    const written: { key: string; id: number; rev: number }[] = []
    for (const p of plans) {
      if (!p.stored) {
        const id = await repo.insertRow(tx, {
          record_id: recordId,
          section_key: p.key,
          sort: p.sort,
          data: toJson(p.values),
          user_id: who.userId,
          at,
        })
        audit.push(auditRow(base, { action: 'rowAdd', recordId, rowId: id, sectionKey: p.key }))
        audit.push(...fieldRows(base, recordId, p.changes, id, p.key))
        written.push({ key: p.key, id, rev: 1 })
      } else if (p.changes.length > 0) {
        const ok = await repo.updateRow(tx, p.stored.id, p.stored.rev, { data: toJson(p.values), sort: p.sort }, who.userId, at)
        if (!ok) throw conflict(record, current)
        audit.push(...fieldRows(base, recordId, p.changes, p.stored.id, p.key))
        written.push({ key: p.key, id: p.stored.id, rev: p.stored.rev + 1 })
      } else {
        if (p.stored.sort !== p.sort) await repo.moveRow(tx, p.stored.id, p.sort)
        written.push({ key: p.key, id: p.stored.id, rev: p.stored.rev })
      }
    }
    await repo.appendDataAudit(tx, audit)
    await repo.setSubjectSummary(tx, subject.id, mode === 'single' && plain.length > 0 ? nextSummary(locked.summary, plain) : undefined, at)

    const rows: FormSaved['rows'] = {}
    for (const w of written) (rows[w.key] ??= []).push({ id: w.id, rev: w.rev })
    const head: RecordHead = {
      id: recordId,
      templateId: form.templateId,
      versionId: version.id,
      slot,
      visitId: record?.visit_id ?? visitId,
      sampleId: record?.sample_id ?? sampleId,
      status: 'saved',
      rev: (record?.rev ?? 0) + 1,
      updatedAt: at,
      updatedBy: who.username,
    }
    return { record: head, rows, changed: audit.length }
  })
}

function savedRows(plans: readonly { key: string; stored?: repo.RowRow }[]): FormSaved['rows'] {
  const rows: FormSaved['rows'] = {}
  for (const p of plans) if (p.stored) (rows[p.key] ??= []).push({ id: p.stored.id, rev: p.stored.rev })
  return rows
}

// ---------------------------------------------------------------------------------------------
// saveOneRowInfo / deleteOneRowInfo

/** The record a row call names, its version, and the sub form's fields. */
async function rowTarget(ctx: ServiceContext, actor: Actor, input: { studyId: number; objectId: number; recordId: number }) {
  const subject = await subjectFor(ctx.db, actor, 'subject.enter', input.studyId, input.objectId)
  await assertActive(ctx.db, input.studyId)
  const record = await repo.findRecord(ctx.db, subject.id, input.recordId)
  if (!record) throw new ServiceError('notFound', 'entry.recordNotFound', [input.recordId])
  const version = await versionById(ctx, record.version_id)
  return { subject, record, version }
}

/** A row call changed the record: it moves to its next rev (a signature no longer holds). */
async function bumpRecord(
  tx: Q,
  record: repo.RecordRow,
  current: readonly repo.RowRow[],
  who: AuditActor,
  at: string,
): Promise<RecordHead> {
  if (!(await repo.updateRecordData(tx, record.id, record.rev, undefined, who.userId, at))) throw conflict(record, current)
  return recordHead({ ...record, rev: record.rev + 1, status: 'saved', updated_at: at, updated_by_name: who.username })
}

export async function saveRow(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  lang: Lang,
  input: z.infer<typeof rowSaveInput>,
): Promise<RowSaved> {
  const { subject, record: seen, version } = await rowTarget(ctx, actor, input)
  const def = definitionOf(version)
  const fields = fieldsOf(version)
  if (!fields.sections.has(input.sectionKey))
    throw new ServiceError('badRequest', 'entry.unknownSection', [input.sectionKey, version.version])
  checkValues(input.row.values, input.sectionKey, fields, version, lang)
  const reason = input.reason ?? ''
  const at = ctx.now().toISOString()
  return ctx.db.transaction().execute(async (tx) => {
    await repo.lockSubject(tx, subject.id)
    const record = await repo.findRecord(tx, subject.id, seen.id)
    if (!record) throw new ServiceError('notFound', 'entry.recordNotFound', [seen.id])
    const current = await repo.rowsOf(tx, [record.id])
    if (record.rev !== input.recordRev) throw conflict(record, current)
    const section = current.filter((r) => r.section_key === input.sectionKey)
    const stored = input.row.id === undefined ? undefined : section.find((r) => r.id === input.row.id)
    if (input.row.id !== undefined && !stored) throw new ServiceError('badRequest', 'entry.rowNotFound', [input.row.id, input.sectionKey])
    if (stored && input.row.rev === undefined) throw new ServiceError('badRequest', 'entry.rowRevRequired', [stored.id])
    if (stored && input.row.rev !== stored.rev) throw conflict(record, current)

    const index = stored ? section.indexOf(stored) : section.length
    const rows = section.map((r) => valuesOf(r.data) as Readonly<Record<string, FieldValue>>)
    rows[index] = input.row.values
    const clean = visibleData(def, { values: valuesOf(record.data), rows: { [input.sectionKey]: rows } })
    const prefix = fieldPath(0, input.sectionKey, index).replace(/0$/, '')
    const errors = Object.fromEntries(Object.entries(validateForm(def, clean, lang)).filter(([k]) => k.startsWith(prefix)))
    if (Object.keys(errors).length > 0) throw invalid(def, errors, lang)

    const after = compact(clean.rows[input.sectionKey]?.[index] ?? {})
    const changes = diff(stored ? valuesOf(stored.data) : {}, after)
    if (stored && changes.length === 0) return { row: { id: stored.id, rev: stored.rev }, record: recordHead(record) }
    if ((stored && changes.some((c) => c.old !== undefined)) || record.status === 'signed') checkSavedChange(actor, input.studyId, reason)

    const base: AuditBase = {
      at,
      who,
      projectId: subject.project_id,
      subjectId: subject.id,
      templateId: record.template_id,
      versionId: record.version_id,
      reason,
    }
    const audit: repo.NewDataAudit[] = []
    const head = await bumpRecord(tx, record, current, who, at)
    let out: { id: number; rev: number }
    if (stored) {
      if (!(await repo.updateRow(tx, stored.id, stored.rev, { data: toJson(after) }, who.userId, at))) throw conflict(record, current)
      out = { id: stored.id, rev: stored.rev + 1 }
    } else {
      const sort = await repo.nextRowSort(tx, record.id, input.sectionKey)
      const id = await repo.insertRow(tx, {
        record_id: record.id,
        section_key: input.sectionKey,
        sort,
        data: toJson(after),
        user_id: who.userId,
        at,
      })
      audit.push(auditRow(base, { action: 'rowAdd', recordId: record.id, rowId: id, sectionKey: input.sectionKey }))
      out = { id, rev: 1 }
    }
    audit.push(...fieldRows(base, record.id, changes, out.id, input.sectionKey))
    await repo.appendDataAudit(tx, audit)
    await repo.setSubjectSummary(tx, subject.id, undefined, at)
    return { row: out, record: head }
  })
}

export async function deleteRow(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  input: z.infer<typeof rowDeleteInput>,
): Promise<RowDeleted> {
  const { subject, record: seen } = await rowTarget(ctx, actor, input)
  const reason = input.reason ?? ''
  const at = ctx.now().toISOString()
  return ctx.db.transaction().execute(async (tx) => {
    await repo.lockSubject(tx, subject.id)
    const record = await repo.findRecord(tx, subject.id, seen.id)
    if (!record) throw new ServiceError('notFound', 'entry.recordNotFound', [seen.id])
    const current = await repo.rowsOf(tx, [record.id])
    const row = current.find((r) => r.id === input.rowId)
    if (!row) throw new ServiceError('badRequest', 'entry.rowMissing', [input.rowId])
    if (row.rev !== input.rev || record.rev !== input.recordRev) throw conflict(record, current)
    checkSavedChange(actor, input.studyId, reason)
    if (!(await repo.deleteRowById(tx, row.id, row.rev))) throw conflict(record, current)
    const head = await bumpRecord(tx, record, current, who, at)
    const base: AuditBase = {
      at,
      who,
      projectId: subject.project_id,
      subjectId: subject.id,
      templateId: record.template_id,
      versionId: record.version_id,
      reason,
    }
    await repo.appendDataAudit(tx, [
      auditRow(base, { action: 'rowDelete', recordId: record.id, rowId: row.id, sectionKey: row.section_key }),
      ...fieldRows(base, record.id, diff(valuesOf(row.data), {}), row.id, row.section_key),
    ])
    await repo.setSubjectSummary(tx, subject.id, undefined, at)
    return { record: head }
  })
}

// ---------------------------------------------------------------------------------------------
// delStudyObjectForm and signing

export async function deleteForm(ctx: ServiceContext, actor: Actor, who: AuditActor, q: z.infer<typeof formDeleteQuery>): Promise<void> {
  const subject = await subjectFor(ctx.db, actor, 'subject.deleteForm', q.studyId, q.objectId)
  await assertActive(ctx.db, q.studyId)
  const seen = await repo.findRecord(ctx.db, subject.id, q.recordId)
  if (!seen) throw new ServiceError('notFound', 'entry.recordNotFound', [q.recordId])
  const pinned = (await pinnedForms(ctx.db, q.studyId)).find((f) => f.templateId === seen.template_id)
  const single = pinned === undefined || modeOf(pinned.collectType) === 'single'
  const reason = q.reason ?? ''
  const at = ctx.now().toISOString()
  await ctx.db.transaction().execute(async (tx) => {
    const locked = await repo.lockSubject(tx, subject.id)
    const record = await repo.findRecord(tx, subject.id, seen.id)
    if (!record) throw new ServiceError('notFound', 'entry.recordNotFound', [seen.id])
    if (record.status === 'signed') throw new ServiceError('conflict', 'entry.signedLocked')
    if (reason === '') throw new ServiceError('badRequest', 'entry.reasonRequired')
    const rows = await repo.rowsOf(tx, [record.id])
    const base: AuditBase = {
      at,
      who,
      projectId: subject.project_id,
      subjectId: subject.id,
      templateId: record.template_id,
      versionId: record.version_id,
      reason,
    }
    const plain = diff(valuesOf(record.data), {})
    const audit = [auditRow(base, { action: 'formDelete', recordId: record.id }), ...fieldRows(base, record.id, plain)]
    for (const r of rows) {
      audit.push(auditRow(base, { action: 'rowDelete', recordId: record.id, rowId: r.id, sectionKey: r.section_key }))
      audit.push(...fieldRows(base, record.id, diff(valuesOf(r.data), {}), r.id, r.section_key))
    }
    await repo.deleteRecordRow(tx, record.id)
    await repo.appendDataAudit(tx, audit)
    await repo.setSubjectSummary(tx, subject.id, single && plain.length > 0 ? nextSummary(locked.summary, plain) : undefined, at)
  })
}

export async function signRecord(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  recordId: number,
  input: z.infer<typeof signInput>,
): Promise<RecordHead> {
  const notFound = () => new ServiceError('notFound', 'entry.recordNotFound', [recordId])
  const seen = await repo.findProjectRecord(ctx.db, projectId, recordId)
  if (!seen) throw notFound()
  // Another center's record reads as one that does not exist: neither its existence nor its subject is told.
  const subject = await subjectFor(ctx.db, actor, 'subject.sign', projectId, seen.subject_id).catch((err: unknown) => {
    throw err instanceof ServiceError && err.kind === 'notFound' ? notFound() : err
  })
  await assertActive(ctx.db, projectId)
  const at = ctx.now().toISOString()
  return ctx.db.transaction().execute(async (tx) => {
    await repo.lockSubject(tx, subject.id)
    const record = await repo.findRecord(tx, subject.id, recordId)
    if (!record) throw new ServiceError('notFound', 'entry.recordNotFound', [recordId])
    if (record.status === 'signed') throw new ServiceError('conflict', 'entry.alreadySigned')
    if (record.rev !== input.rev || !(await repo.signRecordRow(tx, record.id, record.rev, who.userId, at))) {
      throw conflict(record, await repo.rowsOf(tx, [record.id]))
    }
    const base: AuditBase = {
      at,
      who,
      projectId,
      subjectId: subject.id,
      templateId: record.template_id,
      versionId: record.version_id,
      reason: input.reason ?? '',
    }
    await repo.appendDataAudit(tx, [auditRow(base, { action: 'sign', recordId: record.id })])
    return recordHead((await repo.findRecord(tx, subject.id, recordId))!)
  })
}

// ---------------------------------------------------------------------------------------------
// The audit trail

const isAuditAction = (a: string): a is DataAuditAction => (dataAuditActions as readonly string[]).includes(a)
const parseValue = (raw: string | null): HistoryEntry['oldValue'] => (raw === null ? null : (JSON.parse(raw) as HistoryEntry['oldValue']))

export async function history(
  ctx: ServiceContext,
  actor: Actor,
  projectId: number,
  subjectId: number,
  q: z.infer<typeof historyQuery>,
): Promise<HistoryPage> {
  const subject = await subjectFor(ctx.db, actor, 'subject.read', projectId, subjectId)
  const rows = await repo.historyRows(ctx.db, {
    subjectId: subject.id,
    recordId: q.recordId,
    field: q.field === undefined ? undefined : String(q.field),
    rowId: q.rowId,
    before: q.before,
    limit: q.limit + 1,
  })
  const field = q.field === undefined ? undefined : String(q.field)
  const page = (
    await Promise.all(
      rows.slice(0, q.limit).map(async (r) => {
        if (field === undefined || r.field !== '' || r.action !== 'import' || r.record_id === null) return r
        // An upload's row stands for the record or sub-form row it created: here, for this field's value then.
        const value = await repo.valueSinceImport(ctx.db, { recordId: r.record_id, rowId: r.row_id, field, importId: r.id })
        return value === undefined || value === null ? [] : { ...r, field, new_value: value }
      }),
    )
  ).flat()
  // The trail stores ids: each field is named as the version it was saved against has it.
  const fieldNames = new Map<number, Map<string, { zh: string; en: string }>>()
  for (const versionId of new Set(page.filter((r) => r.field !== '' && r.version_id !== null).map((r) => r.version_id!))) {
    const v = await versionById(ctx, versionId)
    fieldNames.set(versionId, new Map(v.indicators.map((i) => [String(i.id), { zh: i.nameZh, en: i.nameEn }])))
  }
  const templateIds = [...new Set(page.flatMap((r) => (r.template_id === null ? [] : [r.template_id])))]
  const formNames = new Map((await repo.templateNames(ctx.db, templateIds)).map((t) => [t.id, t.name]))
  const rowIds = [...new Set(page.flatMap((r) => (r.row_id === null ? [] : [r.row_id])))]
  const places = new Map((await repo.rowPlaces(ctx.db, rowIds)).map((p) => [p.id, Number(p.place)]))
  const entries = page.map((r): HistoryEntry => {
    const named = r.version_id === null ? undefined : fieldNames.get(r.version_id)?.get(r.field)
    return {
      id: r.id,
      at: r.at,
      username: r.username,
      ip: r.ip,
      action: isAuditAction(r.action) ? r.action : 'update',
      recordId: r.record_id,
      rowId: r.row_id,
      rowNo: r.row_id === null ? null : (places.get(r.row_id) ?? null),
      templateId: r.template_id,
      versionId: r.version_id,
      sectionKey: r.section_key,
      field: r.field === '' ? null : Number(r.field),
      fieldNameZh: named?.zh ?? (r.field === '' ? '' : `#${r.field}`),
      fieldNameEn: named?.en ?? '',
      formName: (r.template_id === null ? undefined : formNames.get(r.template_id)) ?? '',
      oldValue: parseValue(r.old_value),
      newValue: parseValue(r.new_value),
      reason: r.reason,
    }
  })
  return { entries, nextBefore: rows.length > q.limit ? (rows[q.limit - 1]?.id ?? null) : null }
}
