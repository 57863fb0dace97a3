import {
  codePattern,
  indicatorInput,
  type Choice,
  type DataType,
  type DateFormat,
  type DisplayForm,
  type IndexCategory,
  type Indicator,
  type IndicatorInput,
  type IndicatorType,
} from '../../../contract/dictionary.ts'
import { displayFor, hasChoice, indicatorProblems, isDecimal, nextChoiceCode, splitMulti } from '../../../contract/indicatorRules.ts'

/**
 * The indicator form as plain data (no React): what a person types, how it becomes the
 * contract's IndicatorInput, and which messages each field gets. The rules are the contract's
 * `indicatorProblems`, the same the server and the import apply, so the form refuses what the
 * server refuses, with the same words (the `indicator.rule.*` texts equal the server's).
 */

/** The field a dependent-field choice points at, with what its value may be. */
export interface DependentChoice {
  id: number
  code: string
  nameZh: string
  nameEn: string
  options: readonly Choice[]
}

export interface IndicatorForm {
  code: string
  nameZh: string
  nameEn: string
  comment: string
  type: IndicatorType
  display: DisplayForm
  dataType: DataType
  /** Choice rows as typed; rows without a label are left out when saving. */
  options: Choice[]
  dependent: DependentChoice | null
  dependentValue: string
  unit: string
  /** As typed: parsed when saving. */
  minimum: string
  maximum: string
  dateFormat: DateFormat | ''
  defaultValue: string
  status: 0 | 1
  indexClass: string
  category: IndexCategory
  diseaseId: number | null
}

export const emptyForm = (diseaseId: number | null = null): IndicatorForm => ({
  code: '',
  nameZh: '',
  nameEn: '',
  comment: '',
  type: 'single',
  display: 'radio',
  dataType: 'text',
  options: [blankChoice([])],
  dependent: null,
  dependentValue: '',
  unit: '',
  minimum: '',
  maximum: '',
  dateFormat: '',
  defaultValue: '',
  status: 1,
  indexClass: '',
  category: 'all',
  diseaseId,
})

export function formOf(i: Indicator, dependent: DependentChoice | null): IndicatorForm {
  return {
    code: i.code,
    nameZh: i.nameZh,
    nameEn: i.nameEn,
    comment: i.comment,
    type: i.type,
    display: i.display,
    dataType: i.dataType,
    options: i.options.length > 0 ? i.options.map((c) => ({ ...c })) : [blankChoice([])],
    dependent,
    dependentValue: i.dependentValue ?? '',
    unit: i.unit,
    minimum: i.minimum === null ? '' : String(i.minimum),
    maximum: i.maximum === null ? '' : String(i.maximum),
    dateFormat: i.dateFormat ?? '',
    defaultValue: i.defaultValue ?? '',
    status: i.status,
    indexClass: i.indexClass,
    category: i.category,
    diseaseId: i.diseaseId,
  }
}

/** A new choice row: the next free code, no labels yet. */
export const blankChoice = (existing: readonly Choice[]): Choice => ({ code: nextChoiceCode(existing), labelZh: '', labelEn: '' })

/** A row a person left without any label is not a choice. */
export const isBlankChoice = (c: Choice) => c.labelZh.trim() === '' && c.labelEn.trim() === ''

export const isChoice = (type: IndicatorType) => type === 'single' || type === 'multiple'
export const isNumeric = (f: Pick<IndicatorForm, 'type' | 'dataType'>) => f.type === 'blank' && f.dataType !== 'text'

/** A change of type keeps the form coherent: an allowed display form, text data for non-blanks. */
export function withType(f: IndicatorForm, type: IndicatorType): IndicatorForm {
  const allowed = displayFor[type] as readonly DisplayForm[]
  const display = allowed.includes(f.display) ? f.display : (allowed[0] as DisplayForm)
  return {
    ...f,
    type,
    display,
    dataType: type === 'blank' ? f.dataType : 'text',
    dateFormat: type === 'date' ? f.dateFormat || 'YYYY-MM-DD' : '',
    options: isChoice(type) && f.options.length === 0 ? [blankChoice([])] : f.options,
    defaultValue: type === f.type ? f.defaultValue : '',
  }
}

