import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defaultTimePattern, formatTime, parseTime, relativeTime, timeAgo, timestampToMillis } from '../../../src/lib/time.ts'

// Local-time dates built from parts, so the tests hold in any time zone.
const local = (y: number, mo: number, d: number, h = 0, i = 0, s = 0, ms = 0) => new Date(y, mo - 1, d, h, i, s, ms)

describe('parseTime', () => {
  it('treats a ten-digit timestamp as seconds, as a number or a string of digits', () => {
    expect(parseTime(1700000000)?.getTime()).toBe(1_700_000_000_000)
    expect(parseTime('1700000000')?.getTime()).toBe(1_700_000_000_000)
    expect(parseTime(1000000000)?.getTime()).toBe(1_000_000_000_000)
    expect(parseTime(9999999999)?.getTime()).toBe(9_999_999_999_000)
  })
  it('treats other lengths as milliseconds', () => {
    expect(parseTime(1_700_000_000_000)?.getTime()).toBe(1_700_000_000_000)
    expect(parseTime('1700000000000')?.getTime()).toBe(1_700_000_000_000)
    expect(parseTime(999999999)?.getTime()).toBe(999_999_999) // nine digits
    expect(parseTime(10000000000)?.getTime()).toBe(10_000_000_000) // eleven digits
    expect(parseTime(0)?.getTime()).toBe(0)
  })
  it('every ten-digit integer is seconds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000_000_000, max: 9_999_999_999 }),
        (s) => parseTime(s)?.getTime() === s * 1000 && parseTime(String(s))?.getTime() === s * 1000 && timestampToMillis(s) === s * 1000,
      ),
    )
  })
  it('reads local date strings with - or / and ISO strings with a zone', () => {
    expect(parseTime('2024-01-02 03:04:05')?.getTime()).toBe(local(2024, 1, 2, 3, 4, 5).getTime())
    expect(parseTime('2024/1/2 3:04')?.getTime()).toBe(local(2024, 1, 2, 3, 4).getTime())
    expect(parseTime('2024-01-02')?.getTime()).toBe(local(2024, 1, 2).getTime())
    expect(parseTime('2024-01-02T03:04:05.5')?.getTime()).toBe(local(2024, 1, 2, 3, 4, 5, 500).getTime())
    expect(parseTime('2024-01-02T03:04:05.000Z')?.getTime()).toBe(Date.UTC(2024, 0, 2, 3, 4, 5))
    expect(parseTime('2024-01-02T03:04:05+08:00')?.getTime()).toBe(Date.UTC(2024, 0, 1, 19, 4, 5))
  })
  it('copies a Date', () => {
    const d = local(2020, 5, 6)
    const parsed = parseTime(d)
    expect(parsed?.getTime()).toBe(d.getTime())
    expect(parsed).not.toBe(d)
  })
  it('gives null for empty, invalid and impossible input', () => {
    for (const v of [
      null,
      undefined,
      '',
      '   ',
      'yesterday',
      '2024-02-30',
      '2023-02-29 10:00',
      '2024-13-01',
      '2024-01-01 24:00',
      new Date(Number.NaN),
      Number.NaN,
    ])
      expect(parseTime(v as never)).toBeNull()
    expect(parseTime('2024-02-29')).not.toBeNull()
  })
})

