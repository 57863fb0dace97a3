import type { VersionField } from '../../../contract/crf.ts'
import { keyColumns, type CellError, type UploadFormat } from '../../../contract/dataLoader.ts'
import { visitsOf } from '../../db/repositories/followUp.ts'
import { message, type Lang, type MessageKey } from '../../i18n/messages.ts'
import type { ServiceContext } from '../context.ts'
import { layoutHeader, layoutSheet, sheetsOf, type LoadForm, type SheetLayout } from './layout.ts'
import type { CellPlace, SheetBatch, SheetRow } from './model.ts'
import { isOwnColumn, isRedcapRecordHeader, labelReader, readRedcapHeader } from './redcapHeader.ts'

/**
 * REDCap records in (issue 11 item 3): REDCap's record export, one flat table, turned into the
 * sheets of our one layout (layout.ts), so the upload checks and writes it as it would a workbook
 * of ours. The CRFs are those the REDCap data dictionary import made (one CRF per instrument,
 * named after it; one indicator per field, its code the variable name). Both header styles,
 * "CSV (raw data)" and "CSV (labels)", are read by redcapHeader.ts; the table names the raw one.
 *
 * | REDCap column                           | here                                                  |
 * |-----------------------------------------|-------------------------------------------------------|
 * | the first (record id, e.g. record_id)   | subject_id; also the field's value when a CRF has it  |
 * | redcap_event_name                       | visit: the mapping given, else a visit of that name,  |
 * |                                         | else of its label (`visit_1_arm_2` → "Visit 1")       |
 * | redcap_repeat_instrument / _instance    | a sub-form row (a record's k-th instance is row k)    |
 * |                                         | when the field sits in a repeating section; without   |
 * |                                         | events, instance n of a follow-up CRF is the n-th     |
 * |                                         | visit of the schedule                                 |
 * | a variable                              | the field of that code, in the CRF naming most of the |
 * |                                         | file's columns when several CRFs hold it              |
 * | field___code (checkbox)                 | the multiple choice value: the codes holding 1        |
 * |                                         | (Checked, or the choice's label, in a labels export)  |
 * | <instrument>_complete, _timestamp,      | ignored: form status and survey bookkeeping have no   |
 * | redcap_data_access_group,               | place here (centers and queues are the project's; a   |
 * | redcap_survey_identifier                | subject keeps the ones it was enrolled with)          |
 * | anything else                           | refused, the column named                             |
 *
 * A row fills a CRF when one of its fields (other than the record id) holds a value: REDCap writes
 * a row per record and event, and 0 into every checkbox column, filled or not. A sheet has the
 * columns the file names, no others: a field left out of the export is no column of it. Rows
 * keep the file's row numbers, and each batch carries the origin of its cells (`origin`), so a
 * bad cell the row checker finds is reported at the file's row and column. A CRF entered
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

const batchRows = 1000

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
    try {
      yield first.value as SheetBatch
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value
    } finally {
      // Stopped early (a refused header, a bad cell's end), the reader is ended too: left
      // suspended, its worker thread lived on with the file, holding a reader's place.
      await it.return?.()
    }
  }
  const head = first.value as SheetBatch
  const redcap = options.format === 'redcap' || (head.sheet !== layoutSheet && isRedcapRecordHeader(head.header ?? [], forms))
  yield* redcap ? redcapSheets(forms, visits, all(), options) : all()
}

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
  /** A labels export's single choice: its label read as the code. */
  read?: (text: string) => string
  /** A checkbox field's columns, each with its choice code and the texts that tick it. */
  choices: { index: number; code: string; on: ReadonlySet<string> }[]
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
  /** The file's cells behind each of `rows`. */
  sources: string[][]
  /** A column of its sheet → the file's column behind it, given the file's cells of the row. */
  origins: Map<string, (cells: readonly string[]) => number>
  /** subject · visit · row → the first file row that filled it. */
  seen: Map<string, number>
  /** subject · visit → how many repeat instances of a sub form the file has given it so far. */
  instances: Map<string, number>
}

/**
 * The sheets of our layout for a REDCap record export (read as `batches`, one sheet): first the
 * `_layout` sheet naming what each one is, then each CRF's main and sub-form sheets that the
 * file fills, each batch with the origin of its cells. Problems go to `options.problem`; nothing
 * is emitted when the header is unusable.
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
  plan.finish()
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
      const rows = t.rows.slice(i, i + batchRows)
      yield { sheet: t.layout.name, ...(i === 0 ? { header } : {}), rows, origin: plan.origin(t, rows, t.sources.slice(i, i + batchRows)) }
    }
  }
}

interface Plan {
  targets: Target[]
  take: (r: SheetRow) => void
  /** Says what only the whole file tells (a mapping no row used). */
  finish: () => void
  origin: (t: Target, rows: readonly SheetRow[], sources: readonly string[][]) => (ours: CellPlace) => CellPlace
}

