/** How a field kind (contract/fieldKind.ts) maps to the browser's native inputs. */
import type { DateFormat } from '../../../contract/dictionary.ts'

export * from '../../../contract/fieldKind.ts'

/** The native input behind a date, time or date-time field, and how its value maps to the format. */
export interface DateInput {
  type: 'date' | 'month' | 'time' | 'datetime-local' | 'text'
  /** Seconds are entered (step 1). */
  seconds: boolean
}

export function dateInputOf(format: DateFormat): DateInput {
  switch (format) {
    case 'YYYY-MM-DD':
      return { type: 'date', seconds: false }
    case 'YYYY-MM':
      return { type: 'month', seconds: false }
    case 'YYYY':
      // No native year picker: four digits typed.
      return { type: 'text', seconds: false }
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

/** The stored value (in the indicator's format) as the native input wants it. */
export function toInputValue(value: string, format: DateFormat): string {
  return dateInputOf(format).type === 'datetime-local' ? value.replace(' ', 'T') : value
}

/**
 * The native input's value in the indicator's format. Browsers drop ':00' seconds and may add
 * seconds the format has none of; both are put right here.
 */
export function fromInputValue(input: string, format: DateFormat): string {
  if (input === '') return ''
  const { type, seconds } = dateInputOf(format)
  if (type !== 'time' && type !== 'datetime-local') return input
  let v = input.replace('T', ' ')
  const time = /(\d{2}:\d{2})(:\d{2})?(\.\d+)?$/.exec(v)
  if (time) {
    const hm = time[1] as string
    const ss = time[2] ?? ':00'
    v = v.slice(0, time.index) + hm + (seconds ? ss : '')
  }
  return v
}
