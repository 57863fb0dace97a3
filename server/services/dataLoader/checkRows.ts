import type { TemplateVersion, VersionField } from '../../../contract/crf.ts'
import { dataLoadLimits, keyColumns, type CellError, type KeyColumn } from '../../../contract/dataLoader.ts'
import {
  fieldPath,
  fieldCheck,
  isEmpty,
  labelOf,
  validateForm,
  visibleData,
  type FieldValue,
  type FormDefinition,
  type Lang,
  type MessageRef,
} from '../../../contract/formValues.ts'
import type { StoredRecord, StoredRow } from '../../db/repositories/dataLoadWrite.ts'
import { fromJson } from '../../db/json.ts'
import { isMessageKey, message, type MessageKey } from '../../i18n/messages.ts'
import { ServiceError } from '../errors.ts'
import { fieldKindOf } from '../../../contract/fieldKind.ts'
import { hasInvisible, identifierText, invisibleKey } from '../../../contract/identifierText.ts'
import { subjectLimits } from '../../../contract/subjects.ts'
import { visitSlot } from '../../../contract/followUp.ts'
import { cellReader, hasSubForms, isLabelRow, type Column, type LoadForm, type SheetLayout } from './layout.ts'
import { isMissingDataCode } from './redcapRecords.ts'
import type { SheetBatch, SheetRow } from './model.ts'
import { columnName } from './readRows.ts'

/**
 * The check of an upload, row by row as the reader hands batches over: every cell against the
 * entry rules of the pinned CRF version (contract/formValues.ts, as a save checks them), every
 * key cell against the project (subjects in the caller's scope, visits, samples), duplicates
 * across the file. It collects every bad cell (up to dataLoadLimits.maxReportErrors) and, beside
 * them, the plan of what to write; nothing touches the database but reads.
 *
 * Rules chosen here (docs/DATA_LOADING.md):
 * - an empty cell leaves the stored value as it is (a template column left blank changes nothing);
 * - a value for a field the row's own values hide (the dependent-field rule) is refused, not
 *   silently dropped: the person meant something by it;
 * - stored values of fields the new values hide are dropped, as a save drops them.
 */

export type Values = Record<string, FieldValue>

export interface FieldChange {
  field: string
  old: FieldValue | undefined
  new: FieldValue | undefined
}

export interface KnownSubject {
  id: number
  subjectNo: string
  centerId: number
  queueId: number
  inScope: boolean
  /** Its list values were empty when read (the writer may then set them instead of merging). */
  summaryEmpty: boolean
}

/** A subject the upload enrols (enrol=true), by the first row that names it. */
export interface NewSubject {
  index: number
  subjectNo: string
  centerId: number
  queueId: number
  /** Single choices of its rows, offered as the randomization plan's factor answers. */
  factors: Map<number, string>
}

export type SubjectRef = { kind: 'known'; subject: KnownSubject } | { kind: 'new'; subject: NewSubject }

export interface PlannedRow {
  section: string
  sort: number
  stored?: StoredRow
  values: Values
  /** Against the stored row (every value, for a new row). */
  changes: FieldChange[]
}

export interface PlannedRecord {
  form: LoadForm
  subject: SubjectRef
  slot: string
  visitId: number | null
  sampleId: number | null
  stored?: StoredRecord
  values: Values
  /** Against the stored values; none for a new record (its values are all new). */
  changes: FieldChange[]
  rows: Map<string, PlannedRow>
}

/** What the rows checked since the writer last took the plan set: instances whose values were set, and sub-form rows. */
export interface PlanBatch {
  records: PlannedRecord[]
  rows: { record: PlannedRecord; row: PlannedRow }[]
}

