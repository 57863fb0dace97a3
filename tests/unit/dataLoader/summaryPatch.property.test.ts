import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { FieldValue } from '../../../contract/formValues.ts'
import type { PlannedRecord } from '../../../server/services/dataLoader/checkRows.ts'
import { addToSummary, summaryOfData, type SummaryPatch } from '../../../server/services/dataLoader/summaryPatch.ts'

/** The general path's patch of a new record with these values. */
function general(values: Record<string, FieldValue>): string {
  const patch: SummaryPatch = {}
  addToSummary(patch, { values, changes: [] } as unknown as PlannedRecord)
  return JSON.stringify(patch)
}

// Texts full of what could fool a pattern over JSON: quotes, backslashes, commas, braces, digits, colons.
const tricky = fc.string({ unit: fc.constantFrom('"', '\\', ',', '{', '}', ':', '1', '2', 'a', ' ', '\n', '中', '"1":') })
const text = fc.oneof(fc.string({ unit: 'binary' }), tricky)
const ids = fc.integer({ min: 1, max: 2_000_000 }).map(String)

describe('summaryOfData', () => {
  it('reads the same patch off the stored JSON as the general path builds, for any texts', () => {
    fc.assert(
      fc.property(fc.dictionary(ids, text, { maxKeys: 30 }), (values) => {
        const json = JSON.stringify(values)
        const quick = summaryOfData(json)
        if (json.includes('[')) expect(quick).toBeUndefined()
        else expect(quick).toBe(general(values))
      }),
      { numRuns: 3000 },
    )
  })

  it('leaves a record with a multiple choice to the general path', () => {
    expect(summaryOfData(JSON.stringify({ 12: ['1', '2'], 13: 'x' }))).toBeUndefined()
    expect(general({ 12: ['1', '2'], 13: 'x' })).toBe('{"f12":"1|2","f13":"x"}')
  })
})
