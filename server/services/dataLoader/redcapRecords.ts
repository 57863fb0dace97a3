import type { VersionField } from '../../../contract/crf.ts'
import { keyColumns, type CellError, type UploadFormat } from '../../../contract/dataLoader.ts'
import { fieldKindOf, isMultiKind } from '../../../contract/fieldKind.ts'
import { visitsOf } from '../../db/repositories/followUp.ts'
import { message, type Lang, type MessageKey } from '../../i18n/messages.ts'
import type { ServiceContext } from '../context.ts'
import { layoutHeader, layoutSheet, sheetsOf, type LoadForm, type SheetLayout } from './layout.ts'
import type { SheetBatch, SheetRow } from './model.ts'

/**
 * REDCap records in (issue 11 item 3): REDCap's "CSV (raw data)" export, one flat table, turned
 * into the sheets of our one layout (layout.ts), so the upload checks and writes it as it would a
 * workbook of ours. The CRFs are those the REDCap data dictionary import made (one CRF per
 * instrument, named after it; one indicator per field, its code the variable name).
 *
 * | REDCap column                           | here                                                  |
 * |-----------------------------------------|-------------------------------------------------------|
 * | the first (record id, e.g. record_id)   | subject_id; also the field's value when a CRF has it  |
 * | redcap_event_name                       | visit: the mapping given, else a visit of that name,  |
 * |                                         | else of its label (`visit_1_arm_2` → "Visit 1")       |
 * | redcap_repeat_instrument / _instance    | a sub-form row (row = instance) when the field sits   |
 * |                                         | in a repeating section; without events, instance n of |
 * |                                         | a follow-up CRF is the n-th visit of the schedule     |
 * | a variable                              | the field of that code, in the CRF naming most of the |
 * |                                         | file's columns when several CRFs hold it              |
 * | field___code (checkbox)                 | the multiple choice value: the codes holding 1        |
 * | <instrument>_complete, _timestamp,      | ignored: form status and survey bookkeeping have no   |
 * | redcap_data_access_group,               | place here (centers and queues are the project's; a   |
 * | redcap_survey_identifier                | subject keeps the ones it was enrolled with)          |
 * | anything else                           | refused, the column named                             |
 *
 * A row fills a CRF when one of its fields (other than the record id) holds a value: REDCap writes
 * a row per record and event, and 0 into every checkbox column, filled or not. A sheet has the
 * columns the file names, no others: a field left out of the export is no column of it. Rows
 * keep the file's row numbers, so a bad cell is reported where the user sees it. A CRF entered
 * twice for the same subject and visit (and sub-form row) is refused with both rows named;
 * a repeating instrument of a CRF without a repeating section is refused where it would need a
 * second instance of what holds one (a once-only CRF, or a visit its event already names).
 */

export interface RedcapVisit {
  id: number
  name: string
}

export interface RedcapOptions {
  lang: Lang
  /** REDCap unique event name → our visit's name or id, before matching by name. */
  events?: Readonly<Record<string, string>>
  /** Every bad cell or column, in the user's language; the sheet is the REDCap file's. */
  problem: (e: CellError) => void
}

/** REDCap's own columns; the ignored ones carry nothing a CRF here can hold. */
const eventColumn = 'redcap_event_name'
const instrumentColumn = 'redcap_repeat_instrument'
const instanceColumn = 'redcap_repeat_instance'
const ignoredColumns = new Set(['redcap_data_access_group', 'redcap_survey_identifier'])
const bookkeeping = /_(complete|timestamp)$/
const redcapSignals = new Set([eventColumn, instrumentColumn, instanceColumn, ...ignoredColumns])

const batchRows = 1000

/**
 * Whether a header row is a REDCap record export rather than a sheet of ours: its first column is
 * no key column of ours, and it has REDCap's own columns, instrument status columns, or (given
 * the project's CRFs) a first column and another one that are field codes.
 */
export function isRedcapRecordHeader(header: readonly string[], forms: readonly LoadForm[] = []): boolean {
  const h = header.map((c) => c.trim().toLowerCase())
  const first = h[0] ?? ''
  if (first === '' || first === keyColumns.subject || first === layoutHeader[0]) return false
  if (h.some((c) => redcapSignals.has(c) || bookkeeping.test(c))) return true
  const codes = new Set(forms.flatMap((f) => f.version.indicators.map((i) => i.code.toLowerCase())))
  return codes.has(first) && h.slice(1).some((c) => codes.has(c) || codes.has(c.replace(/___.+$/, '')))
}

/** The schedule a file's events are matched against, in schedule order (instance n is visit n). */
export async function redcapVisits(ctx: ServiceContext, projectId: number): Promise<RedcapVisit[]> {
  return (await visitsOf(ctx.db, projectId)).map((v) => ({ id: v.id, name: v.name }))
}

