import { choiceCodePattern, optionLength, type Choice, type DateFormat, type IndicatorInput } from './dictionary.ts'

/**
 * The rules of SPEC §5 generic messages for an indicator, as pure functions: the server, the
 * import and the client form all call `indicatorProblems`, so a field is refused for the same
 * reason with the same message everywhere. Rules that need the database (unique code, the
 * dependent field exists, type frozen once in use) are the service's.
 */
export type ProblemKey =
  | 'required'
  | 'optionLength'
  | 'choiceCode'
  | 'optionsRequired'
  | 'exists'
  | 'integer'
  | 'number'
  | 'minAboveMax'
  | 'defaultMustExist'
  | 'defaultOutOfRange'
  | 'displayMismatch'
  | 'dateFormatRequired'
  | 'dateMismatch'
  | 'noSuchDate'
  | 'noSuchTime'
  | 'dependentValueRequired'

export interface Problem {
  field: keyof IndicatorInput
  key: ProblemKey
  params: (string | number)[]
}

/** Which display forms each type allows; the first is the default. */
export const displayFor = {
  single: ['radio', 'select'],
  multiple: ['checkbox', 'select'],
  blank: ['input', 'textarea'],
  date: ['input'],
} as const satisfies Record<IndicatorInput['type'], readonly IndicatorInput['display'][]>

const datePatterns: Record<DateFormat, RegExp> = {
  'YYYY-MM-DD': /^\d{4}-\d{2}-\d{2}$/,
  'YYYY-MM': /^\d{4}-\d{2}$/,
  YYYY: /^\d{4}$/,
  'HH:mm': /^\d{2}:\d{2}$/,
  'HH:mm:ss': /^\d{2}:\d{2}:\d{2}$/,
  'YYYY-MM-DD HH:mm': /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/,
  'YYYY-MM-DD HH:mm:ss': /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
}

const daysIn = (y: number, m: number) =>
  m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31

/** The two digits of `value` at `from` (not a closure inside the check: it runs per date cell of an upload). */
const twoDigits = (value: string, from: number) => Number(value.slice(from, from + 2))

/**
 * What is wrong with `value` as a date or time in `format`: not written in it ('format'), a day or
 * month the calendar lacks ('date': 2024-02-30; years before 100 too, as Date.UTC reads them as
 * 19xx), an hour, minute or second past its last ('time': 24:00); null when nothing is. Every
 * format puts each part at a fixed place, so the parts are read by position: a bulk upload runs
 * this on every date cell.
 */
export function dateProblem(value: string, format: DateFormat): 'format' | 'date' | 'time' | null {
  if (!datePatterns[format].test(value)) return 'format'
  let time = 0
  if (format.startsWith('YYYY')) {
    const y = Number(value.slice(0, 4))
    if (y < 100) return 'date'
    if (format.length >= 7) {
      const m = twoDigits(value, 5)
      if (m < 1 || m > 12) return 'date'
      if (format.length >= 10 && (twoDigits(value, 8) < 1 || twoDigits(value, 8) > daysIn(y, m))) return 'date'
    }
    time = 11
  }
  if (format.includes('HH')) {
    if (twoDigits(value, time) > 23 || twoDigits(value, time + 3) > 59) return 'time'
    if (format.endsWith('ss') && twoDigits(value, time + 6) > 59) return 'time'
  }
  return null
}

/** True when `value` is written in `format` and names a real date and time. */
export const matchesDateFormat = (value: string, format: DateFormat): boolean => dateProblem(value, format) === null

export const isInteger = (v: string) => /^-?\d+$/.test(v)
export const isDecimal = (v: string) => /^-?\d+(\.\d+)?$/.test(v)

/** The choices of a multiple choice: 'a|b' (or 'a｜b', the bar a Chinese keyboard types). */
export const splitMulti = (v: string) => v.split(/[|｜]/).filter((x) => x !== '')

/** The codes of a field's choices, in order. */
export const choiceCodes = (options: readonly Choice[]) => options.map((c) => c.code)

/** True when `code` is one of the choices. */
export const hasChoice = (options: readonly Choice[], code: string) => options.some((c) => c.code === code)

/** A choice's label in `lang`, falling back to the other language. */
export function choiceLabel(c: Choice, lang: 'zh' | 'en'): string {
  const [first, second] = lang === 'en' ? [c.labelEn, c.labelZh] : [c.labelZh, c.labelEn]
  return first.trim() !== '' ? first : second
}

/** Codes '1', '2', … for choices that have none yet (new rows, old plain-text options). */
export const nextChoiceCode = (options: readonly Choice[]) => {
  const used = new Set(choiceCodes(options))
  let n = options.length + 1
  while (used.has(String(n))) n++
  return String(n)
}

export function indicatorProblems(f: IndicatorInput): Problem[] {
  const out: Problem[] = []
  const add = (field: keyof IndicatorInput, key: ProblemKey, params: (string | number)[] = []) => out.push({ field, key, params })

  if (!(displayFor[f.type] as readonly string[]).includes(f.display)) add('display', 'displayMismatch', [f.display])

  const choice = f.type === 'single' || f.type === 'multiple'
  if (choice) {
    if (f.options.length === 0) add('options', 'optionsRequired')
    const seen = new Set<string>()
    for (const o of f.options) {
      const labels = [o.labelZh, o.labelEn]
      if (!choiceCodePattern.test(o.code)) add('options', 'choiceCode', [o.code])
      else if (seen.has(o.code)) add('options', 'exists', [o.code])
      if (labels.every((l) => l.trim().length < optionLength.min) || labels.some((l) => l.length > optionLength.max))
        add('options', 'optionLength', [optionLength.min, optionLength.max])
      seen.add(o.code)
    }
  }

  const numeric = f.type === 'blank' && f.dataType !== 'text'
  if (numeric && f.dataType === 'integer') {
    if (f.minimum !== null && !Number.isInteger(f.minimum)) add('minimum', 'integer')
    if (f.maximum !== null && !Number.isInteger(f.maximum)) add('maximum', 'integer')
  }
  if (f.minimum !== null && f.maximum !== null && f.minimum > f.maximum) add('minimum', 'minAboveMax', [f.minimum, f.maximum])

  if (f.type === 'date') {
    if (f.dateFormat === null) add('dateFormat', 'dateFormatRequired')
  }

  const d = f.defaultValue
  if (d !== null && d !== '') {
    if (f.type === 'single' && !hasChoice(f.options, d)) add('defaultValue', 'defaultMustExist')
    if (f.type === 'multiple' && !splitMulti(d).every((x) => hasChoice(f.options, x))) add('defaultValue', 'defaultMustExist')
    if (numeric) {
      const ok = f.dataType === 'integer' ? isInteger(d) : isDecimal(d)
      if (!ok) add('defaultValue', f.dataType === 'integer' ? 'integer' : 'number')
      else {
        const n = Number(d)
        if ((f.minimum !== null && n < f.minimum) || (f.maximum !== null && n > f.maximum))
          add('defaultValue', 'defaultOutOfRange', [f.minimum ?? '-∞', f.maximum ?? '∞'])
      }
    }
    const wrongDate = f.type === 'date' && f.dateFormat ? dateProblem(d, f.dateFormat) : null
    if (wrongDate === 'format') add('defaultValue', 'dateMismatch', [f.dateFormat!])
    else if (wrongDate) add('defaultValue', wrongDate === 'date' ? 'noSuchDate' : 'noSuchTime', [d])
  }

  if (f.dependentFieldId !== null && (f.dependentValue === null || f.dependentValue === '')) add('dependentValue', 'dependentValueRequired')
  return out
}
