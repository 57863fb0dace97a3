/**
 * The audit log's time range as typed: `YYYY-MM-DD HH:mm` or a date alone, in the browser's own
 * time zone (the clock on the wall where the administrator sits), as the ISO instants the server
 * compares. A date alone covers its whole day.
 */
import { dateSpelling } from '../../../contract/dateSpelling.ts'
import { halfWidth } from '../../../contract/halfWidth.ts'
import { matchesDateFormat } from '../../../contract/indicatorRules.ts'
import { formatTime } from '../../lib/time.ts'

export const rangeFormat = 'YYYY-MM-DD HH:mm'

/** An ISO instant as the range field shows it, in the browser's zone; '' when it is none. */
export function rangeText(iso: string | undefined): string {
  return formatTime(iso, '{y}-{m}-{d} {h}:{i}') ?? ''
}

/**
 * The instant a typed bound stands for; `end` takes the whole last minute, or the whole day of a
 * date alone. Undefined for nothing typed or for what is not such a time (`invalid` says which).
 */
export function rangeInstant(text: string, end: boolean): string | undefined {
  const typed = halfWidth(text).trim()
  const withTime = dateSpelling(typed, rangeFormat)
  if (matchesDateFormat(withTime, rangeFormat)) {
    const d = new Date(withTime.replace(' ', 'T'))
    if (end) d.setSeconds(59, 999)
    return d.toISOString()
  }
  const day = dateSpelling(typed, 'YYYY-MM-DD')
  if (!matchesDateFormat(day, 'YYYY-MM-DD')) return undefined
  const d = new Date(`${day}T00:00`)
  if (end) d.setHours(23, 59, 59, 999)
  return d.toISOString()
}

/** Something is typed that is no time of the range. */
export const invalidRange = (text: string) => text.trim() !== '' && rangeInstant(text, false) === undefined
