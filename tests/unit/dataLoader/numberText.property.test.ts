import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { numberText } from '../../../server/services/dictionaryExchange/xlsx.ts'

/** A number cell reads as Excel shows it (15 significant digits); the short path must agree with the rounding it skips. */
const rounded = (v: number) => String(Number(v.toPrecision(15)))

describe('numberText', () => {
  it('equals rounding to 15 significant digits for every double', () => {
    fc.assert(
      fc.property(fc.double(), (v) => numberText(v) === rounded(v)),
      { numRuns: 20_000 },
    )
  })

  it('equals it for the cells spreadsheets hold: integers, money, measurements, and binary noise', () => {
    const cells = fc.oneof(
      fc.integer({ min: -1e15, max: 1e15 }),
      fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 100),
      fc.integer({ min: 0, max: 1e7 }).map((n) => n / 1000 + 0.1 + 0.2),
    )
    fc.assert(
      fc.property(cells, (v) => numberText(v) === rounded(v)),
      { numRuns: 20_000 },
    )
    expect([0.1 + 0.2, 1e21, -0, 123456789012345.6, 1 / 3].map(numberText)).toEqual([
      '0.3',
      '1e+21',
      '0',
      '123456789012346',
      '0.333333333333333',
    ])
  })
})
