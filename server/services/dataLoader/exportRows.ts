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

/**
 * A sheet's data rows, a page at a time: the key cells (subject number, center code, queue key,
 * visit name, sample number, row number) then the field cells in the layout's text. With
 * `numbers`, integer and decimal fields holding a plain number are numbers.
 */
export async function* sheetRows(ctx: ServiceContext, plan: ExportPlan, sheet: SheetLayout, numbers: boolean): AsyncGenerator<Cell[][]> {
  const asNumber = sheet.columns.map((c) => numbers && isNumberColumn(c))
  const fieldKeys = sheet.columns.map((c) => (c.field ? String(c.field.id) : ''))
  const fieldCell = (values: Values, i: number): Cell => {
    const text = valueToCell(values[fieldKeys[i]!])
    return asNumber[i] && numeric.test(text) ? Number(text) : text
  }
  for await (const page of pages(ctx, plan, [sheet.templateId], sheet.section ? [sheet.section] : [])) {
    const out: Cell[][] = []
    for (const s of page.subjects) {
      for (const r of page.records.get(s.id) ?? []) {
        const keyCell = (key: string, row: number): Cell => {
          switch (key) {
            case keyColumns.subject:
              return s.subject_no
            case keyColumns.center:
              return s.center_code
            case keyColumns.queue:
              return s.queue_key
            case keyColumns.visit:
              return r.record.visit_id === null ? '' : (plan.visitNames.get(r.record.visit_id) ?? '')
            case keyColumns.sample:
              return r.record.sample_no ?? ''
            default:
              return row
          }
        }
        if (!sheet.section) {
          out.push(sheet.columns.map((c, i) => (c.kind === 'key' ? keyCell(c.key, 0) : fieldCell(r.values, i))))
          continue
        }
        const rows = r.rows.get(sheet.section) ?? []
        rows.forEach((values, n) =>
          out.push(sheet.columns.map((c, i) => (c.kind === 'key' ? keyCell(c.key, n + 1) : fieldCell(values, i)))),
        )
      }
    }
    if (out.length > 0) yield out
  }
}
