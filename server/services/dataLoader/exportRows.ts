import { keyColumns } from '../../../contract/dataLoader.ts'
import type { FieldValue } from '../../../contract/formValues.ts'
import { fromJson } from '../../db/json.ts'
import * as repo from '../../db/repositories/dataLoadExport.ts'
import type { ServiceContext } from '../context.ts'
import { csvCell } from '../dictionaryExchange/csv.ts'
import { formulaSafe } from '../export/formulaSafe.ts'
import { valueToCell, type Column, type LoadForm, type SheetLayout } from './layout.ts'

/**
 * What a download reads, a page of subjects at a time: the subjects (keyset by id, the caller's
 * scope inside the SQL) with their instances of the chosen forms in one statement, then those
 * instances' sub-form rows. Only one page is ever in memory, whatever the project's size.
 */

/**
 * Subjects per page. A page costs its statements, a chunk and a turn of the stream whatever its
 * size, so CSV, cheap per row, reads big pages (at 200 it took ~1.5× as long). xlsx and ODM allocate far more per row while a page is alive:
 * with smaller pages its values die young instead of being promoted to the old generation and
 * waiting there for a full collection, which made the peak RSS of an xlsx of 100,000 subjects
 * grow by ~100 MB at 1,000 a page against ~5 MB at 200.
 */
export const subjectsPerPage = { csv: 1000, xlsx: 200, odm: 200 } as const

export type Cell = string | number | null
type Values = Record<string, FieldValue>

export interface ExportPlan {
  projectId: number
  forms: LoadForm[]
  /** The sheets to write, columns narrowed to the fields asked for and allowed. */
  sheets: SheetLayout[]
  filter: repo.SubjectFilter
  /** Visit instances of only these visits; undefined: every one. */
  visitIds?: readonly number[]
  visitNames: ReadonlyMap<number, string>
  /** Center codes and queue keys by id, for the center and queue columns. */
  centerCodes: ReadonlyMap<number, string>
  queueKeys: ReadonlyMap<number, string>
  /** The project's randomization groups by id, for those who see them (rand_group, ODM's randomization form); else none. */
  groups: ReadonlyMap<number, { code: string; name: string }>
}

/** A page row that holds a form instance. */
type RecordRow = repo.ExportPageRow & { record_id: number; template_id: number; slot: string }
const isRecord = (row: repo.ExportPageRow): row is RecordRow => row.record_id !== null

export interface RecordOut {
  /** The instance with its subject's number, center and queue. */
  record: RecordRow
  values: Values
  /** Sub-form rows by section key, in their order (of the sections asked for). */
  rows: ReadonlyMap<string, Values[]>
}

const noRows: ReadonlyMap<string, Values[]> = new Map()

/**
 * Every page's form instances of `templateIds`, by subject id, form and slot (with their rows of
 * `sectionKeys` when any). A page without an instance yields nothing.
 */
export async function* pages(
  ctx: ServiceContext,
  plan: ExportPlan,
  templateIds: readonly number[],
  sectionKeys: readonly string[],
  perPage: number,
): AsyncGenerator<RecordOut[]> {
  const next = repo.exportPages(ctx.db, {
    projectId: plan.projectId,
    filter: plan.filter,
    templateIds,
    visitIds: plan.visitIds,
    samples: plan.forms.some((f) => f.mode === 'sample' && templateIds.includes(f.templateId)),
    groups: plan.groups.size > 0,
    perPage,
  })
  for (;;) {
    const found = await next()
    if (found.length === 0) return
    const records: RecordOut[] = []
    for (const row of found) if (isRecord(row)) records.push({ record: row, values: fromJson<Values>(row.data), rows: noRows })
    if (sectionKeys.length > 0 && records.length > 0) {
      const byId = new Map(records.map((r) => [r.record.record_id, r]))
      for (const row of await repo.rowsOfRecords(ctx.db, [...byId.keys()], sectionKeys)) {
        const rec = byId.get(row.record_id)!
        if (rec.rows === noRows) rec.rows = new Map()
        const rows = rec.rows as Map<string, Values[]>
        const list = rows.get(row.section_key)
        const values = fromJson<Values>(row.data)
        if (list) list.push(values)
        else rows.set(row.section_key, [values])
      }
    }
    if (records.length > 0) yield records
  }
}

const numeric = /^[+-]?\d{1,15}(\.\d{1,15})?$/

/** Whether a column's values are written as numbers (an integer or decimal field) in xlsx. */
const isNumberColumn = (c: Column) => c.field?.type === 'blank' && (c.field.dataType === 'integer' || c.field.dataType === 'decimal')

/** A column's cell of one row: the instance, the row's values (the instance's or a sub-form row's), the row's number. */
type Getter<T> = (r: RecordRow, values: Values, row: number) => T

