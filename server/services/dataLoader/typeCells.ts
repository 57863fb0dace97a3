import type { VersionField } from '../../../contract/crf.ts'
import { fieldCheck, isEmpty, type FieldValue, type Lang, type MessageRef } from '../../../contract/formValues.ts'
import { toJson } from '../../db/json.ts'
import { cellReader } from './layout.ts'
import type { SheetRow } from './model.ts'

/**
 * A sheet's field cells read as values and checked by their fields' rules on the reader's thread,
 * so the main thread, which also reads the database and writes, does not spend its time on them.
 * The same reader (layout.ts cellReader) and rules (contract/formValues.ts fieldCheck) as the row
 * checker's own, given the columns and rules the checker bound the sheet's header to.
 */

/** What the reader's thread is told of a bound sheet: plain data, as it crosses threads. */
export interface SheetTyping {
  lang: Lang
  columns: TypedColumn[]
  /**
   * A main sheet of a form without dependent fields: each cell is checked by its field alone
   * (SheetRow.refused) and a row's values are what a new record of it stores (SheetRow.data).
   * Other sheets' values are checked with the whole row's on the main thread.
   */
  plain: boolean
}

export interface TypedColumn {
  /** The file column. */
  at: number
  field: VersionField
  required: boolean
}

/**
 * A row's field cells as the reader's thread hands them on, by file column: undefined for an empty
 * cell or a column of no field; null where the value read is the cell's text itself (nearly every
 * cell: the text crosses threads once, in the row's cells); else the value read.
 */
export type TypedValues = (FieldValue | null | undefined)[]

/** The value read from a typed row's cell at `at` (undefined: an empty cell). */
export function typedValue(typed: TypedValues, cells: readonly string[], at: number): FieldValue | undefined {
  const v = typed[at]
  return v === null ? cells[at] : v
}

/** The typer of one sheet's rows, its readers and rules worked out once: it sets each row's typed, data and refused. */
export function cellTyper(t: SheetTyping): (row: SheetRow) => void {
  const columns = [...t.columns]
    .sort((a, b) => a.at - b.at)
    .map((c) => ({
      at: c.at,
      key: String(c.field.id),
      read: cellReader(c.field),
      check: t.plain ? fieldCheck(c.field, c.required, t.lang) : undefined,
    }))
  return (row) => {
    const { cells } = row
    // Built without holes: a holey array crosses threads element by element with its index.
    const typed: TypedValues = []
    const values: Record<string, FieldValue> = {}
    let refused: (MessageRef | undefined)[] | undefined
    for (const c of columns) {
      while (typed.length < c.at) typed.push(undefined)
      const text = cells[c.at]
      if (text === undefined || text.trim() === '') {
        typed.push(undefined)
        continue
      }
      const v = c.read(text)
      typed.push(v === text ? null : v)
      if (!isEmpty(v)) values[c.key] = v
      const e = c.check?.(v)
      if (e) (refused ??= [])[c.at] = e
    }
    row.typed = typed
    if (t.plain) row.data = toJson(values)
    if (refused) row.refused = refused
  }
}
