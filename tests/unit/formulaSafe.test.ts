import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formulaSafe, fromFormulaSafe } from '../../server/services/export/formulaSafe.ts'

describe('formulaSafe', () => {
  it('prefixes text a spreadsheet would run and leaves numbers and plain text alone', () => {
    expect(['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\t=x', '\r=x'].map(formulaSafe)).toEqual([
      "'=1+1",
      "'+cmd",
      "'-2+3",
      "'@SUM(A1)",
      "'\t=x",
      "'\r=x",
    ])
    expect(['-5', '+3.2e4', '.5', 'plain', '', "'quoted", '收缩压'].map(formulaSafe)).toEqual([
      '-5',
      '+3.2e4',
      '.5',
      'plain',
      '',
      "'quoted",
      '收缩压',
    ])
  })

  it('reads back exactly what it was given', () => {
    fc.assert(fc.property(fc.string(), (s) => fromFormulaSafe(formulaSafe(s)) === s))
    expect(fromFormulaSafe("'=1")).toBe('=1')
    expect(fromFormulaSafe("'plain")).toBe("'plain")
    expect(formulaSafe("'=1")).toBe("''=1")
  })
})
