import type { Choice, Indicator, IndicatorInput } from '../../../contract/dictionary.ts'
import { hasChoice, splitMulti } from '../../../contract/indicatorRules.ts'
import {
  dateValidations,
  fixedChoices,
  formatBranching,
  formatChoices,
  isFixedChoice,
  keptTypes,
  parseBranching,
  redcapColumns,
  redcapLabel,
  sameCondition,
  setTag,
  splitComment,
  validationOfDate,
  type RedcapRow,
  type SimpleCondition,
} from './redcap.ts'

/**
 * Indicators → REDCap data dictionary rows: the inverse of redcapImport.ts. What the import kept in
 * the `@redcap` comment section (codes, original types and validations, ranges, complex branching,
 * the other columns) comes back out, so an imported dictionary exports as the same file.
 */

export interface RedcapPlace {
  form: string
  /** The section title when this row opens a section, else ''. */
  sectionHeader: string
  required: boolean
}

/** The field a row depends on, as far as its branching logic needs it. */
export type DependentInfo = Pick<IndicatorInput, 'code' | 'type' | 'options' | 'comment'>

const numberText = (n: number) => String(n)

function condition(ind: Indicator, dep: DependentInfo): SimpleCondition | null {
  const value = ind.dependentValue ?? ''
  if (dep.type === 'single' || dep.type === 'multiple') {
    if (!hasChoice(dep.options, value)) return null
    return dep.type === 'multiple' ? { code: dep.code, checkbox: value, value: '1' } : { code: dep.code, checkbox: null, value }
  }
  return { code: dep.code, checkbox: null, value }
}

const sameChoices = (a: readonly Choice[], b: readonly Choice[]) =>
  a.length === b.length && a.every((c, i) => c.code === b[i]?.code && c.labelZh === b[i]?.labelZh && c.labelEn === b[i]?.labelEn)

export function toRedcapRow(ind: Indicator, place: RedcapPlace, dep: DependentInfo | null): string[] {
  const { note, meta } = splitComment(ind.comment)
  let fieldType = 'text'
  let choices = meta.choices ?? ''
  let validation = meta.validation ?? ''

  if (ind.type === 'blank' && ind.display === 'textarea' && meta.type && keptTypes.has(meta.type)) {
    fieldType = meta.type
  } else if (ind.type === 'single') {
    const fixed = isFixedChoice(meta.type) && sameChoices(ind.options, fixedChoices[meta.type]) ? meta.type : null
    fieldType = fixed ?? (ind.display === 'select' ? 'dropdown' : 'radio')
    choices = fixed ? '' : formatChoices(ind.options)
  } else if (ind.type === 'multiple') {
    // REDCap has no multiple-choice drop-down: a multiple select goes out as checkboxes.
    fieldType = 'checkbox'
    choices = formatChoices(ind.options)
  } else if (ind.type === 'blank' && ind.display === 'textarea') {
    fieldType = 'notes'
  } else if (ind.type === 'blank') {
    if (ind.dataType === 'integer') validation = 'integer'
    else if (ind.dataType === 'decimal') validation = meta.validation?.startsWith('number') ? meta.validation : 'number'
    else if (meta.validation && (meta.validation === 'integer' || meta.validation.startsWith('number') || dateValidations[meta.validation]))
      validation = ''
  } else if (ind.type === 'date' && ind.dateFormat) {
    // date_mdy and the like were kept when imported: they still fit as long as the format did not change.
    const kept = meta.validation && dateValidations[meta.validation] === ind.dateFormat ? meta.validation : undefined
    validation = kept ?? validationOfDate[ind.dateFormat] ?? ''
  }

  const min = ind.minimum !== null ? numberText(ind.minimum) : (meta.min ?? '')
  const max = ind.maximum !== null ? numberText(ind.maximum) : (meta.max ?? '')

  let branching = ''
  if (ind.dependentFieldId !== null && dep) {
    const cond = condition(ind, dep)
    if (cond) branching = meta.branching && sameCondition(parseBranching(meta.branching), cond) ? meta.branching : formatBranching(cond)
  } else if (meta.branching) {
    branching = meta.branching
  }

  // @DEFAULT names choice codes; a default we do not hold leaves a kept annotation as it was.
  let annotation = meta.annotation ?? ''
  const d = ind.defaultValue
  if (d !== null && d !== '') {
    // Our multiple choice default joins codes with '|', REDCap's with ','.
    annotation = setTag(annotation, 'DEFAULT', ind.type === 'multiple' ? splitMulti(d).join(',') : d)
  }
  if (ind.unit) annotation = setTag(annotation, 'UNIT', ind.unit)

  const row: RedcapRow = {
    field_name: ind.code,
    form_name: place.form,
    section_header: place.sectionHeader,
    field_type: fieldType,
    field_label: redcapLabel(ind, meta.label),
    select_choices_or_calculations: choices,
    field_note: note,
    text_validation_type_or_show_slider_number: validation,
    text_validation_min: min,
    text_validation_max: max,
    identifier: meta.identifier ?? '',
    branching_logic: branching,
    required_field: place.required ? 'y' : '',
    custom_alignment: meta.align ?? '',
    question_number: meta.question ?? '',
    matrix_group_name: meta.matrix ?? '',
    matrix_ranking: meta.ranking ?? '',
    field_annotation: annotation,
  }
  return redcapColumns.map((c) => row[c.key])
}

export const redcapHeader = redcapColumns.map((c) => c.header)

/** REDCap form names are lower-case letters, digits and '_': a CRF named otherwise gets one. */
export function redcapFormName(name: string, id: number, taken: Set<string>): string {
  let s = name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 50)
  if (!/^[a-z]/.test(s)) s = s ? `form_${s}` : `crf_${id}`
  if (taken.has(s)) s = `${s}_${id}`
  taken.add(s)
  return s
}
