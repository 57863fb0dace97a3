import { describe, expect, it } from 'vitest'
import { matchesDateFormat } from '../../../contract/indicatorRules.ts'
import { dateFormats } from '../../../contract/dictionary.ts'
import { dateSpelling } from '../../../contract/dateSpelling.ts'
import { collectedAtSpelling, isCollectedAt } from '../../../contract/samples.ts'

describe('dateSpelling (dates as spreadsheets save them and people type them)', () => {
  it('reads year-first spellings into the field format', () => {
    expect(dateSpelling('2024/1/5', 'YYYY-MM-DD')).toBe('2024-01-05')
    expect(dateSpelling('2024.10.21', 'YYYY-MM-DD')).toBe('2024-10-21')
    expect(dateSpelling('2024-1-5', 'YYYY-MM-DD')).toBe('2024-01-05')
    expect(dateSpelling('2024/3', 'YYYY-MM')).toBe('2024-03')
    expect(dateSpelling('2024/1/5 9:30', 'YYYY-MM-DD HH:mm')).toBe('2024-01-05 09:30')
    expect(dateSpelling('2024/1/5 9:30:07', 'YYYY-MM-DD HH:mm:ss')).toBe('2024-01-05 09:30:07')
    expect(dateSpelling('9:30', 'HH:mm')).toBe('09:30')
  })

  it("cuts a run of exactly the format's digits at the format's places", () => {
    expect(dateSpelling('20240105', 'YYYY-MM-DD')).toBe('2024-01-05')
    expect(dateSpelling('202401', 'YYYY-MM')).toBe('2024-01')
    expect(dateSpelling('0930', 'HH:mm')).toBe('09:30')
    expect(dateSpelling('093015', 'HH:mm:ss')).toBe('09:30:15')
    expect(dateSpelling('202401050930', 'YYYY-MM-DD HH:mm')).toBe('2024-01-05 09:30')
    expect(dateSpelling('20240105093015', 'YYYY-MM-DD HH:mm:ss')).toBe('2024-01-05 09:30:15')
    // Any other length is not a date of this format: an Excel serial, a date without its time.
    expect(dateSpelling('45296', 'YYYY-MM-DD')).toBe('45296')
    expect(dateSpelling('20240105', 'YYYY-MM-DD HH:mm')).toBe('20240105')
    expect(dateSpelling('930', 'HH:mm')).toBe('930')
    // Cut, never corrected: a month 13 stays a month 13, refused with the format.
    expect(matchesDateFormat(dateSpelling('20241305', 'YYYY-MM-DD'), 'YYYY-MM-DD')).toBe(false)
  })

  it('leaves what is already right, and what cannot be told apart, as written', () => {
    expect(dateSpelling('2024-01-05', 'YYYY-MM-DD')).toBe('2024-01-05')
    expect(dateSpelling('2024', 'YYYY')).toBe('2024')
    // Day-first or month-first: 5 January or 1 May? Refused by the format rule, as before.
    expect(dateSpelling('1/5/2024', 'YYYY-MM-DD')).toBe('1/5/2024')
    expect(dateSpelling('5.1.2024', 'YYYY-MM-DD')).toBe('5.1.2024')
    expect(dateSpelling('yesterday', 'YYYY-MM-DD')).toBe('yesterday')
  })

  it('gives a time zero seconds where the format has seconds (as Excel writes 09:30:00 as 09:30)', () => {
    expect(dateSpelling('2024-01-05 09:30', 'YYYY-MM-DD HH:mm:ss')).toBe('2024-01-05 09:30:00')
    expect(dateSpelling('2024/1/5 9:30', 'YYYY-MM-DD HH:mm:ss')).toBe('2024-01-05 09:30:00')
    expect(dateSpelling('09:30', 'HH:mm:ss')).toBe('09:30:00')
    expect(dateSpelling('9:30:15', 'HH:mm')).toBe('09:30:15')
  })

  it('adds no day and no time of day: those stay missing and are refused', () => {
    expect(matchesDateFormat(dateSpelling('2024/3', 'YYYY-MM-DD'), 'YYYY-MM-DD')).toBe(false)
    expect(matchesDateFormat(dateSpelling('2024-01-05', 'YYYY-MM-DD HH:mm'), 'YYYY-MM-DD HH:mm')).toBe(false)
    expect(matchesDateFormat(dateSpelling('2024/2/30', 'YYYY-MM-DD'), 'YYYY-MM-DD')).toBe(false)
    // More than the field holds is refused too, not cut.
    expect(matchesDateFormat(dateSpelling('2024/1/5 9:30', 'YYYY-MM-DD'), 'YYYY-MM-DD')).toBe(false)
  })

  it('never turns a valid value of any format into another one', () => {
    const samples: Record<(typeof dateFormats)[number], string> = {
      'YYYY-MM-DD': '2024-02-29',
      'YYYY-MM': '2024-02',
      YYYY: '2024',
      'HH:mm': '23:59',
      'HH:mm:ss': '23:59:58',
      'YYYY-MM-DD HH:mm': '2024-02-29 00:00',
      'YYYY-MM-DD HH:mm:ss': '2024-02-29 00:00:01',
    }
    for (const format of dateFormats) expect(dateSpelling(samples[format], format)).toBe(samples[format])
  })
})

describe("collectedAtSpelling (a sample's collection time, a date with or without its time)", () => {
  it('reads either form as a date field would, and leaves what it cannot read as typed', () => {
    expect(collectedAtSpelling(' 2026/11/20 8:30 ')).toBe('2026-11-20 08:30')
    expect(collectedAtSpelling('20261120')).toBe('2026-11-20')
    expect(collectedAtSpelling('202611200830')).toBe('2026-11-20 08:30')
    expect(collectedAtSpelling('２０２６．１１．２０')).toBe('2026-11-20')
    expect(collectedAtSpelling('2026-11-20')).toBe('2026-11-20')
    expect(collectedAtSpelling('11/20/2026')).toBe('11/20/2026')
    expect(isCollectedAt(collectedAtSpelling('2026/13/20'))).toBe(false)
  })

  it('takes only a real day and time', () => {
    expect(['2026-11-20', '2024-02-29', '2026-11-20 23:59'].map(isCollectedAt)).toEqual([true, true, true])
    expect(['2026-02-30', '2025-02-29', '2026-04-31', '2026-11-20 24:00', '2026-11-20 8:30'].map(isCollectedAt)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ])
  })
})
