import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { abbreviateNumber } from '../../../src/lib/number.ts'

const unitValue: Record<string, number> = { k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 }

describe('abbreviateNumber (SPEC §9)', () => {
  it('leaves numbers below 1000 as they are', () => {
    expect(abbreviateNumber(0)).toBe('0')
    expect(abbreviateNumber(7)).toBe('7')
    expect(abbreviateNumber(999)).toBe('999')
    expect(abbreviateNumber(999.5)).toBe('999.5')
  })
  it('abbreviates from 1000 with k, M, G, T, P, E', () => {
    expect(abbreviateNumber(1000)).toBe('1k')
    expect(abbreviateNumber(1500)).toBe('1.5k')
    expect(abbreviateNumber(1.5e6)).toBe('1.5M')
    expect(abbreviateNumber(2e9)).toBe('2G')
    expect(abbreviateNumber(3.25e12, 2)).toBe('3.25T')
    expect(abbreviateNumber(4e15)).toBe('4P')
    expect(abbreviateNumber(1e18)).toBe('1E')
    expect(abbreviateNumber(2.5e21)).toBe('2500E')
  })
  it('rounds to the given digits and drops trailing zeros', () => {
    expect(abbreviateNumber(1234, 0)).toBe('1k')
    expect(abbreviateNumber(1234, 1)).toBe('1.2k')
    expect(abbreviateNumber(1234, 2)).toBe('1.23k')
    expect(abbreviateNumber(1200, 3)).toBe('1.2k')
    expect(abbreviateNumber(1_000_000, 2)).toBe('1M')
  })
  it('moves up a unit when rounding reaches 1000 of the lower one', () => {
    expect(abbreviateNumber(999_999)).toBe('1M')
    expect(abbreviateNumber(999_949, 1)).toBe('999.9k')
    expect(abbreviateNumber(999_950_000, 1)).toBe('1G')
  })
  it('keeps the sign and passes non-finite values through', () => {
    expect(abbreviateNumber(-1500)).toBe('-1.5k')
    expect(abbreviateNumber(-999)).toBe('-999')
    expect(abbreviateNumber(Number.NaN)).toBe('NaN')
    expect(abbreviateNumber(Number.POSITIVE_INFINITY)).toBe('Infinity')
  })
  it('stays within half a rounding step of the value, with fewer than 1000 units (below E)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1000, max: 9e20, noNaN: true }), fc.integer({ min: 0, max: 3 }), (n, digits) => {
        const m = /^(\d+(?:\.\d+)?)([kMGTPE])$/.exec(abbreviateNumber(n, digits))
        if (!m) return false
        const value = Number(m[1])
        const unit = unitValue[m[2] as string] as number
        const step = 10 ** -digits
        return Math.abs(value * unit - n) <= (step / 2) * unit * (1 + 1e-9) && (value < 1000 || m[2] === 'E') && value >= 1
      }),
    )
  })
})