/**
 * The sheets an upload loads: a REDCap record export (format 'redcap', or 'auto' and its header
 * says so) mapped by `redcapSheets`, anything else passed on as read.
 */
export async function* uploadSheets(
  forms: readonly LoadForm[],
  visits: readonly RedcapVisit[],
  batches: AsyncIterable<SheetBatch>,
  options: RedcapOptions & { format: UploadFormat },
): AsyncGenerator<SheetBatch> {
  const it = batches[Symbol.asyncIterator]()
  const first = await it.next()
  if (first.done) return
  async function* all(): AsyncGenerator<SheetBatch> {
    yield first.value as SheetBatch
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value
  }
  const head = first.value as SheetBatch
  const redcap = options.format === 'redcap' || (head.sheet !== layoutSheet && isRedcapRecordHeader(head.header ?? [], forms))
  yield* redcap ? redcapSheets(forms, visits, all(), options) : all()
}

/** A checkbox choice code as REDCap writes it in a column name: lower case, other characters '_'. */
const choicePart = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '_')

/**
 * A name reduced to what REDCap keeps of a label in a unique event name: its letters and digits
 * (REDCap drops some characters and turns others into '_', and shortens long labels).
 */
const eventStem = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')

interface FieldSource {
  field: VersionField
  /** The column of a plain field; -1 for a checkbox field. */
  index: number
  /** A checkbox field's columns, each with its choice code. */
  choices: { index: number; code: string }[]
  /** The record id column: its value alone does not fill the CRF. */
  recordId: boolean
}

interface Target {
  layout: SheetLayout
  form: LoadForm
  /** The key columns of its sheet. */
  keys: string[]
  fields: FieldSource[]
  rows: SheetRow[]
  /** subject · visit · row → the first file row that filled it. */
  seen: Map<string, number>
}

/**
 * The sheets of our layout for a REDCap record export (read as `batches`, one sheet): first the
 * `_layout` sheet naming what each one is, then each CRF's main and sub-form sheets that the
 * file fills. Problems go to `options.problem`; nothing is emitted when the header is unusable.
 */
export async function* redcapSheets(
  forms: readonly LoadForm[],
  visits: readonly RedcapVisit[],
  batches: AsyncIterable<SheetBatch>,
  options: RedcapOptions,
): AsyncGenerator<SheetBatch> {
  let sheet: string | undefined
  let plan: Plan | null = null
  let failed = false
  for await (const batch of batches) {
    if (sheet === undefined) {
      if (batch.sheet === layoutSheet) continue
      sheet = batch.sheet
    }
    if (batch.sheet !== sheet || failed) continue
    if (!plan) {
      plan = planColumns(forms, visits, batch.header ?? [], sheet, options)
      if (!plan) {
        failed = true
        continue
      }
    }
    for (const r of batch.rows) plan.take(r)
  }
  if (!plan) return
  const filled = plan.targets.filter((t) => t.rows.length > 0)
  yield {
    sheet: layoutSheet,
    header: [...layoutHeader],
    rows: filled.map((t, i) => ({
      row: i + 2,
      cells: [t.layout.name, String(t.layout.templateId), String(t.layout.versionId), t.layout.section],
    })),
  }
  for (const t of filled) {
    const header = [...t.keys, ...t.fields.map((f) => f.field.code)]
    for (let i = 0; i < t.rows.length; i += batchRows) {
      yield { sheet: t.layout.name, ...(i === 0 ? { header } : {}), rows: t.rows.slice(i, i + batchRows) }
    }
  }
}

interface Plan {
  targets: Target[]
  take: (r: SheetRow) => void
}

