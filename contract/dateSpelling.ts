import type { DateFormat } from './dictionary.ts'

/**
 * A date or time as people and spreadsheets spell it, in the field's format: the one reading of
 * an upload's cells and of what is typed into a date field. Excel saves a date of a CSV in the
 * computer's own spelling: '2024/1/5' (Chinese Windows), '2024.1.5', '2024-1-5 9:30'; hospital
 * systems and people typing fast write '20240105'. Year-first spellings are unambiguous, so they
 * are read: separators become '-', months, days and hours get their leading zero, and a run of
 * digits exactly as long as the format's digits is cut at the format's places. Day-first and
 * month-first ones ('5/1/2024', '1/5/2024') cannot be told apart and are left as they are, to be
 * refused with the format. Where the format has seconds, a time without them gets ':00' (Excel
 * writes an xlsx time's zero seconds as nothing: 09:30 is 09:30:00). Nothing else is added: no
 * day, no time of day.
 */
export function dateSpelling(text: string, format: DateFormat): string {
  if (shaped(text, format)) return text
  const compact = compactSpelling(text, format)
  if (compact !== undefined) return compact
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

/** '20240105' for YYYY-MM-DD, '0930' for HH:mm: the format's digits with nothing between them. */
function compactSpelling(text: string, format: DateFormat): string | undefined {
  const digits = format.replace(/[^A-Za-z]/g, '').length
  if (text.length !== digits || !/^\d+$/.test(text)) return undefined
  let at = 0
  return format.replace(/[A-Za-z]/g, () => text[at++]!)
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