/** What the checker reads from the project, once, before the first row. */
export interface ProjectFacts {
  /** The project's subjects of these numbers (those it has). */
  subjects(subjectNos: readonly string[]): Promise<KnownSubject[]>
  /** Center ids by code in lower case (codes are unique ignoring case); queue ids by key, also in lower case where that is unambiguous. */
  centers: Map<string, number>
  queues: Map<string, number>
  /** Centers and queues the caller may enrol into; null for every one; undefined: may not enrol. */
  enrolInto?: { centerIds: readonly number[] | null; queueIds: readonly number[] | null }
  /** Visit name → template id → visit id. */
  visits: Map<string, Map<number, number>>
  /** `<subjectId>|<sample number, lower case>` → sample id. */
  samples: Map<string, number>
  mayEditSaved: boolean
  /** Stored records of these subjects for the upload's CRFs, and stored rows of these records. */
  records(subjectIds: readonly number[]): Promise<StoredRecord[]>
  rows(recordIds: readonly number[]): Promise<StoredRow[]>
}

function compact(values: Readonly<Record<string, FieldValue>>): Values {
  const out: Values = {}
  for (const [k, v] of Object.entries(values)) if (!isEmpty(v)) out[k] = v
  return out
}

const same = (a: FieldValue | undefined, b: FieldValue | undefined) =>
  a === b || (typeof a !== 'string' && typeof b !== 'string' && JSON.stringify(a) === JSON.stringify(b))

const plainNumber = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/
const sameNumber = (a: string, b: string) => plainNumber.test(a) && plainNumber.test(b) && Number(a) === Number(b)

export function diff(before: Values, after: Values): FieldChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
  return keys.filter((k) => !same(before[k], after[k])).map((k) => ({ field: k, old: before[k], new: after[k] }))
}

/** A sheet as the checker reads it: which layout, and which file column holds which layout column. */
interface BoundSheet {
  layout: SheetLayout
  form: LoadForm
  def: FormDefinition
  /** The definition narrowed to this sub form's section (sub-form sheets). */
  sectionDef?: FormDefinition
  /** Layout column per file column (undefined: an empty header cell past the last column). */
  columns: (Column | undefined)[]
  keyAt: Map<string, number>
  /** Columns the header names: a value past them has no column to go to. */
  width: number
  fieldAt: Map<number, number>
  /** The file's field columns, each with its cell reader. */
  given: { key: string; at: number; read: (text: string) => FieldValue }[]
  /** The file's field columns checked alone (no required rule): a row that reaches no instance still has its cells named. */
  loose: PlainField[]
  /** Keys of the file's number fields. */
  numbers: string[]
  /** The layout's field columns, in layout order. */
  fields: VersionField[]
  /**
   * A main sheet of a form without dependent fields: its plain fields with their rules, checked
   * one by one (what visibleData and validateForm come to then, without their per-row set-up).
   */
  plain?: PlainField[]
  labelSkipped: boolean
}

/** A plain field of a form without dependent fields, its rules worked out once per sheet. */
interface PlainField {
  key: string
  code: string
  label: string
  /** Its column in the file, if the file has one. */
  at?: number
  read: (text: string) => FieldValue
  check: (value: FieldValue | undefined) => MessageRef | null
}

const noRecords: readonly StoredRecord[] = []

const definitionOf = (v: TemplateVersion): FormDefinition => ({ layout: v.layout, indicators: v.indicators })

export class RowChecker {
  readonly errors: CellError[] = []
  errorsTotal = 0
  rows = 0
  /** Instances of forms with sub forms, which later rows may join; by form, subject and slot. */
  readonly records = new Map<string, PlannedRecord>()
  /** Instances of forms without sub forms: passed to the writer and only counted here. */
  readonly tally = { created: 0, updated: 0, unchanged: 0 }
  /** By subject number in lower case: numbers are unique in a project ignoring case. */
  readonly newSubjects = new Map<string, NewSubject>()
  /** The CRFs the file's sheets are read into, in the file's order (the upload's record names them). */
  readonly templateIds = new Set<number>()
  /** Where each key was first seen: `<sheet>|<key>` → row. */
  private readonly firstRow = new Map<string, number>()
  private readonly sheets = new Map<string, BoundSheet>()
  private readonly storedBySubject = new Map<number, readonly StoredRecord[]>()
  private readonly storedRows = new Map<number, StoredRow[]>()
  /** New sub-form rows given so far, by instance and sub form: the next new one must follow them. */
  private readonly newRows = new Map<PlannedRecord, Map<string, number>>()
  private plan: PlanBatch = { records: [], rows: [] }
  /** The project's subjects by number in lower case; null: it has none of that number. */
  private readonly known = new Map<string, KnownSubject | null>()
  /** The user's cell behind a cell of the batch in hand, when its rows were mapped from their file (REDCap). */
  private origin: SheetBatch['origin']