function planColumns(
  forms: readonly LoadForm[],
  visits: readonly RedcapVisit[],
  header: readonly string[],
  sheet: string,
  options: RedcapOptions,
): Plan | null {
  const problem = (row: number, column: string, value: string, key: MessageKey, params: (string | number)[] = []) =>
    options.problem({ sheet, row, column, value, message: message(options.lang, key, params) })
  const names = header.map((h) => h.trim())
  const lower = names.map((h) => h.toLowerCase())
  const recordColumn = names[0] ?? ''
  if (recordColumn === '' || redcapSignals.has(lower[0]!) || recordColumn === keyColumns.subject) {
    problem(1, recordColumn, recordColumn, 'dataLoad.redcap.noRecordId', [recordColumn])
    return null
  }

  // Where each field code sits: sheet layouts (a CRF's main sheet or one of its sub forms).
  const layouts = sheetsOf(forms)
  const formOf = new Map(forms.map((f) => [f.templateId, f]))
  const byCode = new Map<string, { layout: SheetLayout; field: VersionField }[]>()
  for (const layout of layouts)
    for (const c of layout.columns)
      if (c.field) {
        const code = c.field.code.toLowerCase()
        byCode.set(code, [...(byCode.get(code) ?? []), { layout, field: c.field }])
      }

  // Each column's candidate places; the columns REDCap adds of its own.
  const at = (name: string) => lower.indexOf(name)
  const eventAt = at(eventColumn)
  const instanceAt = at(instanceColumn)
  type Candidate = { layout: SheetLayout; field: VersionField; index: number; code: string | null }
  const candidates: Candidate[][] = []
  lower.forEach((name, index) => {
    if (index > 0 && (redcapSignals.has(name) || name === '')) return
    const plain = byCode.get(name)
    if (plain) {
      candidates.push(plain.map((p) => ({ ...p, index, code: null })))
      return
    }
    if (index === 0) return
    const box = /^(.+?)___(.+)$/.exec(name)
    const multi = box ? byCode.get(box[1]!)?.filter((p) => isMultiKind(fieldKindOf(p.field))) : undefined
    if (box && multi && multi.length > 0) {
      const option = multi[0]!.field.options.find((o) => o.code.toLowerCase() === box[2] || choicePart(o.code) === box[2])
      if (option) candidates.push(multi.map((p) => ({ ...p, index, code: option.code })))
      else problem(1, names[index]!, names[index]!, 'dataLoad.redcap.unknownChoice', [names[index]!, box[2]!, multi[0]!.field.code])
      return
    }
    if (bookkeeping.test(name)) return
    problem(1, names[index]!, names[index]!, 'dataLoad.redcap.unknownColumn', [names[index]!])
  })
  if (candidates.length === 0 || candidates.every((c) => c[0]!.index === 0)) {
    problem(1, recordColumn, recordColumn, 'dataLoad.redcap.noFields')
    return null
  }

  // A code several CRFs hold belongs to the one naming most of the file's columns (REDCap has
  // each variable on one instrument), the earlier one on a tie.
  const weight = new Map<number, number>()
  for (const c of candidates) for (const id of new Set(c.map((p) => p.layout.templateId))) weight.set(id, (weight.get(id) ?? 0) + 1)
  const order = new Map(forms.map((f, i) => [f.templateId, i]))
  const targets = new Map<SheetLayout, Target>()
  const sampleForms = new Set<number>()
  for (const c of candidates) {
    const best = [...c].sort(
      (a, b) =>
        (weight.get(b.layout.templateId) ?? 0) - (weight.get(a.layout.templateId) ?? 0) ||
        order.get(a.layout.templateId)! - order.get(b.layout.templateId)!,
    )[0]!
    const form = formOf.get(best.layout.templateId)!
    if (form.mode === 'sample') {
      if (!sampleForms.has(form.templateId)) problem(1, names[best.index]!, names[best.index]!, 'dataLoad.redcap.sampleForm', [form.name])
      sampleForms.add(form.templateId)
      continue
    }
    const target: Target = targets.get(best.layout) ?? {
      layout: best.layout,
      form,
      keys: best.layout.columns.filter((c) => c.kind === 'key').map((c) => c.key),
      fields: [],
      rows: [],
      seen: new Map(),
    }
    targets.set(best.layout, target)
    const source = target.fields.find((f) => f.field.id === best.field.id)
    if (best.code === null) target.fields.push({ field: best.field, index: best.index, choices: [], recordId: best.index === 0 })
    else if (source) source.choices.push({ index: best.index, code: best.code })
    else target.fields.push({ field: best.field, index: -1, choices: [{ index: best.index, code: best.code }], recordId: false })
  }
  const all = layouts.flatMap((l) => {
    const t = targets.get(l)
    if (!t) return []
    const position = new Map(l.columns.map((c, i) => [c.field?.id, i]))
    t.fields.sort((a, b) => position.get(a.field.id)! - position.get(b.field.id)!)
    return [t]
  })

  const visitOfEvent = eventVisits(visits, options.events, (event, visit) =>
    problem(1, names[eventAt] ?? eventColumn, event, 'dataLoad.redcap.badEventMap', [event, visit]),
  )
  const visitList = visits.map((v) => v.name).join(', ')

  const cellOf = (cells: readonly string[], i: number) => (i < 0 ? '' : (cells[i] ?? '').trim())
  const take = (r: SheetRow) => {
    const subject = cellOf(r.cells, 0)
    const event = cellOf(r.cells, eventAt)
    const instanceText = cellOf(r.cells, instanceAt)
    const instance = instanceText === '' ? 1 : /^\d+$/.test(instanceText) ? Number(instanceText) : 0
    let rowSaid = false
    const once = (column: string, value: string, key: MessageKey, params: (string | number)[]) => {
      if (!rowSaid) problem(r.row, column, value, key, params)
      rowSaid = true
    }
    for (const t of all) {
      // The values first: a checkbox cell that is neither 1 nor 0 is named whether or not the row fills the CRF.
      const values: string[] = []
      let filled = false
      for (const f of t.fields) {
        let value = ''
        if (f.index >= 0) value = cellOf(r.cells, f.index)
        else
          for (const c of f.choices) {
            const v = cellOf(r.cells, c.index)
            if (v === '1') value = value === '' ? c.code : `${value}|${c.code}`
            else if (v !== '0' && v !== '') problem(r.row, names[c.index]!, v, 'dataLoad.redcap.checkbox', [v])
          }
        values.push(value)
        if (value !== '' && !f.recordId) filled = true
      }
      if (!filled) continue
      if (subject === '') {
        once(recordColumn, '', 'dataLoad.redcap.emptyRecordId', [])
        return
      }
      if (instance < 1) {
        once(names[instanceAt]!, instanceText, 'dataLoad.redcap.badInstance', [instanceText])
        return
      }
      const sub = t.layout.section !== ''
      let visit = ''
      if (t.form.mode === 'visit') {
        if (eventAt >= 0) {
          const v = visitOfEvent(event)
          if (!v) {
            once(names[eventAt]!, event, 'dataLoad.redcap.unknownEvent', [event, visitList])
            continue
          }
          if (!sub && instance > 1) {
            problem(r.row, names[instanceAt]!, instanceText, 'dataLoad.redcap.repeatVisit', [t.form.name, event, instance])
            continue
          }
          visit = v.name
        } else {
          // A classic project repeats an instrument where a longitudinal one has events.
          const v = visits[sub ? 0 : instance - 1]
          if (!v) {
            problem(r.row, names[instanceAt] ?? instanceColumn, instanceText, 'dataLoad.redcap.noEvent', [
              t.form.name,
              instance,
              visits.length,
            ])
            continue
          }
          visit = v.name
        }
      } else if (!sub && instance > 1) {
        problem(r.row, names[instanceAt]!, instanceText, 'dataLoad.redcap.repeatOnce', [t.form.name, instance])
        continue
      }
      const rowNo = sub ? String(instance) : ''
      const key = `${subject}\u0000${visit}\u0000${rowNo}`
      const before = t.seen.get(key)
      if (before !== undefined) {
        const where = [visit, rowNo && `#${rowNo}`].filter(Boolean).join(' ') || '—'
        problem(r.row, recordColumn, subject, 'dataLoad.redcap.twice', [subject, t.form.name, where, before])
        continue
      }
      t.seen.set(key, r.row)
      const cells = t.keys.map((k) =>
        k === keyColumns.subject ? subject : k === keyColumns.visit ? visit : k === keyColumns.row ? rowNo : '',
      )
      for (const v of values) cells.push(v)
      t.rows.push({ row: r.row, cells })
    }
  }
  return { targets: all, take }
}

