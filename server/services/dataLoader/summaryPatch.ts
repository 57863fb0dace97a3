import type { FieldValue } from '../../../contract/formValues.ts'
import type { PlannedRecord } from './checkRows.ts'

/** An upload's patch of a subject's summary (its list values, `f<id>` → text; null removes). */
export type SummaryPatch = Record<string, string | null>

const summaryText = (v: FieldValue) => (typeof v === 'string' ? v : v.join('|'))

/**
 * A record's part of its subject's summary, as a JSON merge patch: `f<id>` → its new text, or
 * null where the value is gone; a new record's values are all new. Later records over earlier
 * ones, as saves apply them.
 */
export function addToSummary(patch: SummaryPatch, r: PlannedRecord): void {
  if (!r.stored) for (const [k, v] of Object.entries(r.values)) patch[`f${k}`] = summaryText(v)
  else for (const c of r.changes) patch[`f${c.field}`] = c.new === undefined ? null : summaryText(c.new)
}

/**
 * A new record's summary patch read off its stored JSON when every value is a text: the same
 * members with `f` before each key (what addToSummary builds, at a third of the cost, as values
 * keyed by ids are slow objects to build and serialise). Outside a string every `"` of
 * JSON.stringify's output is structural (inside one it is escaped), so `{"12":` and `,"12":` are
 * keys; a `[` anywhere may be a multiple choice, and those take the general path.
 */
export function summaryOfData(data: string): string | undefined {
  return data.includes('[') ? undefined : data.replace(/([{,])"(\d+)":/g, '$1"f$2":')
}
