/**
 * Entered values and their rules, pure and shared: what a form's value looks like, which fields
 * are shown (the dependent-field rule), and why a value is refused. The form renderer draws with
 * it and the server validates every save with it, so the server refuses exactly what the form
 * refuses, with the same message keys (SPEC §5 validatorMsg.*, worded by each side's i18n).
 */
import type { Indicator } from './dictionary.ts'
import type { Layout, LayoutItem, LayoutSection } from './crf.ts'
import { dateProblem, isDecimal, isInteger, splitMulti } from './indicatorRules.ts'
import { dateFormatOf, fieldKindOf, isMultiKind, isPickKind } from './fieldKind.ts'
import { bilingual, type Lang } from './bilingual.ts'

export type { Lang } from './bilingual.ts'

/** A message by key and parameters, worded by the reader's i18n (client or server). */
export interface MessageRef {
  key: string
  params?: readonly (string | number)[]
}

/** A choice field with several answers holds a list; every other field a string ('' = empty). */
export type FieldValue = string | readonly string[]

/** Values by indicator id (as a string key). */
export type FieldValues = Readonly<Record<string, FieldValue>>

/**
 * A whole form: the values of the plain sections, and the rows of each repeating section
 * (a sub form) by section key.
 */
export interface FormData {
  values: FieldValues
  rows: Readonly<Record<string, readonly FieldValues[]>>
}

/** What the renderer draws: a template version's layout with the indicators it places. */
export interface FormDefinition {
  layout: Layout
  indicators: readonly Indicator[]
}

export const emptyForm: FormData = { values: {}, rows: {} }

/** The key of an indicator in FieldValues. */
export const keyOf = (indicatorId: number) => String(indicatorId)

/** The field's label in the current language: the English name, falling back to the Chinese one. */
export function labelOf(f: Pick<Indicator, 'nameZh' | 'nameEn'>, lang: Lang): string {
  return bilingual(f.nameZh, f.nameEn, lang)
}

export function indicatorMap(def: Pick<FormDefinition, 'indicators'>): ReadonlyMap<number, Indicator> {
  return new Map(def.indicators.map((i) => [i.id, i]))
}

/** A field's default value: its default (the choices of a multiple one split at '|'), or empty. */
export function defaultValueOf(f: Indicator): FieldValue {
  const d = f.defaultValue ?? ''
  return isMultiKind(fieldKindOf(f)) ? splitMulti(d) : d
}

/** One row of a sub form, with every field's default. */
export function newRow(section: LayoutSection, byId: ReadonlyMap<number, Indicator>): FieldValues {
  const row: Record<string, FieldValue> = {}
  for (const item of section.items) {
    const f = byId.get(item.indicatorId)
    if (f) row[keyOf(f.id)] = defaultValueOf(f)
  }
  return row
}

/** A fresh form: defaults everywhere, and one row in every sub form. */
export function initialForm(def: FormDefinition): FormData {
  const byId = indicatorMap(def)
  const values: Record<string, FieldValue> = {}
  const rows: Record<string, FieldValues[]> = {}
  for (const s of def.layout.sections) {
    if (s.repeating) rows[s.key] = [newRow(s, byId)]
    else Object.assign(values, newRow(s, byId))
  }
  return { values, rows }
}

export const isEmpty = (v: FieldValue | undefined): boolean => v === undefined || (typeof v === 'string' ? v.trim() === '' : v.length === 0)

// ---------------------------------------------------------------------------------------------
// The dependent-field rule

/** Where a field's value is looked up: its own row first (in a sub form), then the plain sections. */
export interface Scope {
  row?: FieldValues
  values: FieldValues
}

function valueIn(scope: Scope, id: number): FieldValue | undefined {
  const k = keyOf(id)
  if (scope.row && Object.prototype.hasOwnProperty.call(scope.row, k)) return scope.row[k]
  return scope.values[k]
}

/**
 * Shown when it depends on nothing, or when the field it depends on is itself shown and has the
 * given value (for a multiple choice: among its answers). A dependency on a field this form does
 * not hold cannot be decided here, so the field is shown; a cycle of dependencies hides all of it.
 */
