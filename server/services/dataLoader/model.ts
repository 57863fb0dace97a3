import type { CellError } from '../../../contract/dataLoader.ts'
import type { MessageRef } from '../../../contract/formValues.ts'
import type { SheetTyping, TypedValues } from './typeCells.ts'

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
  /** Its field cells read on the reader's thread, once the sheet's typing was given (typeCells.ts). */
  typed?: TypedValues
  /** The values of `typed` that are not empty, as the JSON a new record of them stores (typeCells.ts). */
  data?: string
  /** By file column: why a checked field refuses its value, where one does (typeCells.ts). */
  refused?: (MessageRef | undefined)[]
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
  /**
   * On a sheet's header batch, when the reader can type its cells: the sheet's typing, or null for
   * none, given before the next batch is asked for (asking without it is null). The header batch
   * then holds no rows, so that every row of the sheet comes typed.
   */
  typeWith?: (typing: SheetTyping | null) => void
}

/** A cell as an error names it. */
export type CellPlace = Omit<CellError, 'message'>