/**
 * The visit of a REDCap event: the mapping's, else the visit named exactly so, else the one whose
 * name reduces to the event's unique name without its arm (`visit_1_arm_1` is "Visit 1"), else
 * the only one whose reduced name starts with it (REDCap shortens long labels). Cached per event.
 */
function eventVisits(
  visits: readonly RedcapVisit[],
  mapping: Readonly<Record<string, string>> | undefined,
  badMapping: (event: string, visit: string) => void,
): (event: string) => RedcapVisit | null {
  const cache = new Map<string, RedcapVisit | null>()
  const stems = visits.map((v) => ({ v, stem: eventStem(v.name) }))
  const mapped = new Map<string, RedcapVisit | null>()
  for (const [event, to] of Object.entries(mapping ?? {})) {
    const v = visits.find((x) => x.name === to) ?? visits.find((x) => String(x.id) === to.trim()) ?? null
    if (!v) badMapping(event, to)
    mapped.set(event, v)
  }
  return (event) => {
    if (event === '') return null
    const hit = cache.get(event)
    if (hit !== undefined) return hit
    let v: RedcapVisit | null
    if (mapped.has(event)) v = mapped.get(event)!
    else {
      const stem = eventStem(event.replace(/_arm_\d+[a-z]?$/i, ''))
      const starts = stem === '' ? [] : stems.filter((s) => s.stem.startsWith(stem))
      v =
        visits.find((x) => x.name === event) ??
        (stem === '' ? undefined : stems.find((s) => s.stem === stem)?.v) ??
        (starts.length === 1 ? starts[0]!.v : null)
    }
    cache.set(event, v)
    return v
  }
}
