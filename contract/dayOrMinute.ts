import { dateSpelling } from './dateSpelling.ts'
import { halfWidth } from './halfWidth.ts'
import { matchesDateFormat } from './indicatorRules.ts'

/** A real day as `YYYY-MM-DD`, or a minute of one as `YYYY-MM-DD HH:mm` (not 2026-02-30). */
export const isDayOrMinute = (text: string): boolean => matchesDateFormat(text, 'YYYY-MM-DD') || matchesDateFormat(text, 'YYYY-MM-DD HH:mm')

/** A typed day or minute read as a date field reads one (`2026/11/20 8:30`, `20261120`); as typed when it is neither. */
export function dayOrMinuteSpelling(text: string): string {
  const typed = halfWidth(text).trim()
  return [dateSpelling(typed, 'YYYY-MM-DD HH:mm'), dateSpelling(typed, 'YYYY-MM-DD')].find(isDayOrMinute) ?? typed
}