/** Where a row number sits among rows in file order; -1 when none has it. */
function rowIndex(rows: readonly SheetRow[], row: number): number {
  let lo = 0
  let hi = rows.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const at = rows[mid]!.row
    if (at === row) return mid
    if (at < row) lo = mid + 1
    else hi = mid - 1
  }
  return -1
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
  const recordColumn = (header[0] ?? '').trim()
  if (recordColumn === '' || isOwnColumn(recordColumn) || recordColumn === keyColumns.subject) {
    problem(1, recordColumn, recordColumn, 'dataLoad.redcap.noRecordId', [recordColumn])
    return null
  }
  const names = header.map((h) => h.trim())
  const layouts = sheetsOf(forms)
  const read = readRedcapHeader(layouts, header, (index, key, params) => problem(1, names[index]!, names[index]!, key, params))
  const { eventAt, instanceAt, style } = read
  if (read.fields.length === 0 || read.fields.every((c) => c.index === 0)) {
    problem(1, recordColumn, recordColumn, 'dataLoad.redcap.noFields')
    return null
  }

  // A code several CRFs hold belongs to the one naming most of the file's columns (REDCap has
  // each variable on one instrument), the earlier one on a tie.
  const formOf = new Map(forms.map((f) => [f.templateId, f]))
  const weight = new Map<number, number>()
  for (const c of read.fields) for (const id of new Set(c.places.map((p) => p.layout.templateId))) weight.set(id, (weight.get(id) ?? 0) + 1)
  const order = new Map(forms.map((f, i) => [f.templateId, i]))
  const targets = new Map<SheetLayout, Target>()
  const sampleForms = new Set<number>()
  for (const c of read.fields) {
    const best = [...c.places].sort(
      (a, b) =>
        (weight.get(b.layout.templateId) ?? 0) - (weight.get(a.layout.templateId) ?? 0) ||
        order.get(a.layout.templateId)! - order.get(b.layout.templateId)!,
    )[0]!
    const form = formOf.get(best.layout.templateId)!
    if (form.mode === 'sample') {
      if (!sampleForms.has(form.templateId)) problem(1, names[c.index]!, names[c.index]!, 'dataLoad.redcap.sampleForm', [form.name])
      sampleForms.add(form.templateId)
      continue
    }
    const target: Target = targets.get(best.layout) ?? {
      layout: best.layout,
      form,
      keys: best.layout.columns.filter((k) => k.kind === 'key').map((k) => k.key),
      fields: [],
      rows: [],
      sources: [],
      origins: new Map(),
      seen: new Map(),
      instances: new Map(),
    }
    targets.set(best.layout, target)
    const source = target.fields.find((f) => f.field.id === best.field.id)
    const fromLabel = style === 'labels' ? labelReader(best.field) : undefined
    if (c.box === null)
      target.fields.push({
        field: best.field,
        index: c.index,
        ...(fromLabel ? { read: fromLabel } : {}),
        choices: [],
        recordId: c.index === 0,
      })
    else if (source) source.choices.push({ index: c.index, ...c.box })
    else target.fields.push({ field: best.field, index: -1, choices: [{ index: c.index, ...c.box }], recordId: false })
  }
  const cellOf = (cells: readonly string[], i: number) => (i < 0 ? '' : (cells[i] ?? '').trim())
  const all = layouts.flatMap((l) => {
    const t = targets.get(l)
    if (!t) return []
    const position = new Map(l.columns.map((c, i) => [c.field?.id, i]))
    t.fields.sort((a, b) => position.get(a.field.id)! - position.get(b.field.id)!)
    // What an error in a column of ours names: the record id, event or instance column; a plain
    // field's own column; a checkbox field's first ticked column, else its first.
    const visitAt = eventAt >= 0 ? eventAt : l.section === '' ? instanceAt : -1
    for (const [key, at] of [
      [keyColumns.subject, 0],
      [keyColumns.visit, visitAt],
      [keyColumns.row, instanceAt],
    ] as const)
      if (at >= 0) t.origins.set(key, () => at)
    for (const f of t.fields)
      t.origins.set(
        f.field.code,
        f.index >= 0 ? () => f.index : (cells) => (f.choices.find((c) => c.on.has(cellOf(cells, c.index))) ?? f.choices[0]!).index,
      )
    return [t]
  })

  const eventName = names[eventAt] ?? 'redcap_event_name'
  const instanceName = names[instanceAt] ?? 'redcap_repeat_instance'
  // A mapping to a visit the project lacks is named once: at the first row of its event, or on
  // the header's row when no row has it (finish); the event's rows are not named again.
  const badMappings = new Map<string, { visit: string; said: boolean }>()
  const visitOfEvent = eventVisits(visits, options.events, (event, visit) => badMappings.set(event, { visit, said: false }))
  const sayBadMapping = (row: number, event: string) => {
    const bad = badMappings.get(event)
    if (!bad || bad.said) return
    problem(row, eventName, event, 'dataLoad.redcap.badEventMap', [event, bad.visit])
    bad.said = true
  }
  const visitList = visits.map((v) => v.name).join(', ')
  const badBox: MessageKey = style === 'raw' ? 'dataLoad.redcap.checkbox' : 'dataLoad.redcap.checkboxLabel'

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
      // The values first: a checkbox cell that is neither ticked nor not is named whether or not the row fills the CRF.
      const values: string[] = []
      let filled = false
      for (const f of t.fields) {
        let value = ''
        if (f.index >= 0) {
          value = cellOf(r.cells, f.index)
          if (f.read && value !== '') value = f.read(value)
        } else
          for (const c of f.choices) {
            const v = cellOf(r.cells, c.index)
            if (c.on.has(v)) value = value === '' ? c.code : `${value}|${c.code}`
            else if (!read.off.has(v)) problem(r.row, names[c.index]!, v, badBox, [v])
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
        once(instanceName, instanceText, 'dataLoad.redcap.badInstance', [instanceText])
        return
      }
      const sub = t.layout.section !== ''
      let visit = ''
      if (t.form.mode === 'visit') {
        if (eventAt >= 0) {
          const v = visitOfEvent(event)
          if (!v && badMappings.has(event)) {
            if (!rowSaid) sayBadMapping(r.row, event)
            rowSaid = true
            continue
          }
          if (!v) {
            once(eventName, event, 'dataLoad.redcap.unknownEvent', [event, visitList])
            continue
          }
          if (!sub && instance > 1) {
            problem(r.row, instanceName, instanceText, 'dataLoad.redcap.repeatVisit', [t.form.name, event, instance])
            continue
          }
          visit = v.name
        } else {
          // A classic project repeats an instrument where a longitudinal one has events.
          const v = visits[sub ? 0 : instance - 1]
          if (!v) {
            problem(r.row, instanceName, instanceText, 'dataLoad.redcap.noEvent', [t.form.name, instance, visits.length])
            continue
          }
          visit = v.name
        }
      } else if (!sub && instance > 1) {
        problem(r.row, instanceName, instanceText, 'dataLoad.redcap.repeatOnce', [t.form.name, instance])
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
      // The instances of a record are its rows in order: REDCap leaves gaps where one was deleted
      // (1, 2, 4), and read as row numbers they placed the third past the second's end, where a
      // second load of the same file met no row and added it again.
      const within = `${subject}\u0000${visit}`
      const place = sub ? (t.instances.get(within) ?? 0) + 1 : 0
      if (sub) t.instances.set(within, place)
      const cells = t.keys.map((k) =>
        k === keyColumns.subject ? subject : k === keyColumns.visit ? visit : k === keyColumns.row ? (sub ? String(place) : '') : '',
      )
      for (const v of values) cells.push(v)
      t.rows.push({ row: r.row, cells })
      t.sources.push(r.cells)
    }
  }

  const origin: Plan['origin'] = (t, rows, sources) => (ours) => {
    const i = rowIndex(rows, ours.row)
    const at = i < 0 ? undefined : t.origins.get(ours.column)?.(sources[i]!)
    if (at === undefined) return { ...ours, sheet }
    return { sheet, row: ours.row, column: names[at]!, value: sources[i]![at] ?? '' }
  }
  const finish = () => {
    for (const event of badMappings.keys()) sayBadMapping(1, event)
  }
  return { targets: all, take, finish, origin }
}

/**
 * The visit of a REDCap event: the mapping's, else the visit named exactly so, else the one whose
 * name reduces to the event's unique name or label without its arm (`visit_1_arm_1` and a labels
 * export's "Visit 1 (Arm 1: Arm 1)" are "Visit 1"), else the only one whose reduced name starts
 * with it (REDCap shortens long labels in unique names). Cached per event.
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
      const stem = eventStem(event.replace(/_arm_\d+[a-z]?$|\s*\(arm \d+: [^()]*\)$/i, ''))
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

/**
 * REDCap's own missing-data codes (HL7 null flavours, offered by its project settings). A project
 * that uses them exports the code where the value would be; a field here holds a value or
 * nothing, so such a cell is refused, and the message says what the code is.
 */
const missingDataCodes = new Set([
  'NI',
  'INV',
  'UNK',
  'NASK',
  'ASKU',
  'NAV',
  'MSK',
  'NA',
  'NAVU',
  'NP',
  'QS',
  'QI',
  'TRC',
  'UNC',
  'DER',
  'PINF',
  'NINF',
  'OTH',
])

export const isMissingDataCode = (text: string) => missingDataCodes.has(text.trim())