  constructor(
    private readonly lang: Lang,
    private readonly facts: ProjectFacts,
    private readonly layoutOf: (sheet: string) => SheetLayout | undefined,
    private readonly forms: readonly LoadForm[],
    /** A REDCap record export: a refused value that is one of REDCap's missing-data codes is named as one. */
    private readonly redcap = false,
  ) {}

  private say(key: MessageKey, params: readonly (string | number)[] = []) {
    return message(this.lang, key, params)
  }

  /** The plan of the rows checked since the last call, for the writer. */
  takePlan(): PlanBatch {
    const out = this.plan
    this.plan = { records: [], rows: [] }
    return out
  }

  /** A bad cell as the user's file has it, found before the rows reach the checker (a REDCap column, say). */
  add(e: CellError): void {
    this.errorsTotal++
    if (this.errors.length < dataLoadLimits.maxReportErrors) this.errors.push(e)
  }

  /** A bad cell of ours, named as the user's file has it. */
  private bad(sheet: string, row: number, column: string, value: string, text: string): void {
    const ours = { sheet, row, column, value }
    this.add({ ...(this.origin ? this.origin(ours) : ours), message: text })
  }

  /** A field's refused value: its label and the rule's message, and what a REDCap missing-data code is. */
  private fieldProblem(label: string, value: string, ref: MessageRef): string {
    const text = this.say('dataLoad.fieldProblem', [label, this.refText(ref)])
    return this.redcap && isMissingDataCode(value) ? this.say('dataLoad.redcap.missingCode', [text, value.trim()]) : text
  }

  private refText(ref: MessageRef): string {
    return isMessageKey(ref.key)
      ? this.say(
          ref.key,
          (ref.params ?? []).map((p) => (typeof p === 'number' ? p : String(p))),
        )
      : ref.key
  }

