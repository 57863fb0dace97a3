import { keyColumns } from '../../../contract/dataLoader.ts'
import type { FieldValue } from '../../../contract/formValues.ts'
import { fromJson } from '../../db/json.ts'
import * as repo from '../../db/repositories/dataLoadExport.ts'
import type { ServiceContext } from '../context.ts'
import { valueToCell, type Column, type LoadForm, type SheetLayout } from './layout.ts'

/**
 * What a download reads, a page of subjects at a time: the subjects (keyset by id, the caller's
 * scope inside the SQL), their instances of the chosen forms and those instances' sub-form rows.
 * Only one page is ever in memory, whatever the project's size.
 */

/** Subjects per page: big enough that the three queries of a page cost little per row. */
export const subjectsPerPage = 1000

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
}

export interface RecordOut {
  record: repo.ExportRecord
  values: Values
  /** Sub-form rows by section key, in their order. */
  rows: Map<string, Values[]>
}

export interface Page {
  subjects: repo.ExportSubject[]
  /** By subject id, each subject's instances of the forms asked for. */
  records: Map<number, RecordOut[]>
}

/** Every page of subjects with their records of `templateIds` (and rows of `sectionKeys` when any). */
export async function* pages(
  ctx: ServiceContext,
  plan: ExportPlan,
  templateIds: readonly number[],
  sectionKeys: readonly string[],
): AsyncGenerator<Page> {
  let after = 0
  for (;;) {
    const subjects = await repo.subjectPage(ctx.db, plan.filter, after, subjectsPerPage)
    if (subjects.length === 0) return
    after = subjects[subjects.length - 1]!.id
    const found = await repo.recordsOfSubjects(
      ctx.db,
      plan.projectId,
      subjects.map((s) => s.id),
      templateIds,
      plan.visitIds,
    )
    const byId = new Map<number, RecordOut>()
    const records = new Map<number, RecordOut[]>()
    for (const r of found) {
      const out: RecordOut = { record: r, values: fromJson<Values>(r.data), rows: new Map() }
      byId.set(r.id, out)
      const list = records.get(r.subject_id)
      if (list) list.push(out)
      else records.set(r.subject_id, [out])
    }
    if (sectionKeys.length > 0 && found.length > 0) {
      for (const row of await repo.rowsOfRecords(ctx.db, [...byId.keys()], sectionKeys)) {
        const rec = byId.get(row.record_id)!
        const list = rec.rows.get(row.section_key)
        const values = fromJson<Values>(row.data)
        if (list) list.push(values)
        else rec.rows.set(row.section_key, [values])
      }
    }
    yield { subjects, records }
    if (subjects.length < subjectsPerPage) return
  }
}

const numeric = /^[+-]?\d{1,15}(\.\d{1,15})?$/

/** Whether a column's values are written as numbers (an integer or decimal field) in xlsx. */
export const isNumberColumn = (c: Column) => c.field?.type === 'blank' && (c.field.dataType === 'integer' || c.field.dataType === 'decimal')

type Getter = (s: repo.ExportSubject, r: RecordOut, values: Values, row: number) => Cell

/** How each column of a sheet gets its cell, decided once per sheet rather than per cell. */
function getters(plan: ExportPlan, sheet: SheetLayout, numbers: boolean): Getter[] {
  return sheet.columns.map((c): Getter => {
    switch (c.kind === 'field' ? '' : c.key) {
      case keyColumns.subject:
        return (s) => s.subject_no
      case keyColumns.center:
        return (s) => s.center_code
      case keyColumns.queue:
        return (s) => s.queue_key
      case keyColumns.visit:
        return (_s, r) => (r.record.visit_id === null ? '' : (plan.visitNames.get(r.record.visit_id) ?? ''))
      case keyColumns.sample:
        return (_s, r) => r.record.sample_no ?? ''
      case keyColumns.row:
        return (_s, _r, _v, row) => row
    }
    const key = String(c.field!.id)
    if (numbers && isNumberColumn(c)) {
      return (_s, _r, values) => {
        const text = valueToCell(values[key])
        return numeric.test(text) ? Number(text) : text
      }
    }
    return (_s, _r, values) => valueToCell(values[key])
  })
}

/**
 * A sheet's data rows, a page at a time: the key cells (subject number, center code, queue key,
 * visit name, sample number, row number) then the field cells in the layout's text. With
 * `numbers`, integer and decimal fields holding a plain number are numbers.
 */
export async function* sheetRows(ctx: ServiceContext, plan: ExportPlan, sheet: SheetLayout, numbers: boolean): AsyncGenerator<Cell[][]> {
  const cells = getters(plan, sheet, numbers)
  const width = cells.length
  for await (const page of pages(ctx, plan, [sheet.templateId], sheet.section ? [sheet.section] : [])) {
    const out: Cell[][] = []
    for (const s of page.subjects) {
      for (const r of page.records.get(s.id) ?? []) {
        const groups = sheet.section ? (r.rows.get(sheet.section) ?? []) : [r.values]
        for (let n = 0; n < groups.length; n++) {
          const row = new Array<Cell>(width)
          for (let i = 0; i < width; i++) row[i] = cells[i]!(s, r, groups[n]!, n + 1)
          out.push(row)
        }
      }
    }
    if (out.length > 0) yield out
  }
}