function mapped<T>(map: ReadonlyMap<number, T>, id: number): T {
  const v = map.get(id)
  // A subject's center, queue and group are the project's own.
  if (v === undefined) throw new Error(`no code for center, queue or group ${id}`)
  return v
}

/**
 * How each column of a sheet gets its cell, decided once per sheet rather than per cell: key
 * columns' text through `text` (center, queue and visit codes once per sheet), the row number
 * through `number`, field columns as `field` makes them.
 */
function columnGetters<T>(
  plan: ExportPlan,
  sheet: SheetLayout,
  text: (s: string) => T,
  number: (n: number) => T,
  field: (c: Column, key: number) => Getter<T>,
): Getter<T>[] {
  const coded = (m: ReadonlyMap<number, string>) => new Map([...m].map(([id, s]) => [id, text(s)]))
  const centers = coded(plan.centerCodes)
  const queues = coded(plan.queueKeys)
  const groups = coded(new Map([...plan.groups].map(([id, g]) => [id, g.code])))
  const visits = coded(plan.visitNames)
  const empty = text('')
  return sheet.columns.map((c): Getter<T> => {
    switch (c.kind === 'field' ? '' : c.key) {
      case keyColumns.subject:
        return (r) => text(r.subject_no)
      case keyColumns.center:
        return (r) => mapped(centers, r.center_id)
      case keyColumns.queue:
        return (r) => mapped(queues, r.queue_id)
      case keyColumns.group:
        return (r) => (r.group_id === null ? empty : mapped(groups, r.group_id))
      case keyColumns.visit:
        return (r) => (r.visit_id === null ? empty : (visits.get(r.visit_id) ?? empty))
      case keyColumns.sample:
        return (r) => text(r.sample_no ?? '')
      case keyColumns.row:
        return (_r, _v, row) => number(row)
    }
    // By number: JSON.parse keeps numeric keys as indexes, which a number reaches without a conversion.
    return field(c, c.field!.id)
  })
}

/** Each data row of a sheet in a page: an instance (main sheet) or each of its rows of the sheet's sub form. */
function eachRow(records: readonly RecordOut[], section: string, row: (r: RecordRow, values: Values, n: number) => void): void {
  for (const r of records) {
    if (section === '') {
      row(r.record, r.values, 1)
      continue
    }
    const rows = r.rows.get(section)
    if (rows) for (let n = 0; n < rows.length; n++) row(r.record, rows[n]!, n + 1)
  }
}

const sectionsOf = (sheet: SheetLayout) => (sheet.section ? [sheet.section] : [])

/**
 * A sheet's data rows for exceljs, a page at a time: the key cells (subject number, center code,
 * queue key, visit name, sample number, row number) then the field cells in the layout's text,
 * text neutralised (formulaSafe); integer and decimal fields holding a plain number are numbers.
 */
export async function* sheetRows(ctx: ServiceContext, plan: ExportPlan, sheet: SheetLayout): AsyncGenerator<Cell[][]> {
  const cells = columnGetters<Cell>(
    plan,
    sheet,
    formulaSafe,
    (n) => n,
    (c, key) => {
      if (!isNumberColumn(c)) return (_r, values) => formulaSafe(valueToCell(values[key]))
      return (_r, values) => {
        const text = valueToCell(values[key])
        return numeric.test(text) ? Number(text) : formulaSafe(text)
      }
    },
  )
  const width = cells.length
  for await (const records of pages(ctx, plan, [sheet.templateId], sectionsOf(sheet), subjectsPerPage.xlsx)) {
    const out: Cell[][] = []
    eachRow(records, sheet.section, (r, values, n) => {
      const row = new Array<Cell>(width)
      for (let i = 0; i < width; i++) row[i] = cells[i]!(r, values, n)
      out.push(row)
    })
    if (out.length > 0) yield out
  }
}

/**
 * The same rows as CSV lines (csvCell: neutralised and quoted where needed), one string a page;
 * `counted` is told the rows of each.
 */
export async function* sheetCsv(
  ctx: ServiceContext,
  plan: ExportPlan,
  sheet: SheetLayout,
  counted: (rows: number) => void,
): AsyncGenerator<string> {
  const cells = columnGetters<string>(plan, sheet, csvCell, String, (_c, key) => (_r, values) => csvCell(valueToCell(values[key])))
  const width = cells.length
  for await (const records of pages(ctx, plan, [sheet.templateId], sectionsOf(sheet), subjectsPerPage.csv)) {
    let text = ''
    let rows = 0
    eachRow(records, sheet.section, (r, values, n) => {
      let line = cells[0]!(r, values, n)
      for (let i = 1; i < width; i++) line += ',' + cells[i]!(r, values, n)
      text += line + '\r\n'
      rows++
    })
    counted(rows)
    if (text) yield text
  }
}
