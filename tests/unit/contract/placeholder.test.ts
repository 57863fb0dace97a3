import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { placeholdersOf, substitute } from '../../../contract/placeholder.ts'

describe('substitute (SPEC §9 placeholders)', () => {
  it('picks the singular or the plural word by the count', () => {
    const text = '{0} {0|field differs|fields differ}'
    expect(substitute(text, [1])).toBe('1 field differs')
    expect(substitute(text, [2])).toBe('2 fields differ')
    expect(substitute(text, [0])).toBe('0 fields differ')
    expect(substitute('{n|row|rows}', { n: 1 })).toBe('row')
    expect(substitute(text, [])).toBe(text)
  })

  it('replaces {0}, {1} … by position', () => {
    expect(substitute('Length limits {0} to {1} characters', [2, 10])).toBe('Length limits 2 to 10 characters')
    expect(substitute('{1} before {0}, {0} again', ['a', 'b'])).toBe('b before a, a again')
    expect(
      substitute(
        '{10}',
        Array.from({ length: 11 }, (_, i) => i),
      ),
    ).toBe('10')
  })
  it('replaces {name} from a record', () => {
    expect(substitute('Hello {name}', { name: 'Li' })).toBe('Hello Li')
  })
  it('leaves a placeholder without a value as written', () => {
    expect(substitute('{0} and {1}', ['x'])).toBe('x and {1}')
    expect(substitute('{0}', [null])).toBe('{0}')
    expect(substitute('{0}', [undefined])).toBe('{0}')
    expect(substitute('{toString}', {})).toBe('{toString}')
    expect(substitute('{0}')).toBe('{0}')
  })
  it('writes 0, false and empty strings', () => {
    expect(substitute('[{0}|{1}|{2}]', [0, false, ''])).toBe('[0|false|]')
  })
  it('does not substitute twice', () => {
    expect(substitute('{0} {1}', ['{1}', 'x'])).toBe('{1} x')
  })
  it('ignores braces that are not placeholders', () => {
    expect(substitute('{ 0 } {} {a-b} {{0}}', ['x'])).toBe('{ 0 } {} {a-b} {x}')
  })
  it('puts every value in and leaves texts without braces unchanged', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, value) => {
        const clean = before.replace(/[{}]/g, '')
        return substitute(`${clean}{0}${clean}`, [value]) === clean + value + clean && substitute(clean, [value]) === clean
      }),
    )
  })
  it('lists the placeholders of a template once each', () => {
    expect(placeholdersOf('{1} of {0} ({1})')).toEqual(['1', '0'])
    expect(placeholdersOf('none')).toEqual([])
  })
})
