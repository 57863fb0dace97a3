import { describe, expect, it } from 'vitest'
import { dateFormats, type DateFormat } from '../../../contract/dictionary.ts'
import {
  fieldKindOf,
  fromPickerValue,
  isMultiKind,
  isPickKind,
  pickerOf,
  timePatternOf,
  toPickerValue,
} from '../../../src/ui/formRenderer/fieldKind.ts'
import { formatTime } from '../../../src/lib/time.ts'
import { matchesDateFormat } from '../../../contract/indicatorRules.ts'

describe('fieldKindOf (SPEC §3 custom form field kinds)', () => {
  it.each([
    [{ type: 'single', display: 'radio', dataType: 'text', dateFormat: null }, 'radio'],
    [{ type: 'single', display: 'select', dataType: 'text', dateFormat: null }, 'select'],
    [{ type: 'multiple', display: 'checkbox', dataType: 'text', dateFormat: null }, 'checkbox'],
    [{ type: 'multiple', display: 'select', dataType: 'text', dateFormat: null }, 'multiSelect'],
    [{ type: 'blank', display: 'input', dataType: 'text', dateFormat: null }, 'input'],
    [{ type: 'blank', display: 'textarea', dataType: 'text', dateFormat: null }, 'textarea'],
    [{ type: 'blank', display: 'input', dataType: 'integer', dateFormat: null }, 'number'],
    [{ type: 'blank', display: 'input', dataType: 'decimal', dateFormat: null }, 'number'],
    [{ type: 'date', display: 'input', dataType: 'text', dateFormat: 'YYYY-MM-DD' }, 'date'],
    [{ type: 'date', display: 'input', dataType: 'text', dateFormat: 'YYYY-MM' }, 'date'],
    [{ type: 'date', display: 'input', dataType: 'text', dateFormat: 'YYYY' }, 'date'],
    [{ type: 'date', display: 'input', dataType: 'text', dateFormat: 'HH:mm' }, 'time'],
    [{ type: 'date', display: 'input', dataType: 'text', dateFormat: 'HH:mm:ss' }, 'time'],
    [{ type: 'date', display: 'input', dataType: 'text', dateFormat: 'YYYY-MM-DD HH:mm' }, 'dateTime'],
    [{ type: 'date', display: 'input', dataType: 'text', dateFormat: 'YYYY-MM-DD HH:mm:ss' }, 'dateTime'],
    [{ type: 'date', display: 'input', dataType: 'text', dateFormat: null }, 'date'],
  ] as const)('%j → %s', (spec, kind) => {
    expect(fieldKindOf(spec)).toBe(kind)
  })

  it('falls back to the first display form a type allows', () => {
    expect(fieldKindOf({ type: 'single', display: 'checkbox', dataType: 'text', dateFormat: null })).toBe('radio')
    expect(fieldKindOf({ type: 'multiple', display: 'radio', dataType: 'text', dateFormat: null })).toBe('checkbox')
    expect(fieldKindOf({ type: 'blank', display: 'radio', dataType: 'text', dateFormat: null })).toBe('input')
  })

  it('tells list-valued and picked kinds apart', () => {
    expect(['checkbox', 'multiSelect'].every((k) => isMultiKind(k as never))).toBe(true)
    expect(isMultiKind('radio')).toBe(false)
    expect(isPickKind('date')).toBe(true)
    expect(isPickKind('number')).toBe(false)
    expect(isPickKind('input')).toBe(false)
  })
})

describe('the browser pickers beside date fields', () => {
  it('are date / month / time / datetime-local, with seconds where the format has them; a year has none', () => {
    expect(pickerOf('YYYY-MM-DD')).toEqual({ type: 'date', seconds: false })
    expect(pickerOf('YYYY-MM')).toEqual({ type: 'month', seconds: false })
    expect(pickerOf('YYYY')).toBeNull()
    expect(pickerOf('HH:mm:ss')).toEqual({ type: 'time', seconds: true })
    expect(pickerOf('YYYY-MM-DD HH:mm')).toEqual({ type: 'datetime-local', seconds: false })
  })

  it('map values both ways in the indicator format', () => {
    expect(toPickerValue('2024-03-05 08:30', 'YYYY-MM-DD HH:mm')).toBe('2024-03-05T08:30')
    expect(fromPickerValue('2024-03-05T08:30', 'YYYY-MM-DD HH:mm')).toBe('2024-03-05 08:30')
    // Browsers drop zero seconds, or add seconds a format has none of.
    expect(fromPickerValue('2024-03-05T08:30', 'YYYY-MM-DD HH:mm:ss')).toBe('2024-03-05 08:30:00')
    expect(fromPickerValue('08:30:15', 'HH:mm')).toBe('08:30')
    expect(fromPickerValue('08:30', 'HH:mm:ss')).toBe('08:30:00')
    expect(fromPickerValue('08:30:15.250', 'HH:mm:ss')).toBe('08:30:15')
    expect(fromPickerValue('', 'HH:mm')).toBe('')
    expect(fromPickerValue('2024-03', 'YYYY-MM')).toBe('2024-03')
  })

  it('open empty while the typed text is not yet a value of the format', () => {
    expect(toPickerValue('2024-0', 'YYYY-MM-DD')).toBe('')
    expect(toPickerValue('2024-02-30', 'YYYY-MM-DD')).toBe('')
    expect(toPickerValue('2024-02-29', 'YYYY-MM-DD')).toBe('2024-02-29')
  })

  it('give every format a value the contract accepts', () => {
    const samples: Record<DateFormat, string> = {
      'YYYY-MM-DD': '2024-02-29',
      'YYYY-MM': '2024-02',
      YYYY: '2024',
      'HH:mm': '23:59',
      'HH:mm:ss': '23:59',
      'YYYY-MM-DD HH:mm': '2024-02-29T23:59',
      'YYYY-MM-DD HH:mm:ss': '2024-02-29T23:59',
    }
    for (const f of dateFormats) expect(matchesDateFormat(fromPickerValue(samples[f], f), f), f).toBe(true)
  })
})

describe('today / now in a date field', () => {
  it('writes the local moment in every format, and each is a value of its format', () => {
    const at = new Date(2024, 1, 29, 7, 5, 9)
    const now = (f: DateFormat) => formatTime(at, timePatternOf(f))
    expect(now('YYYY-MM-DD')).toBe('2024-02-29')
    expect(now('YYYY-MM')).toBe('2024-02')
    expect(now('YYYY')).toBe('2024')
    expect(now('HH:mm')).toBe('07:05')
    expect(now('HH:mm:ss')).toBe('07:05:09')
    expect(now('YYYY-MM-DD HH:mm')).toBe('2024-02-29 07:05')
    expect(now('YYYY-MM-DD HH:mm:ss')).toBe('2024-02-29 07:05:09')
    for (const f of dateFormats) expect(matchesDateFormat(now(f)!, f), f).toBe(true)
  })
})
