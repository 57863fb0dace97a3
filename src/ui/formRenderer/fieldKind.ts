/** How a field kind (contract/fieldKind.ts) maps to the browser's inputs. */
import type { DateFormat } from '../../../contract/dictionary.ts'
import { matchesDateFormat } from '../../../contract/indicatorRules.ts'

export * from '../../../contract/fieldKind.ts'

/**
 * The browser's own picker offered beside a date, time or date-time field (none for a year).
 * The field itself is text in the format: a native date input shows the browser's order
 * (06/09/2024 in an en-US browser, 2024/06/09 in a Chinese one) and a 12-hour clock, where the
 * form states YYYY-MM-DD and a study needs one unambiguous spelling at every center.
 */
export interface DatePicker {
  type: 'date' | 'month' | 'time' | 'datetime-local'
  /** Seconds are picked (step 1). */
  seconds: boolean
}

export function pickerOf(format: DateFormat): DatePicker | null {
  switch (format) {
    case 'YYYY-MM-DD':
      return { type: 'date', seconds: false }
    case 'YYYY-MM':
      return { type: 'month', seconds: false }
    case 'YYYY':
      return null
    case 'HH:mm':
      return { type: 'time', seconds: false }
    case 'HH:mm:ss':
      return { type: 'time', seconds: true }
    case 'YYYY-MM-DD HH:mm':
      return { type: 'datetime-local', seconds: false }
    case 'YYYY-MM-DD HH:mm:ss':
      return { type: 'datetime-local', seconds: true }
  }
}

/** The value as the picker wants it, so it opens on it; '' while the text is not (yet) a value of the format. */
export function toPickerValue(value: string, format: DateFormat): string {
  if (!matchesDateFormat(value, format)) return ''
  return pickerOf(format)?.type === 'datetime-local' ? value.replace(' ', 'T') : value
}

/**
 * The picker's value in the indicator's format. Browsers drop ':00' seconds and may add
 * seconds the format has none of; both are put right here.
 */
export function fromPickerValue(input: string, format: DateFormat): string {
  if (input === '') return ''
  const picker = pickerOf(format)
  if (picker?.type !== 'time' && picker?.type !== 'datetime-local') return input
  let v = input.replace('T', ' ')
  const time = /(\d{2}:\d{2})(:\d{2})?(\.\d+)?$/.exec(v)
  if (time) {
    const hm = time[1] as string
    const ss = time[2] ?? ':00'
    v = v.slice(0, time.index) + hm + (picker.seconds ? ss : '')
  }
  return v
}

/** The format as a formatTime pattern (src/lib/time.ts), for today / now in the field's format. */
export const timePatternOf = (format: DateFormat): string =>
  format.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => ({ YYYY: '{y}', MM: '{m}', DD: '{d}', HH: '{h}', mm: '{i}', ss: '{s}' })[token]!)
