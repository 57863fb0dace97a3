/**
 * Which control a field gets (SPEC §3 custom form field kinds), from its indicator alone. Pure:
 * the renderer, data entry and their tests all ask here.
 */
import type { DateFormat, Indicator } from '../../../contract/dictionary.ts'
import { displayFor } from '../../../contract/indicatorRules.ts'

export type FieldKind = 'radio' | 'select' | 'checkbox' | 'multiSelect' | 'input' | 'textarea' | 'number' | 'date' | 'time' | 'dateTime'

/** What the kind depends on. */
export type FieldSpec = Pick<Indicator, 'type' | 'display' | 'dataType' | 'dateFormat'>

/** A date field without a format is a plain date. */
export const defaultDateFormat: DateFormat = 'YYYY-MM-DD'

export const dateFormatOf = (f: Pick<Indicator, 'dateFormat'>): DateFormat => f.dateFormat ?? defaultDateFormat

/**
 * single + radio → radio group, single + select → select, multiple + checkbox → checkboxes,
 * multiple + select → multiple select, blank + integer/decimal → number, blank + textarea → text
 * area, blank + input → input, date → date / time / date-time by its format. A display form the
 * type does not allow (contract displayFor) falls back to the type's first one.
 */
export function fieldKindOf(f: FieldSpec): FieldKind {
  const allowed = displayFor[f.type] as readonly string[]
  const display = allowed.includes(f.display) ? f.display : (allowed[0] as Indicator['display'])
  switch (f.type) {
    case 'single':
      return display === 'select' ? 'select' : 'radio'
    case 'multiple':
      return display === 'select' ? 'multiSelect' : 'checkbox'
    case 'blank':
      if (f.dataType === 'integer' || f.dataType === 'decimal') return 'number'
      return display === 'textarea' ? 'textarea' : 'input'
    case 'date': {
      const format = dateFormatOf(f)
      const hasDate = format.startsWith('YYYY')
      const hasTime = format.includes('HH')
      return hasDate && hasTime ? 'dateTime' : hasTime ? 'time' : 'date'
    }
  }
}

/** True for the kinds whose value is a list of options. */
export const isMultiKind = (kind: FieldKind) => kind === 'checkbox' || kind === 'multiSelect'

/** True for the kinds a person picks (rather than types) a value in: 'please select {0}'. */
export const isPickKind = (kind: FieldKind) =>
  kind === 'radio' ||
  kind === 'select' ||
  kind === 'checkbox' ||
  kind === 'multiSelect' ||
  kind === 'date' ||
  kind === 'time' ||
  kind === 'dateTime'

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
