import type { IndicatorInput } from '../../../contract/dictionary.ts'
import type { MessageKey } from '../../i18n/messages.ts'
import { ServiceError } from '../errors.ts'

/**
 * The shapes the exchange modules pass each other. Messages stay keys with parameters until the
 * route renders them in the caller's language; a parameter may name an indicator field, whose
 * label is language dependent too.
 */
export type LabelParam = { label: keyof IndicatorInput }
export type Param = string | number | LabelParam

/** One refused cell. `row` is numbered as in the file: the header is row 1. */
export interface RowProblem {
  row: number
  column: string
  field: string
  key: MessageKey
  params: Param[]
}

/** Something kept without an equivalent here: reported, never silently dropped. */
export interface Notice {
  row: number
  code: string
  column: string
  value: string
  key: MessageKey
  params: Param[]
}

/** A sheet as read from xlsx or CSV: every cell text, blank rows left out, rows numbered as in the file. */
export interface Table {
  container: 'xlsx' | 'csv'
  encoding: TextEncoding | null
  header: string[]
  rows: TableRow[]
}
export interface TableRow {
  row: number
  cells: string[]
}
export type TextEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'gbk'

/** How a row names the value of the field it depends on. */
export interface DependentRef {
  code: string
  value: string
  /** 'code': a choice code (ours and REDCap's); 'checkbox': REDCap's `[f(code)] = '1'`. */
  by: 'code' | 'checkbox'
}

/** Where a REDCap field sits: its form (a CRF), the section header it opens, and the required flag. */
export interface Placement {
  row: number
  /** The Form Name column's header as written in the file, for reports. */
  column: string
  form: string
  section: string
  required: boolean
}

/**
 * One file row turned into an indicator-to-be. `input` is unvalidated: the contract's zod schema
 * and rules run over it later, so every layout is held to the same rules.
 */
export interface Draft {
  row: number
  input: Record<keyof IndicatorInput, unknown>
  dependent: DependentRef | null
  diseaseName: string | null
  /** The file's column header that feeds an indicator field, for error reports. */
  columnOf: Partial<Record<keyof IndicatorInput, string>>
  /** Fields the file has no column for: an update keeps their stored values. */
  absent: (keyof IndicatorInput)[]
  problems: RowProblem[]
  notices: Notice[]
  placements: Placement[]
  /**
   * REDCap only: the field definition without its placement. A variable repeated in another form
   * with the same definition is one indicator placed in two CRFs (our REDCap export writes such
   * rows); any other repetition is a duplicate.
   */
  signature: string | null
}

/** Every row was checked and at least one failed: 400 with the per-row report, nothing written. */
export class ImportRejected extends ServiceError {
  constructor(readonly problems: RowProblem[]) {
    super('badRequest', 'import.failed', [new Set(problems.map((p) => p.row)).size])
  }
}

/** Text cut to `max` characters for a report. */
export const clip = (s: string, max = 200) => (s.length > max ? s.slice(0, max - 1) + '…' : s)