describe('formatTime', () => {
  it("uses '{y}-{m}-{d} {h}:{i}:{s}' by default, zero-padded", () => {
    expect(defaultTimePattern).toBe('{y}-{m}-{d} {h}:{i}:{s}')
    expect(formatTime(local(2024, 1, 2, 3, 4, 5))).toBe('2024-01-02 03:04:05')
    expect(formatTime(local(2024, 12, 31, 23, 59, 59))).toBe('2024-12-31 23:59:59')
  })
  it('formats ten-digit seconds as the same instant as milliseconds', () => {
    expect(formatTime(1700000000)).toBe(formatTime(new Date(1_700_000_000_000)))
    expect(formatTime('1700000000')).toBe(formatTime(1_700_000_000_000))
    const seconds = Math.floor(local(2021, 7, 8, 9, 10, 11).getTime() / 1000)
    expect(formatTime(seconds)).toBe('2021-07-08 09:10:11')
  })
  it('takes a custom pattern and the weekday in both languages', () => {
    const d = local(2024, 3, 5, 14, 7, 9) // a Tuesday
    expect(formatTime(d, '{y}/{m}/{d}')).toBe('2024/03/05')
    expect(formatTime(d, '{h}:{i}')).toBe('14:07')
    expect(formatTime(d, '星期{a}')).toBe('星期二')
    expect(formatTime(d, '{a}', 'en')).toBe('Tue')
    expect(formatTime(d, '{x} {y}')).toBe('{x} 2024')
  })
  it('gives null when the input cannot be read', () => {
    expect(formatTime('not a date')).toBeNull()
    expect(formatTime(null)).toBeNull()
  })
  it('round-trips through parseTime to the second', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        const text = formatTime(ms) as string
        return formatTime(parseTime(text)) === text
      }),
    )
  })
})

describe('relativeTime (SPEC §9)', () => {
  const now = local(2024, 6, 15, 12, 0, 0).getTime()
  const ago = (seconds: number) => now - seconds * 1000

  it('says just now under 30 s and minutes from 30 s', () => {
    expect(relativeTime(ago(0), { now })).toBe('刚刚')
    expect(relativeTime(ago(29), { now })).toBe('刚刚')
    expect(relativeTime(ago(29.999), { now })).toBe('刚刚')
    expect(relativeTime(ago(30), { now })).toBe('1分钟前')
    expect(relativeTime(ago(29), { now, lang: 'en' })).toBe('just now')
    expect(relativeTime(ago(30), { now, lang: 'en' })).toBe('1 minute ago')
    expect(relativeTime(ago(61), { now, lang: 'en' })).toBe('2 minutes ago')
  })
  it('says minutes under an hour and hours from an hour (rounded up)', () => {
    expect(relativeTime(ago(59 * 60), { now })).toBe('59分钟前')
    expect(relativeTime(ago(59 * 60), { now, lang: 'en' })).toBe('59 minutes ago')
    expect(relativeTime(ago(3599), { now })).toBe('60分钟前')
    expect(relativeTime(ago(60 * 60), { now })).toBe('1小时前')
    expect(relativeTime(ago(60 * 60), { now, lang: 'en' })).toBe('1 hour ago')
    expect(relativeTime(ago(60 * 60 + 1), { now, lang: 'en' })).toBe('2 hours ago')
  })
  it('says hours under a day and 1 day from a day to two days', () => {
    expect(relativeTime(ago(23 * 3600), { now })).toBe('23小时前')
    expect(relativeTime(ago(23 * 3600), { now, lang: 'en' })).toBe('23 hours ago')
    expect(relativeTime(ago(24 * 3600), { now })).toBe('1天前')
    expect(relativeTime(ago(24 * 3600), { now, lang: 'en' })).toBe('1 day ago')
    expect(relativeTime(ago(47 * 3600), { now })).toBe('1天前')
    expect(relativeTime(ago(48 * 3600 - 1), { now, lang: 'en' })).toBe('1 day ago')
  })
  it('gives a date from two days on', () => {
    expect(relativeTime(ago(48 * 3600), { now })).toBe('6月13日12时0分')
    expect(relativeTime(ago(48 * 3600), { now, lang: 'en' })).toBe('Jun 13 12:00')
    expect(relativeTime(local(2024, 3, 5, 9, 7), { now, lang: 'en' })).toBe('Mar 5 09:07')
    expect(relativeTime(local(2024, 3, 5, 9, 7), { now, pattern: '{y}-{m}-{d}' })).toBe('2024-03-05')
  })
  it('names the year when it is not the current one', () => {
    const jan1 = local(2024, 1, 1).getTime()
    expect(relativeTime(local(2023, 12, 25, 10, 5), { now: jan1 })).toBe('2023年12月25日10时5分')
    expect(relativeTime(local(2023, 12, 25, 10, 5), { now: jan1, lang: 'en' })).toBe('Dec 25, 2023 10:05')
  })
  it('takes ten-digit seconds and a Date as now', () => {
    expect(relativeTime(Math.floor(now / 1000) - 100, { now: new Date(now) })).toBe('2分钟前')
  })
  it('calls a time in the future just now, and unreadable input null', () => {
    expect(relativeTime(now + 3_600_000, { now })).toBe('刚刚')
    expect(relativeTime('garbage', { now })).toBeNull()
  })
  it('uses the clock when now is left out', () => {
    expect(relativeTime(Date.now() - 5000)).toBe('刚刚')
    expect(relativeTime(Date.now() - 5 * 60_000 - 10_000, { lang: 'en' })).toBe('6 minutes ago')
  })
  it('agrees with the SPEC bands for any age under two days', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 * 86400 - 1 }), (s) => {
        const text = relativeTime(ago(s), { now, lang: 'en' })
        if (s < 30) return text === 'just now'
        if (s < 3600) return text === `${Math.ceil(s / 60)} minute${Math.ceil(s / 60) === 1 ? '' : 's'} ago`
        if (s < 86400) return text === `${Math.ceil(s / 3600)} hour${Math.ceil(s / 3600) === 1 ? '' : 's'} ago`
        return text === '1 day ago'
      }),
    )
  })
})

