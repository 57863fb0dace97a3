import { describe, expect, it } from 'vitest'
import { configFromEnv } from '../../../server/config.ts'
import { dayIn, monthsBetween, startOfDay, systemTimeZone } from '../../../server/services/calendarDay.ts'

describe('calendar days of a time zone', () => {
  it('07:00 in Beijing is 23:00 UTC of the day before', () => {
    expect(dayIn('2026-03-01T23:00:00.000Z', 'Asia/Shanghai')).toBe('2026-03-02')
    expect(dayIn('2026-03-01T23:00:00.000Z', 'UTC')).toBe('2026-03-01')
    expect(startOfDay('2026-03-02', 'Asia/Shanghai')).toBe('2026-03-01T16:00:00.000Z')
  })

  it('a day starts at its own offset on either side of a daylight-saving change', () => {
    expect(startOfDay('2026-03-29', 'Europe/Berlin')).toBe('2026-03-28T23:00:00.000Z')
    expect(startOfDay('2026-03-30', 'Europe/Berlin')).toBe('2026-03-29T22:00:00.000Z')
    expect(startOfDay('2026-11-01', 'America/New_York')).toBe('2026-11-01T04:00:00.000Z')
    expect(startOfDay('2026-11-02', 'America/New_York')).toBe('2026-11-02T05:00:00.000Z')
    expect(dayIn('2026-11-02T04:59:59.000Z', 'America/New_York')).toBe('2026-11-01')
  })

  it("the zone's months between two instants, each from its first instant, across a year's end", () => {
    expect(monthsBetween('2025-11-30T16:00:00.000Z', '2026-01-31T23:00:00.000Z', 'Asia/Shanghai')).toEqual([
      { month: '2025-12', start: '2025-11-30T16:00:00.000Z' },
      { month: '2026-01', start: '2025-12-31T16:00:00.000Z' },
      { month: '2026-02', start: '2026-01-31T16:00:00.000Z' },
    ])
    expect(monthsBetween('2026-03-31T21:59:59.000Z', '2026-03-31T22:00:00.000Z', 'Europe/Berlin')).toEqual([
      { month: '2026-03', start: '2026-02-28T23:00:00.000Z' },
      { month: '2026-04', start: '2026-03-31T22:00:00.000Z' },
    ])
  })

  it('TIME_ZONE defaults to the system zone; an unknown zone stops the start', () => {
    expect(configFromEnv({}).timeZone).toBe(systemTimeZone())
    expect(configFromEnv({ TIME_ZONE: 'Asia/Shanghai' }).timeZone).toBe('Asia/Shanghai')
    expect(() => configFromEnv({ TIME_ZONE: 'Mars/Olympus' })).toThrow('TIME_ZONE must be a time zone')
  })
})
