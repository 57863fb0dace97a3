import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dateFormats, type DateFormat } from '../../../contract/dictionary.ts'
import { matchesDateFormat } from '../../../contract/indicatorRules.ts'

/** The rule read the obvious way (split, Date.UTC round trip): what the positional reading must agree with. */
function byDate(value: string, format: DateFormat): boolean {
  const shapes: Record<DateFormat, RegExp> = {
    'YYYY-MM-DD': /^\d{4}-\d{2}-\d{2}$/,
    'YYYY-MM': /^\d{4}-\d{2}$/,
    YYYY: /^\d{4}$/,
    'HH:mm': /^\d{2}:\d{2}$/,
    'HH:mm:ss': /^\d{2}:\d{2}:\d{2}$/,
    'YYYY-MM-DD HH:mm': /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/,
    'YYYY-MM-DD HH:mm:ss': /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
  }
  if (!shapes[format].test(value)) return false
  const [datePart = '', timePart] = format.startsWith('HH') ? ['', value] : value.split(' ')
  if (datePart) {
    const [y = 0, m = 1, d = 1] = datePart.split('-').map(Number)
    const date = new Date(Date.UTC(y, m - 1, d))
    if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false
  }
  if (timePart) {
    const [h = 0, min = 0, s = 0] = timePart.split(':').map(Number)
    if (h > 23 || min > 59 || s > 59) return false
  }
  return true
}

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''))
/** Strings shaped like a format, with every digit free (so Feb 30, month 13, hour 24 and year 0050 all come up). */
const shaped = (format: DateFormat) =>
  fc
    .tuple(digits(4), digits(2), digits(2), digits(2), digits(2), digits(2))
    .map(([y, m, d, h, mi, s]) =>
      format.replace('YYYY', y).replace('MM', m).replace('DD', d).replace('HH', h).replace('mm', mi).replace('ss', s),
    )

describe('matchesDateFormat', () => {
  it.each([...dateFormats])('reads %s by position exactly as the Date round trip does', (format) => {
    fc.assert(
      fc.property(fc.oneof(shaped(format), fc.string({ maxLength: 20 })), (v) => matchesDateFormat(v, format) === byDate(v, format)),
      {
        numRuns: 3000,
      },
    )
  })

  it('knows leap years and short months', () => {
    expect(matchesDateFormat('2024-02-29', 'YYYY-MM-DD')).toBe(true)
    expect(matchesDateFormat('2023-02-29', 'YYYY-MM-DD')).toBe(false)
    expect(matchesDateFormat('1900-02-29', 'YYYY-MM-DD')).toBe(false)
    expect(matchesDateFormat('2000-02-29', 'YYYY-MM-DD')).toBe(true)
    expect(matchesDateFormat('2024-04-31', 'YYYY-MM-DD')).toBe(false)
    expect(matchesDateFormat('2024-13', 'YYYY-MM')).toBe(false)
    expect(matchesDateFormat('2024-01-01 24:00', 'YYYY-MM-DD HH:mm')).toBe(false)
  })
})