export function isVisible(
  f: Indicator,
  byId: ReadonlyMap<number, Indicator>,
  scope: Scope,
  seen: ReadonlySet<number> = new Set(),
): boolean {
  if (f.dependentFieldId === null) return true
  if (seen.has(f.id)) return false
  const parent = byId.get(f.dependentFieldId)
  if (!parent) return true
  if (!isVisible(parent, byId, scope, new Set([...seen, f.id]))) return false
  const v = valueIn(scope, parent.id)
  const wanted = f.dependentValue ?? ''
  if (v === undefined) return false
  return typeof v === 'string' ? v === wanted : v.includes(wanted)
}

/**
 * A number as it is kept: without spaces around it or zeros before its first digit ('060' is 60,
 * ' -007.5 ' is -7.5); trailing zeros stay (7.50 says how it was measured).
 */
export function numberAsKept(text: string): string {
  const t = text.trim()
  const at = t[0] === '-' || t[0] === '+' ? 1 : 0
  // Tested first: an upload reads this for every number cell, nearly all without such a zero.
  if (t[at] !== '0' || !/\d/.test(t[at + 1] ?? '')) return t
  return t.replace(/^([+-]?)0+(?=\d)/, '$1')
}

/** A value as it is kept: a number's text by numberAsKept, anything else as given. */
const kept = (f: Indicator, v: FieldValue): FieldValue => (typeof v === 'string' && fieldKindOf(f) === 'number' ? numberAsKept(v) : v)

/** The form with the values of hidden fields left out and numbers as kept: what is worth saving. */
export function visibleData(def: FormDefinition, data: FormData): FormData {
  const byId = indicatorMap(def)
  const values: Record<string, FieldValue> = {}
  const rows: Record<string, FieldValues[]> = {}
  for (const s of def.layout.sections) {
    if (s.repeating) {
      rows[s.key] = (data.rows[s.key] ?? []).map((row) => {
        const out: Record<string, FieldValue> = {}
        for (const item of s.items) {
          const f = byId.get(item.indicatorId)
          const v = row[keyOf(item.indicatorId)]
          if (f && v !== undefined && isVisible(f, byId, { row, values: data.values })) out[keyOf(f.id)] = kept(f, v)
        }
        return out
      })
    } else {
      for (const item of s.items) {
        const f = byId.get(item.indicatorId)
        const v = data.values[keyOf(item.indicatorId)]
        if (f && v !== undefined && isVisible(f, byId, { values: data.values })) values[keyOf(f.id)] = kept(f, v)
      }
    }
  }
  return { values, rows }
}

// ---------------------------------------------------------------------------------------------
// Validation

/** Message keys of the renderer's own rules (the rest are SPEC §5 validatorMsg.*). */
export const formMessageKeys = {
  between: 'form.range.between',
  atLeast: 'form.range.atLeast',
  atMost: 'form.range.atMost',
  notAnOption: 'form.notAnOption',
  noSuchDate: 'form.noSuchDate',
  noSuchTime: 'form.noSuchTime',
  unprintable: 'form.unprintable',
} as const

/**
 * Characters no spreadsheet or XML file can hold (controls other than tab and line breaks, the
 * noncharacters U+FFFE/U+FFFF, a lone surrogate): a text holding one could be saved but never
 * downloaded as xlsx or ODM, nor a CSV of it uploaded again.
 */
const unprintable = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Why `value` is refused for field `f`, or null. Required: 'please input {0}' for typed fields,
 * 'please select {0}' for picked ones. Then, on a non-empty value: integer or decimal (contract
 * isInteger / isDecimal), the range, the date format and a real date and time (contract
 * dateProblem) and, for choices, that every answer is one of the options.
 */
export function fieldProblem(f: Indicator, value: FieldValue | undefined, required: boolean, lang: Lang): MessageRef | null {
  return fieldCheck(f, required, lang)(value)
}

/**
 * fieldProblem's rules for one field, worked out once: what a bulk upload runs on every cell of a
 * column (100,000 rows × every field), where deciding the kind, the format and the choices
 * again per cell cost more than the checks themselves.
 */
