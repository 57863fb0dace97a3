/**
 * Which control a field gets (SPEC §3 custom form field kinds), from its indicator alone. Pure and
 * shared: the renderer draws by it and the server validates by it.
 */
import type { DateFormat, Indicator } from './dictionary.ts'
import { displayFor } from './indicatorRules.ts'

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

/** True for the kinds that hold a date, a time or both, in the indicator's date format. */
export const isDateKind = (kind: FieldKind) => kind === 'date' || kind === 'time' || kind === 'dateTime'

/** True for the kinds a person picks (rather than types) a value in: 'please select {0}'. */
export const isPickKind = (kind: FieldKind) =>
  kind === 'radio' || kind === 'select' || kind === 'checkbox' || kind === 'multiSelect' || isDateKind(kind)
