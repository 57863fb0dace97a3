import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { csvCell, csvLine } from '../../server/services/dictionaryExchange/csv.ts'

describe('csvCell', () => {
  it('writes a text cell exactly as csvLine does, neutralised and quoted where needed', () => {
    const text = fc.oneof(fc.string(), fc.stringMatching(/^['=+\-@\t\r \n",a-z0-9.]{0,6}$/))
    fc.assert(fc.property(text, (s) => csvCell(s) + '\r\n' === csvLine([s])))
    expect(['plain', '=1+1', '-5', 'a,b', ' x', "'=2", '=x,"y"\nz'].map(csvCell)).toEqual([
      'plain',
      "'=1+1",
      '-5',
      '"a,b"',
      '" x"',
      "''=2",
      `"'=x,""y""\nz"`,
    ])
  })
})