  /** The header of a sheet: every cell a column of its layout, each once, the key columns there. */
  bind(sheet: string, header: readonly string[]): void {
    const layout = this.layoutOf(sheet)
    if (!layout) throw new ServiceError('badRequest', 'dataLoad.unknownSheet', [sheet])
    const form = this.forms.find((f) => f.templateId === layout.templateId)!
    this.templateIds.add(form.templateId)
    // A field may be coded like a key column (a REDCap `center`): a name then stands for several
    // columns, taken in layout order, key columns first, as templates and downloads write them.
    const byKey = new Map<string, Column[]>()
    for (const c of layout.columns) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c])
    const bound = new Set<Column>()
    const columns: (Column | undefined)[] = []
    const keyAt = new Map<string, number>()
    const fieldAt = new Map<number, number>()
    const where = sheet || form.name
    let last = header.length
    while (last > 0 && header[last - 1]!.trim() === '') last--
    // Every unknown column at once: a file with several is put right in one go.
    const unknown = header.slice(0, last).filter((c) => c.trim() !== '' && !byKey.has(c.trim()))
    if (unknown.length > 1)
      throw new ServiceError('badRequest', 'dataLoad.unknownColumns', [unknown.map((c) => `"${c.trim()}"`).join(', '), where])
    for (let i = 0; i < last; i++) {
      const code = header[i]!.trim()
      const named = byKey.get(code)
      if (!named)
        throw new ServiceError('badRequest', code === '' ? 'dataLoad.blankColumn' : 'dataLoad.unknownColumn', [code || i + 1, where])
      const c = named.find((x) => !bound.has(x))
      if (!c || (c.field && fieldAt.has(c.field.id))) throw new ServiceError('badRequest', 'dataLoad.duplicateColumn', [code, where])
      bound.add(c)
      columns.push(c)
      if (c.field) fieldAt.set(c.field.id, i)
      else keyAt.set(code, i)
    }
    const needed: KeyColumn[] = [
      keyColumns.subject,
      ...(layout.mode === 'visit' ? [keyColumns.visit] : layout.mode === 'sample' ? [keyColumns.sample] : []),
    ]
    if (layout.section !== '') needed.push(keyColumns.row)
    for (const k of needed) if (!keyAt.has(k)) throw new ServiceError('badRequest', 'dataLoad.missingColumn', [k, where])
    const def = definitionOf(form.version)
    const section = layout.section === '' ? undefined : def.layout.sections.find((s) => s.key === layout.section)
    this.sheets.set(sheet, {
      layout,
      form,
      def,
      sectionDef: section ? { ...def, layout: { ...def.layout, sections: [section] } } : undefined,
      columns,
      keyAt,
      width: last,
      fieldAt,
      given: [...fieldAt].map(([id, at]) => ({ key: String(id), at, read: cellReader(columns[at]!.field!) })),
      loose: [...fieldAt].map(([, at]) => {
        const f = columns[at]!.field!
        return {
          key: String(f.id),
          code: f.code,
          label: labelOf(f, this.lang),
          at,
          read: cellReader(f),
          check: fieldCheck(f, false, this.lang),
        }
      }),
      numbers: [...fieldAt].flatMap(([id, at]) => (fieldKindOf(columns[at]!.field!) === 'number' ? [String(id)] : [])),
      fields: layout.columns.flatMap((c) => (c.field ? [c.field] : [])),
      plain:
        section || form.version.indicators.some((f) => f.dependentFieldId !== null)
          ? undefined
          : plainItems(form.version).map(({ f, required }) => ({
              key: String(f.id),
              code: f.code,
              label: labelOf(f, this.lang),
              at: fieldAt.get(f.id),
              read: cellReader(f),
              check: fieldCheck(f, required, this.lang),
            })),
      labelSkipped: false,
    })
  }

  /** A batch of a bound sheet: stored records of its subjects read first, then each row checked. */
  async check(sheet: string, rows: readonly SheetRow[], origin?: SheetBatch['origin']): Promise<void> {
    const s = this.sheets.get(sheet)
    if (!s) throw new ServiceError('badRequest', 'dataLoad.unknownSheet', [sheet])
    this.origin = origin
    await this.prefetch(s, rows)
    for (const r of rows) {
      if (!s.labelSkipped) {
        s.labelSkipped = true
        if (isLabelRow(r.cells)) continue
      }
      if (r.cells.every((c) => c.trim() === '')) continue
      this.rows++
      if (r.cells.length > s.width) this.pastHeader(s, sheet, r)
      if (s.layout.section === '') this.mainRow(s, sheet, r)
      else this.subRow(s, sheet, r)
    }
  }

  private cell(s: BoundSheet, r: SheetRow, key: string): string {
    const i = s.keyAt.get(key)
    return i === undefined ? '' : (r.cells[i] ?? '').trim()
  }

  /** Values right of the last named column: refused, never dropped unread. */
  private pastHeader(s: BoundSheet, sheet: string, r: SheetRow): void {
    for (let i = s.width; i < r.cells.length; i++) {
      const value = r.cells[i]!
      if (value.trim() === '') continue
      const column = columnName(i + 1)
      this.bad(sheet, r.row, column, value, this.say('dataLoad.pastHeader', [column]))
    }
  }

  /** The row's subject number as entry keeps one (full-width read as ASCII, trimmed). */
  private subjectNo(s: BoundSheet, r: SheetRow): string {
    return identifierText(this.cell(s, r, keyColumns.subject))
  }

  /** The row's subject number as `known` and `newSubjects` hold it. */
  private subjectKey(s: BoundSheet, r: SheetRow): string {
    return this.subjectNo(s, r).toLowerCase()
  }

  private async prefetch(s: BoundSheet, rows: readonly SheetRow[]): Promise<void> {
    // By key, as first written: the database folds case with its own lower() (see subjectsNamed).
    const named = new Map<string, string>()
    for (const r of rows) {
      const no = this.subjectNo(s, r)
      const key = no.toLowerCase()
      if (no !== '' && !this.known.has(key) && !named.has(key)) named.set(key, no)
    }
    if (named.size > 0) {
      for (const k of await this.facts.subjects([...named.values()])) this.known.set(k.subjectNo.toLowerCase(), k)
      for (const key of named.keys()) if (!this.known.has(key)) this.known.set(key, null)
    }
    const mine = new Set<number>()
    const want = new Set<number>()
    for (const r of rows) {
      const known = this.known.get(this.subjectKey(s, r))
      if (!known?.inScope) continue
      mine.add(known.id)
      if (!this.storedBySubject.has(known.id)) want.add(known.id)
    }
    if (want.size > 0) {
      const found = new Map<number, StoredRecord[]>()
      for (const rec of await this.facts.records([...want])) {
        const mine = found.get(rec.subject_id)
        if (mine) mine.push(rec)
        else found.set(rec.subject_id, [rec])
      }
      // Most subjects of a large upload have none yet: they share one empty list.
      for (const id of want) this.storedBySubject.set(id, found.get(id) ?? noRecords)
    }
    if (s.layout.section === '') return
    // The batch's own subjects only: every subject read so far would make a long sheet's reads grow with its length.
    const recIds = new Set<number>()
    for (const id of mine)
      for (const rec of this.storedBySubject.get(id)!)
        if (rec.template_id === s.form.templateId && !this.storedRows.has(rec.id)) recIds.add(rec.id)
    if (recIds.size === 0) return
    const found = await this.facts.rows([...recIds])
    for (const id of recIds) this.storedRows.set(id, [])
    for (const row of found) this.storedRows.get(row.record_id)!.push(row)
  }

  /** The subject a row names: one in the caller's scope, or one to enrol; else the cell is refused. */
  private subjectOf(s: BoundSheet, sheet: string, r: SheetRow): SubjectRef | undefined {
    const no = this.subjectNo(s, r)
    const column = keyColumns.subject
    if (no === '') {
      this.bad(sheet, r.row, column, '', this.say('dataLoad.noSubject'))
      return undefined
    }
    const key = no.toLowerCase()
    const known = this.known.get(key) ?? undefined
    if (known?.inScope) return { kind: 'known', subject: known }
    const planned = this.newSubjects.get(key)
    if (planned) return { kind: 'new', subject: planned }
    // Another center's subject reads exactly like one that does not exist.
    const unknown = () => this.bad(sheet, r.row, column, no, this.say('dataLoad.unknownSubject', [no]))
    const into = this.facts.enrolInto
    if (known || !into || s.layout.section !== '') return void unknown()
    const centerCode = this.cell(s, r, keyColumns.center)
    const queueKey = this.cell(s, r, keyColumns.queue)
    if (centerCode === '' || queueKey === '') {
      this.bad(sheet, r.row, centerCode === '' ? keyColumns.center : keyColumns.queue, '', this.say('dataLoad.enrolNeeds', [no]))
      return undefined
    }
    const centerId = this.facts.centers.get(centerCode.toLowerCase())
    if (centerId === undefined || (into.centerIds && !into.centerIds.includes(centerId))) {
      this.bad(sheet, r.row, keyColumns.center, centerCode, this.say('dataLoad.badCenter', [centerCode]))
      return undefined
    }
    const queueId = this.facts.queues.get(queueKey) ?? this.facts.queues.get(queueKey.toLowerCase())
    if (queueId === undefined || (into.queueIds && !into.queueIds.includes(queueId))) {
      this.bad(sheet, r.row, keyColumns.queue, queueKey, this.say('dataLoad.badQueue', [queueKey]))
      return undefined
    }
    if (hasInvisible(no)) return void this.bad(sheet, r.row, column, no, this.say(invisibleKey, [column]))
    if (no.length > subjectLimits.subjectNo)
      return void this.bad(sheet, r.row, column, no, this.say('field.tooLong', [column, subjectLimits.subjectNo]))
    const subject: NewSubject = { index: this.newSubjects.size, subjectNo: no, centerId, queueId, factors: new Map() }
    this.newSubjects.set(key, subject)
    return { kind: 'new', subject }
  }

  /** The instance slot a row names: '' for a single form, the visit by name, the subject's sample by number. */
  private slotOf(s: BoundSheet, sheet: string, r: SheetRow, subject: SubjectRef) {
    const { mode, templateId } = s.layout
    if (mode === 'single') return { slot: '', visitId: null, sampleId: null }
    if (mode === 'visit') {
      const name = this.cell(s, r, keyColumns.visit)
      const visitId = this.facts.visits.get(name)?.get(templateId)
      if (visitId === undefined) return void this.bad(sheet, r.row, keyColumns.visit, name, this.say('dataLoad.unknownVisit', [name]))
      return { slot: visitSlot(visitId), visitId, sampleId: null }
    }
    const no = identifierText(this.cell(s, r, keyColumns.sample))
    const sampleId = subject.kind === 'known' ? this.facts.samples.get(`${subject.subject.id}|${no.toLowerCase()}`) : undefined
    if (sampleId === undefined) return void this.bad(sheet, r.row, keyColumns.sample, no, this.say('dataLoad.unknownSample', [no]))
    return { slot: `s${sampleId}`, visitId: null, sampleId }
  }

  /** A row's key seen once per sheet; a second row with it is refused naming the first. */
  private once(sheet: string, r: SheetRow, key: string): boolean {
    const k = `${sheet}|${key}`
    const first = this.firstRow.get(k)
    if (first !== undefined) {
      this.bad(
        sheet,
        r.row,
        keyColumns.subject,
        this.cell(this.sheets.get(sheet)!, r, keyColumns.subject),
        this.say('dataLoad.duplicateRow', [first, r.row]),
      )
      return false
    }
    this.firstRow.set(k, r.row)
    return true
  }

  /** The field cells of a row given (non-empty), as values to check. */
  private given(s: BoundSheet, r: SheetRow): Values {
    const out: Values = {}
    for (const g of s.given) {
      const text = r.cells[g.at] ?? ''
      if (text.trim() !== '') out[g.key] = g.read(text)
    }
    return out
  }

  private fieldCell(s: BoundSheet, r: SheetRow, id: number): { column: string; value: string } {
    const i = s.fieldAt.get(id)
    const f = s.form.version.indicators.find((x) => x.id === id)
    return { column: f?.code ?? String(id), value: i === undefined ? '' : (r.cells[i] ?? '') }
  }

  /** Refusals of stored values an upload may not change: signed forms, and saved data without editData. */
  private guardChanges(s: BoundSheet, sheet: string, r: SheetRow, changes: readonly FieldChange[], signed: boolean): void {
    for (const c of changes) {
      if (c.old === undefined && !signed) continue
      const key: MessageKey | undefined = signed ? 'dataLoad.signed' : this.facts.mayEditSaved ? undefined : 'entry.editDenied'
      if (!key) continue
      const at = this.fieldCell(s, r, Number(c.field))
      this.bad(sheet, r.row, at.column, at.value, this.say(key))
    }
  }

  private problems(
    s: BoundSheet,
    sheet: string,
    r: SheetRow,
    given: Values,
    shown: Values,
    errors: Record<string, MessageRef>,
    path: (id: number) => string,
  ) {
    for (const id of Object.keys(given)) {
      if (shown[id] !== undefined) continue
      const at = this.fieldCell(s, r, Number(id))
      const f = s.form.version.indicators.find((x) => String(x.id) === id)
      this.bad(sheet, r.row, at.column, at.value, this.say('dataLoad.hiddenField', [f ? labelOf(f, this.lang) : id]))
    }
    for (const f of s.fields) {
      const e = errors[path(f.id)]
      if (!e) continue
      const at = this.fieldCell(s, r, f.id)
      this.bad(sheet, r.row, at.column, at.value, this.fieldProblem(labelOf(f, this.lang), at.value, e))
    }
  }

  private storedAt(subject: SubjectRef, templateId: number, slot: string): StoredRecord | undefined {
    if (subject.kind === 'new') return undefined
    return this.storedBySubject.get(subject.subject.id)?.find((x) => x.template_id === templateId && x.slot === slot)
  }

  /** The filled cells of a row that reaches no instance (its subject or visit refused, or it repeats an earlier row), each checked alone. */
  private looseCells(s: BoundSheet, sheet: string, r: SheetRow): void {
    for (const p of s.loose) {
      const text = r.cells[p.at!] ?? ''
      if (text.trim() === '') continue
      const e = p.check(p.read(text))
      if (e) this.bad(sheet, r.row, p.code, text, this.fieldProblem(p.label, text, e))
    }
  }

  private mainRow(s: BoundSheet, sheet: string, r: SheetRow): void {
    const subject = this.subjectOf(s, sheet, r)
    if (!subject) return this.looseCells(s, sheet, r)
    const slot = this.slotOf(s, sheet, r, subject)
    if (!slot) return this.looseCells(s, sheet, r)
    if (!this.once(sheet, r, `${subject.subject.subjectNo}|${slot.slot}`)) return this.looseCells(s, sheet, r)
    const stored = this.storedAt(subject, s.form.templateId, slot.slot)
    const before = stored ? fromJson<Values>(stored.data) : undefined
    const values = s.plain ? this.plainValues(s.plain, sheet, r, before) : this.shownValues(s, sheet, r, before ?? {})
    if (before) keepSpelling(s, values, before)
    const changes = before ? diff(before, values) : []
    this.guardChanges(s, sheet, r, changes, stored?.status === 'signed' && changes.length > 0)
    if (subject.kind === 'new') for (const f of s.form.version.indicators) offerFactor(subject.subject, f, values[String(f.id)])
    const key = `${s.form.templateId}|${subject.subject.subjectNo}|${slot.slot}`
    // Sub-form rows may have started the instance already (a REDCap repeating instrument first).
    const started = this.records.get(key)
    const record = started ?? { form: s.form, subject, ...slot, stored, values, changes, rows: new Map() }
    if (started) {
      started.values = values
      started.changes = changes
    } else if (hasSubForms(s.form)) this.records.set(key, record)
    else this.tally[!stored ? 'created' : changes.length > 0 ? 'updated' : 'unchanged']++
    this.plan.records.push(record)
  }

  /** The values of a main-sheet row of a form without dependent fields: each cell read and checked by its field's own rules. */
  private plainValues(plain: readonly PlainField[], sheet: string, r: SheetRow, before: Values | undefined): Values {
    const values: Values = {}
    for (const p of plain) {
      let v: FieldValue | undefined
      const text = p.at === undefined ? undefined : r.cells[p.at]
      if (text !== undefined && text.trim() !== '') v = p.read(text)
      else if (before) v = before[p.key]
      const e = p.check(v)
      if (e) this.bad(sheet, r.row, p.code, text ?? '', this.fieldProblem(p.label, text ?? '', e))
      if (v !== undefined && !isEmpty(v)) values[p.key] = v
    }
    return values
  }

  /** The values of a main-sheet row by the dependent-field rule: what the merged values show, checked as a save checks them. */
  private shownValues(s: BoundSheet, sheet: string, r: SheetRow, before: Values): Values {
    const given = this.given(s, r)
    const shown = visibleData(s.def, { values: { ...before, ...given }, rows: {} }).values
    const errors = validateForm(s.def, { values: shown, rows: {} }, this.lang)
    this.problems(s, sheet, r, given, shown, errors, (id) => fieldPath(id))
    return compact(shown)
  }

  private subRow(s: BoundSheet, sheet: string, r: SheetRow): void {
    const subject = this.subjectOf(s, sheet, r)
    if (!subject) return this.looseCells(s, sheet, r)
    const slot = this.slotOf(s, sheet, r, subject)
    if (!slot) return this.looseCells(s, sheet, r)
    const rowText = this.cell(s, r, keyColumns.row)
    const n = /^[1-9]\d{0,5}$/.test(rowText) ? Number(rowText) : 0
    if (n === 0) return void this.bad(sheet, r.row, keyColumns.row, rowText, this.say('dataLoad.badRow'))
    if (!this.once(sheet, r, `${subject.subject.subjectNo}|${slot.slot}|${n}`)) return this.looseCells(s, sheet, r)
    const key = `${s.form.templateId}|${subject.subject.subjectNo}|${slot.slot}`
    let record = this.records.get(key)
    if (!record) {
      const stored = this.storedAt(subject, s.form.templateId, slot.slot)
      // Rows alone may start a form whose plain part asks for nothing (a REDCap repeating instrument).
      const plainRequired = s.form.version.layout.sections.some((x) => !x.repeating && x.items.some((i) => i.required))
      if (!stored && plainRequired)
        return void this.bad(sheet, r.row, keyColumns.subject, subject.subject.subjectNo, this.say('dataLoad.noInstance'))
      record = { form: s.form, subject, ...slot, stored, values: stored ? fromJson<Values>(stored.data) : {}, changes: [], rows: new Map() }
      this.records.set(key, record)
    }
    const section = s.layout.section
    const storedHere = record.stored ? (this.storedRows.get(record.stored.id)?.filter((x) => x.section_key === section) ?? []) : []
    const storedRow = storedHere[n - 1]
    if (!storedRow) {
      // Rows are numbered as a download numbers them, 1 to n: a new row past a gap (row 9 of a
      // subject with two) was stored third, and the same file loaded again added it once more.
      const added = this.newRows.get(record) ?? new Map<string, number>()
      this.newRows.set(record, added)
      const next = storedHere.length + (added.get(section) ?? 0) + 1
      if (n !== next) return void this.bad(sheet, r.row, keyColumns.row, rowText, this.say('dataLoad.rowGap', [n, storedHere.length, next]))
      added.set(section, n - storedHere.length)
    }
    const before = storedRow ? fromJson<Values>(storedRow.data) : {}
    const given = this.given(s, r)
    const def = s.sectionDef!
    const shown = visibleData(def, { values: record.values, rows: { [section]: [{ ...before, ...given }] } }).rows[section]![0]!
    const errors = validateForm(def, { values: record.values, rows: { [section]: [shown] } }, this.lang)
    this.problems(s, sheet, r, given, shown, errors, (id) => fieldPath(id, section, 0))
    const values = compact(shown)
    keepSpelling(s, values, before)
    const changes = diff(before, values)
    this.guardChanges(s, sheet, r, changes, record.stored?.status === 'signed' && changes.length > 0)
    const row: PlannedRow = { section, sort: storedRow?.sort ?? n - 1, stored: storedRow, values, changes }
    record.rows.set(`${section}|${n}`, row)
    this.plan.rows.push({ record, row })
  }
}

/**
 * A number cell that reads as the stored number in another spelling keeps the stored one: a
 * spreadsheet writes a downloaded 173.0 back as 173, and that is no change to audit.
 */
function keepSpelling(s: BoundSheet, values: Values, before: Values): void {
  for (const k of s.numbers) {
    const was = before[k]
    const now = values[k]
    if (typeof was === 'string' && typeof now === 'string' && was !== now && sameNumber(was, now)) values[k] = was
  }
}

/** The fields of a version's plain (not repeating) sections, in layout order. */
function plainItems(v: TemplateVersion) {
  const byId = new Map(v.indicators.map((f) => [f.id, f]))
  return v.layout.sections.flatMap((s) =>
    s.repeating
      ? []
      : s.items.flatMap((i) => {
          const f = byId.get(i.indicatorId)
          return f ? [{ f, required: i.required }] : []
        }),
  )
}

/** A single choice of a new subject's row, kept as a possible stratification answer. */
function offerFactor(subject: NewSubject, f: VersionField, v: FieldValue | undefined): void {
  if (typeof v === 'string' && f.options.length > 0 && !subject.factors.has(f.id)) subject.factors.set(f.id, v)
}
