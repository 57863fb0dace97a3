import { dataLoadLimits } from '../../../contract/dataLoader.ts'
import { ServiceError } from '../errors.ts'
import { fromFormulaSafe } from '../export/formulaSafe.ts'
import type { SheetBatch, SheetRow } from './model.ts'

/**
 * What the two readers (xlsxSheets.ts, csvRows.ts) hand on, and the one place that turns it into
 * batches: the header of each sheet, blank rows left out, the row and cell limits, and the ' our
 * exports put before text a spreadsheet would run taken off again.
 */

export interface ReadLimits {
  maxInflatedBytes: number
  maxRows: number
  maxColumns: number
  maxCellChars: number
  /**
   * Row elements of a workbook, empty ones included. An empty `<row/>` is six bytes: a gigabyte of
   * them passed the inflate budget and kept the reader busy for nine minutes. Data rows past
   * maxRows are refused anyway; beyond them a workbook may hold one sheet's worth of formatted
   * empty rows (Excel's 1,048,576).
   */
  maxRowElements: number
}

export const readLimits: ReadLimits = {
  maxInflatedBytes: dataLoadLimits.maxInflatedBytes,
  maxRows: dataLoadLimits.maxRows,
  maxColumns: dataLoadLimits.maxColumns,
  maxCellChars: dataLoadLimits.maxCellChars,
  maxRowElements: dataLoadLimits.maxRows + 1_048_576,
}

/** A sheet starts (a CSV is one sheet named ''), or one of its rows as the file numbers it. */
export type ReadEvent = { sheet: string } | SheetRow

/** The column letters a spreadsheet shows: 1 → A, 27 → AA. */
export function columnName(n: number): string {
  let s = ''
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s
  return s
}

/** A cell's name as Excel writes it in a formula: Sheet1!C5, 'My sheet'!C5; a CSV's cell is C5. */
export function cellName(sheet: string, column: number, row: number): string {
  const ref = `${columnName(column)}${row}`
  if (sheet === '') return ref
  return /^[\p{L}_][\p{L}\p{N}_.]*$/u.test(sheet) ? `${sheet}!${ref}` : `'${sheet.replace(/'/g, "''")}'!${ref}`
}

const blank = (cells: string[]) => cells.every((c) => c.trim() === '')

/** A batch also ends past this many characters, so a few batches of very long rows stay small. */
const maxBatchChars = 4 * 1024 * 1024

/**
 * Batches of at most `size` rows (fewer when the rows are long); a sheet's first batch carries its
 * header, its first non-blank row.
 */
export async function* toBatches(events: AsyncIterable<ReadEvent>, limits: ReadLimits, size: number): AsyncGenerator<SheetBatch> {
  let sheet: string | null = null
  let header: string[] | null = null
  let headerSent = false
  let rows: SheetRow[] = []
  let total = 0
  let chars = 0
  let sawHeader = false
  const flush = (): SheetBatch | null => {
    if (sheet === null || header === null || (headerSent && rows.length === 0)) return null
    const batch: SheetBatch = { sheet, ...(headerSent ? {} : { header }), rows }
    headerSent = true
    rows = []
    chars = 0
    return batch
  }
  for await (const e of events) {
    if ('sheet' in e) {
      const last = flush()
      if (last) yield last
      sheet = e.sheet
      header = null
      headerSent = false
      continue
    }
    const cells = e.cells
    if (cells.length > limits.maxColumns) throw new ServiceError('tooLarge', 'dataLoad.tooManyColumns', [sheet ?? '', limits.maxColumns])
    for (let i = 0; i < cells.length; i++) {
      chars += cells[i]!.length
      if (cells[i]!.length > limits.maxCellChars)
        throw new ServiceError('tooLarge', 'dataLoad.cellTooLong', [cellName(sheet ?? '', i + 1, e.row), limits.maxCellChars])
    }
    if (blank(cells)) continue
    if (header === null) {
      header = cells.map((h) => h.trim())
      sawHeader = true
      continue
    }
    if (++total > limits.maxRows) throw new ServiceError('tooLarge', 'dataLoad.tooManyRows', [limits.maxRows])
    for (let i = 0; i < cells.length; i++) if (cells[i]!.startsWith("'")) cells[i] = fromFormulaSafe(cells[i]!)
    rows.push(e)
    if (rows.length === size || chars > maxBatchChars) yield flush()!
  }
  const last = flush()
  if (last) yield last
  if (!sawHeader) throw new ServiceError('badRequest', 'dataLoad.empty')
}