export function fieldCheck(f: Indicator, required: boolean, lang: Lang): (value: FieldValue | undefined) => MessageRef | null {
  const kind = fieldKindOf(f)
  const missing: MessageRef | null = required
    ? { key: isPickKind(kind) ? 'validatorMsg.pleaseSelect' : 'validatorMsg.pleaseInput', params: [labelOf(f, lang)] }
    : null
  const given = (check: (v: FieldValue) => MessageRef | null) => (value: FieldValue | undefined) =>
    isEmpty(value) ? missing : check(value as FieldValue)
  switch (kind) {
    case 'number': {
      const lo = f.minimum
      const hi = f.maximum
      const outside: MessageRef | null =
        lo !== null && hi !== null
          ? { key: formMessageKeys.between, params: [lo, hi] }
          : lo !== null
            ? { key: formMessageKeys.atLeast, params: [lo] }
            : hi !== null
              ? { key: formMessageKeys.atMost, params: [hi] }
              : null
      return given((v) => {
        const s = (typeof v === 'string' ? v : v.join('')).trim()
        if (f.dataType === 'integer' && !isInteger(s)) return { key: 'validatorMsg.integer' }
        if (f.dataType === 'decimal' && !isDecimal(s)) return { key: 'validatorMsg.number' }
        const n = Number(s)
        return (lo !== null && n < lo) || (hi !== null && n > hi) ? outside : null
      })
    }
    case 'date':
    case 'time':
    case 'dateTime': {
      const format = dateFormatOf(f)
      const wrongFormat: MessageRef = { key: 'validatorMsg.pattern', params: [format] }
      return given((v) => {
        const s = typeof v === 'string' ? v : v.join('')
        const problem = dateProblem(s, format)
        // Written in the format but not on the calendar or the clock: the format is not what to fix.
        if (problem === 'date') return { key: formMessageKeys.noSuchDate, params: [s] }
        if (problem === 'time') return { key: formMessageKeys.noSuchTime, params: [s] }
        return problem === null ? null : wrongFormat
      })
    }
    case 'radio':
    case 'select':
    case 'checkbox':
    case 'multiSelect': {
      const codes = new Set(f.options.map((o) => o.code))
      return given((v) => {
        const stray = typeof v === 'string' ? (codes.has(v) ? undefined : v) : v.find((a) => !codes.has(a))
        return stray === undefined ? null : { key: formMessageKeys.notAnOption, params: [stray, labelOf(f, lang)] }
      })
    }
    case 'input':
    case 'textarea':
      return given((v) =>
        (typeof v === 'string' ? unprintable.test(v) : v.some((a) => unprintable.test(a))) ? { key: formMessageKeys.unprintable } : null,
      )
  }
}

/** Where a field sits: a plain field, or a field of row `row` of sub form `section`. */
export const fieldPath = (indicatorId: number, section?: string, row?: number) =>
  section === undefined ? `f:${indicatorId}` : `r:${section}:${row ?? 0}:${indicatorId}`

/** Row `row` of sub form `section` as a whole (a row that may or may not be removed). */
export const rowPath = (section: string, row: number) => `r:${section}:${row}`

/** A fieldPath or rowPath taken apart: a plain field's key, or a sub form's section, row and (for a field) key; a row's key is ''. */
export function parseFieldPath(path: string): { section: string | null; row: number; key: string } {
  const [where, a = '', b = '', c = ''] = path.split(':')
  return where === 'f' ? { section: null, row: 0, key: a } : { section: a, row: Number(b), key: c }
}

export type FormErrors = Readonly<Record<string, MessageRef>>

function itemProblem(item: LayoutItem, byId: ReadonlyMap<number, Indicator>, scope: Scope, value: FieldValue | undefined, lang: Lang) {
  const f = byId.get(item.indicatorId)
  if (!f || !isVisible(f, byId, scope)) return null
  return fieldProblem(f, value, item.required, lang)
}

/** Every shown field's problem, by fieldPath; hidden fields are not validated. */
export function validateForm(def: FormDefinition, data: FormData, lang: Lang): FormErrors {
  const byId = indicatorMap(def)
  const errors: Record<string, MessageRef> = {}
  for (const s of def.layout.sections) {
    if (s.repeating) {
      ;(data.rows[s.key] ?? []).forEach((row, r) => {
        for (const item of s.items) {
          const p = itemProblem(item, byId, { row, values: data.values }, row[keyOf(item.indicatorId)], lang)
          if (p) errors[fieldPath(item.indicatorId, s.key, r)] = p
        }
      })
    } else {
      for (const item of s.items) {
        const p = itemProblem(item, byId, { values: data.values }, data.values[keyOf(item.indicatorId)], lang)
        if (p) errors[fieldPath(item.indicatorId)] = p
      }
    }
  }
  return errors
}
