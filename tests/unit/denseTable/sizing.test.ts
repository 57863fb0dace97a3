import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { denseFontSize, denseRowHeight, fitWidths, frozenCount, minColumnShare, minColumnWidth } from '../../../src/ui/denseTable/sizing.ts'

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0)

describe('size setting → table rows', () => {
  it('gives every size its own row height and text size, larger sizes larger', () => {
    const order = ['mini', 'small', 'medium', 'default'] as const
    expect(order.map((s) => denseRowHeight[s])).toEqual([24, 28, 32, 36])
    for (let i = 1; i < order.length; i++) {
      expect(denseRowHeight[order[i]!]).toBeGreaterThan(denseRowHeight[order[i - 1]!])
      expect(denseFontSize[order[i]!]).toBeGreaterThan(denseFontSize[order[i - 1]!])
    }
    // The text fits its row with room for the cell's padding.
    for (const s of order) expect(denseRowHeight[s]).toBeGreaterThanOrEqual(denseFontSize[s] + 12)
  })
})

describe('fitWidths', () => {
  const cols = [{ width: 150 }, { width: 300 }, { width: 90, fixed: true }]

  it('fills the available width exactly, fixed columns untouched, the others in proportion', () => {
    const w = fitWidths(cols, 1000)
    expect(sum(w)).toBe(1000)
    expect(w[2]).toBe(90)
    expect(Math.abs((w[1] ?? 0) / (w[0] ?? 1) - 2)).toBeLessThan(0.02)
  })

  it('shrinks to fit a narrower pane, the action column keeping its width', () => {
    const w = fitWidths(cols, 450)
    expect(sum(w)).toBe(450)
    expect(w[2]).toBe(90)
  })

  it('never squeezes a column below the minimum: then the sum exceeds the pane and the table scrolls', () => {
    const w = fitWidths([{ width: 60 }, { width: 70 }, { width: 90, fixed: true }], 150)
    expect(w).toEqual([minColumnWidth, minColumnWidth, 90])
    expect(sum(w)).toBeGreaterThan(150)
  })

  it('squeezes a wide column to its share of the declared width at most, then scrolls', () => {
    const wide = [{ width: 400 }, { width: 60 }, { width: 90, fixed: true }]
    const w = fitWidths(wide, 300)
    expect(w).toEqual([Math.ceil(400 * minColumnShare), minColumnWidth, 90])
    expect(sum(w)).toBeGreaterThan(300)
    // Above the floors the columns still fill the pane exactly.
    expect(sum(fitWidths(wide, 520))).toBe(520)
  })

  it('keeps the declared widths without a measurement, or with only fixed columns', () => {
    expect(fitWidths(cols, 0)).toEqual([150, 300, 90])
    expect(fitWidths([{ width: 80, fixed: true }], 500)).toEqual([80])
    expect(fitWidths([], 500)).toEqual([])
  })

  it('a column held at its floor leaves the rest to the others: the sum is the pane exactly, not a few pixels past it', () => {
    // The indicator list at 1,440 px: the unit column's share fell below its floor, and the table scrolled by 2 px.
    const indicator = [150, 150, 180, 90, 90, 80, 70, 120, 90, 120].map((width) => ({ width }))
    const all = [...indicator, { width: 100, fixed: true }, { width: 140, fixed: true }, { width: 70, fixed: true }]
    const w = fitWidths(all, 1139)
    expect(w[6]).toBe(minColumnWidth)
    expect(sum(w)).toBe(1139)
  })

  it('fills any pane its floors fit exactly, and no column goes below its floor (property)', () => {
    const column = fc.record({ width: fc.integer({ min: 20, max: 400 }), fixed: fc.boolean() })
    fc.assert(
      fc.property(fc.array(column, { minLength: 1, maxLength: 20 }), fc.integer({ min: 0, max: 2000 }), (cols, extra) => {
        const floor = (w: number) => Math.min(w, Math.max(minColumnWidth, Math.ceil(w * minColumnShare)))
        const least = sum(cols.map((c) => (c.fixed ? c.width : floor(c.width))))
        const w = fitWidths(cols, least + extra)
        cols.forEach((c, i) => expect(w[i]).toBeGreaterThanOrEqual(c.fixed ? c.width : floor(c.width)))
        if (cols.some((c) => !c.fixed)) expect(sum(w)).toBe(least + extra)
      }),
    )
  })

  it('the indicator list fits a 1440 px screen: 13 columns in about 1150 px', () => {
    const indicator = [150, 180, 180, 90, 90, 80, 70, 120, 90, 120].map((width) => ({ width }))
    const all = [...indicator, { width: 100, fixed: true }, { width: 150 }, { width: 70, fixed: true }]
    const w = fitWidths(all, 1150)
    expect(sum(w)).toBe(1150)
    expect(w.every((x) => x >= minColumnWidth)).toBe(true)
  })
})

describe('frozenCount', () => {
  it('freezes the identifying column and those before it, else the first', () => {
    expect(frozenCount(['at', 'user', 'file', 'outcome'], 'file')).toBe(3)
    expect(frozenCount(['sampleNo', 'subjectNo'], 'sampleNo')).toBe(1)
    expect(frozenCount(['a', 'b'], undefined)).toBe(1)
  })

  it('never more than there are columns: none before the columns arrive (Blueprint would warn)', () => {
    expect(frozenCount([], 'sampleNo')).toBe(0)
    expect(frozenCount([], undefined)).toBe(0)
  })
})
