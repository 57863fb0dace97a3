import type { DateFormat } from '../../../contract/dictionary.ts'

/**
 * A date or time typed the way spreadsheets write them, in the field's format. Excel saves a
 * date of a CSV in the computer's own spelling: '2024/1/5' (Chinese Windows), '2024.1.5',
 * '2024-1-5 9:30'. Year-first spellings are unambiguous, so they are read: separators become '-',
 * months, days and hours get their leading zero. Day-first and month-first ones ('5/1/2024',
 * '1/5/2024') cannot be told apart and are left as they are, to be refused with the format.
 * Where the format has seconds, a time without them gets ':00' (Excel writes an xlsx time's zero
 * seconds as nothing: 09:30 is 09:30:00). Nothing else is added: no day, no time of day.
 */
export function dateSpelling(text: string, format: DateFormat): string {
  if (shaped(text, format)) return text
  const m = /^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text)
  const time = format.startsWith('HH') ? /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text) : null
  const two = (s: string) => s.padStart(2, '0')
  const seconds = (s: string | undefined) => (s ? `:${s}` : format.endsWith('ss') ? ':00' : '')
  if (time) return `${two(time[1]!)}:${time[2]}${seconds(time[3])}`
  if (!m) return text
  const [, y, mo, d, h, mi, s] = m
  const date = [y, ...(mo ? [two(mo)] : []), ...(d ? [two(d)] : [])].join('-')
  return h ? `${date} ${two(h)}:${mi}${seconds(s)}` : date
}

/** Separators where the format has them: the common case, which an upload meets 100,000 times, taken as it is. */
function shaped(text: string, format: DateFormat): boolean {
  if (text.length !== format.length) return false
  for (let i = 0; i < format.length; i++) {
    const f = format[i]!
    if ((f === '-' || f === ':' || f === ' ') && text[i] !== f) return false
  }
  return true
}
