import { describe, expect, it } from 'vitest'
import { invalidRange, rangeInstant, rangeText } from '../../../src/features/admin/auditRange.ts'

const local = (text: string) => new Date(text).toISOString()

describe('the audit log time range as typed', () => {
  it('reads a time, or a date alone as its whole day, in the browser zone', () => {
    expect(rangeInstant('2026-11-20 08:30', false)).toBe(local('2026-11-20T08:30'))
    expect(rangeInstant('2026-11-20 08:30', true)).toBe(local('2026-11-20T08:30:59.999'))
    expect(rangeInstant('2026-11-20', false)).toBe(local('2026-11-20T00:00'))
    expect(rangeInstant('2026-11-20', true)).toBe(local('2026-11-20T23:59:59.999'))
    // Spelled as a date field reads them.
    expect(rangeInstant('2026/11/20 8:30', false)).toBe(local('2026-11-20T08:30'))
    expect(rangeInstant('20261120', true)).toBe(local('2026-11-20T23:59:59.999'))
  })

  it('gives no bound for nothing typed or for what is no time, and says which is invalid', () => {
    expect(rangeInstant('', false)).toBeUndefined()
    expect(rangeInstant('11/20/2026', false)).toBeUndefined()
    expect(rangeInstant('2026-02-30', false)).toBeUndefined()
    expect(invalidRange('')).toBe(false)
    expect(invalidRange('2026-11-20')).toBe(false)
    expect(invalidRange('11/20/2026')).toBe(true)
  })

  it('shows an instant of the path in the browser zone, and reads it back to the same minute', () => {
    const iso = local('2026-11-20T08:30')
    expect(rangeText(iso)).toBe('2026-11-20 08:30')
    expect(rangeInstant(rangeText(iso), false)).toBe(iso)
    expect(rangeText(undefined)).toBe('')
    expect(rangeText('not a time')).toBe('')
  })
})