describe('timeAgo (the second helper of SPEC §9)', () => {
  const now = local(2024, 6, 15, 12, 0, 0).getTime()
  const ago = (seconds: number) => now - seconds * 1000
  it('counts whole minutes under 3600 s', () => {
    expect(timeAgo(ago(0), { now, lang: 'en' })).toBe('0 minutes ago')
    expect(timeAgo(ago(59), { now, lang: 'en' })).toBe('0 minutes ago')
    expect(timeAgo(ago(60), { now, lang: 'en' })).toBe('1 minute ago')
    expect(timeAgo(ago(3599), { now, lang: 'en' })).toBe('59 minutes ago')
    expect(timeAgo(ago(3599), { now })).toBe('59分钟前')
  })
  it('counts whole hours from 3600 s to under 86400 s', () => {
    expect(timeAgo(ago(3600), { now, lang: 'en' })).toBe('1 hour ago')
    expect(timeAgo(ago(3600), { now })).toBe('1小时前')
    expect(timeAgo(ago(7199), { now, lang: 'en' })).toBe('1 hour ago')
    expect(timeAgo(ago(86399), { now, lang: 'en' })).toBe('23 hours ago')
  })
  it('counts whole days from 86400 s', () => {
    expect(timeAgo(ago(86400), { now, lang: 'en' })).toBe('1 day ago')
    expect(timeAgo(ago(86400), { now })).toBe('1天前')
    expect(timeAgo(ago(2 * 86400), { now, lang: 'en' })).toBe('2 days ago')
    expect(timeAgo(ago(400 * 86400), { now })).toBe('400天前')
  })
  it('takes ten-digit seconds, counts the future as 0 and refuses garbage', () => {
    expect(timeAgo(Math.floor(now / 1000) - 7200, { now })).toBe('2小时前')
    expect(timeAgo(now + 10_000, { now })).toBe('0分钟前')
    expect(timeAgo('garbage', { now })).toBeNull()
  })
  it('never says more than relativeTime (floor against ceil)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 30, max: 86399 }), (s) => {
        const a = Number(/^(\d+)/.exec(timeAgo(ago(s), { now, lang: 'en' }) as string)?.[1])
        const r = Number(/^(\d+)/.exec(relativeTime(ago(s), { now, lang: 'en' }) as string)?.[1])
        return a <= r
      }),
    )
  })
})