/** A message: an i18n key and its parameters. */
export interface FieldMessage {
  key: string
  params: (string | number)[]
}

export type FormField = keyof IndicatorInput
export type FormErrors = Partial<Record<FormField, FieldMessage[]>>

function parseNumber(text: string): number | null | 'bad' {
  const v = text.trim()
  if (v === '') return null
  return isDecimal(v) ? Number(v) : 'bad'
}

/**
 * What the form sends, and every message it shows. `input` is null when a field cannot even be
 * read (a required text missing, a code of the wrong shape, a number that is not one).
 */
export function checkForm(f: IndicatorForm): { input: IndicatorInput | null; errors: FormErrors } {
  const errors: FormErrors = {}
  const add = (field: FormField, key: string, params: (string | number)[] = []) => {
    ;(errors[field] ??= []).push({ key, params })
  }
  const code = f.code.trim()
  if (code === '') add('code', 'validatorMsg.pleaseInput', [fieldLabel('code')])
  else if (!codePattern.test(code)) add('code', 'indicator.codeRule')
  if (f.nameZh.trim() === '') add('nameZh', 'validatorMsg.pleaseInput', [fieldLabel('nameZh')])

  const choice = isChoice(f.type)
  const numeric = isNumeric(f)
  const minimum = numeric ? parseNumber(f.minimum) : null
  const maximum = numeric ? parseNumber(f.maximum) : null
  if (minimum === 'bad') add('minimum', 'indicator.rule.number')
  if (maximum === 'bad') add('maximum', 'indicator.rule.number')

  const candidate = {
    code,
    nameZh: f.nameZh,
    nameEn: f.nameEn,
    comment: f.comment,
    type: f.type,
    display: f.display,
    dataType: f.type === 'blank' ? f.dataType : 'text',
    options: choice
      ? f.options
          .filter((o) => !isBlankChoice(o))
          .map((o) => ({ code: o.code.trim(), labelZh: o.labelZh.trim(), labelEn: o.labelEn.trim() }))
      : [],
    dependentFieldId: f.dependent?.id ?? null,
    dependentValue: f.dependent ? f.dependentValue : null,
    unit: f.type === 'blank' ? f.unit : '',
    minimum: minimum === 'bad' ? null : minimum,
    maximum: maximum === 'bad' ? null : maximum,
    dateFormat: f.type === 'date' ? f.dateFormat || null : null,
    defaultValue: f.defaultValue === '' ? null : f.defaultValue,
    status: f.status,
    indexClass: f.indexClass,
    category: f.category,
    diseaseId: f.diseaseId,
  }
  const parsed = indicatorInput.safeParse(candidate)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as FormField | undefined
      if (field && !errors[field]) add(field, 'validatorMsg.pleaseInput', [fieldLabel(field)])
    }
  }
  // The shared rules run on what would be sent, whatever else is wrong, so every message shows.
  const input = parsed.success ? parsed.data : (candidate as IndicatorInput)
  for (const p of indicatorProblems(input)) add(p.field, `indicator.rule.${p.key}`, p.params)
  if (f.dependent && f.dependent.options.length > 0 && f.dependentValue !== '' && !hasChoice(f.dependent.options, f.dependentValue))
    add('dependentValue', 'indicator.dependentNotOption')
  const ok = parsed.success && Object.keys(errors).length === 0
  return { input: ok ? parsed.data : null, errors }
}

/** The i18n key of a field's label (the same words the server uses in its messages). */
export function fieldLabel(field: FormField): string {
  return `indicator.field.${field}`
}

/** The codes chosen as a multiple choice default ('1|3'). */
export const defaultChoices = (value: string) => splitMulti(value)

/** A message's text; parameters that are field label keys are translated too. */
export function messageText(t: (key: string, params?: (string | number)[]) => string, m: FieldMessage): string {
  return t(
    m.key,
    m.params.map((p) => (typeof p === 'string' && p.startsWith('indicator.field.') ? t(p) : p)),
  )
}
