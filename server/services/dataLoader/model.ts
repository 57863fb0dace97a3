import type { CellError } from '../../../contract/dataLoader.ts'

/**
 * What passes between the parts of an upload: the received file, and the rows read from it in
 * batches, sheet by sheet, so that checking and writing can start while the file is still parsed.
 */

export type Container = 'xlsx' | 'csv'

/** An upload received whole into a temporary file (removed by whoever received it). */
export interface ReceivedFile {
  /** Temporary path inside DATA_DIR; never a name the user chose. */
  path: string
  /** The name the browser sent, shown in records, never used as a path. */
  fileName: string
  size: number
  sha256: string
  container: Container
}

export interface SheetRow {
  /** The row number a spreadsheet shows (1-based; a CSV record's line). */
  row: number
  cells: string[]
}

/**
 * Rows of one sheet. The first batch of a sheet carries its header (row 1, the column keys);
 * a CSV is one sheet named ''. A workbook's `_layout` sheet comes first when it has one.
 */
export interface SheetBatch {
  sheet: string
  header?: string[]
  rows: SheetRow[]
  /**
   * Rows mapped from a file of another layout (a REDCap export): the user's cell behind a cell of
   * these rows, named by row and column, so an error names what the user can find in their file.
   */
  origin?: (ours: CellPlace) => CellPlace
}

/** A cell as an error names it. */
export type CellPlace = Omit<CellError, 'message'>
