import { maxSectionTitle } from '../../../contract/crf.ts'
import { indicatorInput, type Choice, type Indicator, type IndicatorInput } from '../../../contract/dictionary.ts'
import { choiceLabel, indicatorProblems } from '../../../contract/indicatorRules.ts'
import { ServiceError } from '../errors.ts'
import { clip, type Draft, type Notice, type Param, type RowProblem, type Table } from './model.ts'
import {
  choiceTypes,
  dateValidations,
  choicesOf,
  dropTag,
  fixedChoices,
  formatBranching,
  hasCjk,
  headerOf,
  isFixedChoice,
  joinComment,
  keptTypes,
  knownTypes,
  parseBranching,
  parseChoices,
  readTag,
  redcapColumns,
  redcapIndex,
  redcapRequired,
  setTag,
  validationOfDate,
  type RedcapKey,
  type RedcapMeta,
  type RedcapRow,
} from './redcap.ts'

/**
 * REDCap data dictionary rows → indicators (and, through their placements, CRFs).
 *
 * | REDCap                                   | here                                               |
 * |------------------------------------------|----------------------------------------------------|
 * | text                                     | blank / input / text                               |
 * | text + date_ymd (date_mdy, date_dmy)     | date / input, YYYY-MM-DD (mdy/dmy kept)            |
 * | text + datetime_*, datetime_seconds_*    | date, YYYY-MM-DD HH:mm, YYYY-MM-DD HH:mm:ss        |
 * | text + time, time_hh_mm_ss               | date, HH:mm, HH:mm:ss                              |
 * | text + integer / number                  | blank / input / integer / decimal, min/max kept    |
 * | text + number_2dp etc.                   | decimal, validation kept + reported                |
 * | text + email, phone, zipcode, …          | text, validation kept + reported                   |
 * | notes                                    | blank / textarea                                   |
 * | radio / dropdown                         | single / radio / select, codes kept                |
 * | checkbox                                 | multiple / checkbox, codes kept                    |
 * | yesno / truefalse                        | single / radio, Yes·No / True·False (codes 1, 0)   |
 * | calc, descriptive, file, slider, sql, …  | blank / textarea, definition kept + reported       |
 * | [f] = 'v', [f(c)] = '1'                  | dependent field + value (the option label)         |
 * | other branching logic                    | kept + reported                                    |
 * | Form Name / Section Header / Required    | CRF (draft) / section / required item              |
 * | @DEFAULT='v' / @UNIT='u' in annotation   | default value / unit                               |
 * | Identifier?, Matrix, other action tags   | kept + reported; alignment, question number kept   |
 *
 * Codes are kept in the `@redcap` comment section only when they differ from 1, 2, 3…
 */

const yes = /^(y|yes|1|true)$/i
const numberText = /^-?(\d+(\.\d*)?|\.\d+)$/

/** Every REDCap column's index in the file; a missing required one refuses the file, naming it. */
export function mapRedcapRows(table: Table): Draft[] {
  const index = redcapIndex(table.header)
  const missing = redcapRequired.filter((k) => !index.has(k))
  if (missing.length > 0) throw new ServiceError('badRequest', 'import.badColumns', [missing.map(headerOf).join(', ')])
  const column = (k: RedcapKey) => {
    const i = index.get(k)
    return i === undefined ? headerOf(k) : (table.header[i] ?? headerOf(k))
  }
  const columnOf: Draft['columnOf'] = {
    code: column('field_name'),
    nameZh: column('field_label'),
    nameEn: column('field_label'),
    comment: column('field_note'),
    type: column('field_type'),
    display: column('field_type'),
    dataType: column('text_validation_type_or_show_slider_number'),
    options: column('select_choices_or_calculations'),
    dependentFieldId: column('branching_logic'),
    dependentValue: column('branching_logic'),
    unit: column('field_annotation'),
    minimum: column('text_validation_min'),
    maximum: column('text_validation_max'),
    dateFormat: column('text_validation_type_or_show_slider_number'),
    defaultValue: column('field_annotation'),
    indexClass: column('form_name'),
    diseaseId: 'diseaseId',
  }
  return table.rows.map(({ row, cells }) => {
    const r = {} as RedcapRow
    for (const c of redcapColumns) {
      const i = index.get(c.key)
      r[c.key] = i === undefined ? '' : (cells[i] ?? '').trim()
    }
    return mapRow(r, row, column, columnOf)
  })
}

function mapRow(c: RedcapRow, row: number, column: (k: RedcapKey) => string, columnOf: Draft['columnOf']): Draft {
  const code = c.field_name
  const problems: RowProblem[] = []
  const notices: Notice[] = []
  const problem = (k: RedcapKey, field: string, key: RowProblem['key'], params: Param[]) =>
    problems.push({ row, column: column(k), field, key, params })
  const notice = (k: RedcapKey, value: string, key: Notice['key'], params: Param[]) =>
    notices.push({ row, code, column: column(k), value: clip(value), key, params })
  const meta: RedcapMeta = {}
  const type = c.field_type.toLowerCase()
  const validation = c.text_validation_type_or_show_slider_number
  const v = validation.toLowerCase()

  // One label in REDCap, two names here: Chinese text is the Chinese name; other text is both.
  const label = c.field_label
  const cjk = hasCjk(label)
  const nameEn = cjk ? '' : label.slice(0, 200)
  const nameZh = (label || code).slice(0, 100)
  if ((nameEn || nameZh) !== label) {
    meta.label = label
    const limit = cjk ? 100 : 200
    if (label.length > limit) notice('field_label', label, 'import.unmapped.label', [limit])
  }

  const input: Draft['input'] = {
    code,
    nameZh,
    nameEn,
    comment: '',
    type: 'blank',
    display: 'input',
    dataType: 'text',
    options: [],
    dependentFieldId: null,
    dependentValue: null,
    unit: '',
    minimum: null,
    maximum: null,
    dateFormat: null,
    defaultValue: null,
    status: 1,
    // The instrument groups its fields: it is their index class (small class) here.
    indexClass: c.form_name.slice(0, 60),
    category: 'all',
    diseaseId: null,
  }
  let numericRange = false
  let enforcedRange = false

  if (type === 'text') {
    enforcedRange = v !== ''
    if (v === '') {
      // plain text
    } else if (dateValidations[v]) {
      input.type = 'date'
      input.dateFormat = dateValidations[v]
      if (validationOfDate[dateValidations[v]] !== v) meta.validation = validation
    } else if (v === 'integer' || v === 'number') {
      input.dataType = v === 'integer' ? 'integer' : 'decimal'
      numericRange = true
    } else if (v.startsWith('number')) {
      input.dataType = 'decimal'
      numericRange = true
      meta.validation = validation
      notice('text_validation_type_or_show_slider_number', validation, 'import.unmapped.validation', [validation, 'decimal'])
    } else {
      meta.validation = validation
      notice('text_validation_type_or_show_slider_number', validation, 'import.unmapped.validation', [validation, 'text'])
    }
  } else if (type === 'notes') {
    input.display = 'textarea'
  } else if (choiceTypes.has(type)) {
    const choices = parseChoices(c.select_choices_or_calculations)
    input.type = type === 'checkbox' ? 'multiple' : 'single'
    input.display = type === 'checkbox' ? 'checkbox' : type === 'dropdown' ? 'select' : 'radio'
    input.options = choicesOf(choices.codes, choices.labels)
  } else if (isFixedChoice(type)) {
    input.type = 'single'
    input.display = 'radio'
    input.options = [...fixedChoices[type]]
    meta.type = type
  } else if (keptTypes.has(type)) {
    input.display = 'textarea'
    meta.type = type
    if (c.select_choices_or_calculations) meta.choices = c.select_choices_or_calculations
    if (validation) meta.validation = validation
    const what = c.select_choices_or_calculations ? `${type}: ${c.select_choices_or_calculations}` : type
    notice('field_type', what, 'import.unmapped.fieldType', [type])
  } else {
    problem('field_type', 'type', 'import.badValue', [column('field_type'), c.field_type, knownTypes.join(', ')])
  }
  // What REDCap ignores for these types is still kept, so the export gives back the same file.
  if (type !== 'text' && !keptTypes.has(type) && validation) meta.validation = validation
  if (!choiceTypes.has(type) && !keptTypes.has(type) && c.select_choices_or_calculations) meta.choices = c.select_choices_or_calculations

  // Ranges: numbers for integer / number fields; anything else (dates, 'today', piping) is kept.
  const range = { min: c.text_validation_min, max: c.text_validation_max }
  let rangeKept = false
  for (const side of ['min', 'max'] as const) {
    const raw = range[side]
    if (raw === '') continue
    if (numericRange && numberText.test(raw)) input[side === 'min' ? 'minimum' : 'maximum'] = Number(raw)
    else {
      meta[side] = raw
      rangeKept = true
    }
  }
  if (rangeKept && enforcedRange)
    notice('text_validation_min', `${range.min} ~ ${range.max}`, 'import.unmapped.range', [range.min || '-∞', range.max || '∞'])

  // Branching logic: one simple condition becomes the dependent field rule; anything else is kept.
  let dependent: Draft['dependent'] = null
  const logic = c.branching_logic
  if (logic) {
    const cond = parseBranching(logic)
    if (cond) {
      dependent =
        cond.checkbox !== null
          ? { code: cond.code, value: cond.checkbox, by: 'checkbox' }
          : { code: cond.code, value: cond.value, by: 'code' }
      input.dependentValue = dependent.value
      if (formatBranching(cond) !== logic) meta.branching = logic
    } else {
      meta.branching = logic
      notice('branching_logic', logic, 'import.unmapped.branching', [clip(logic, 80)])
    }
  }

  if (c.identifier) {
    meta.identifier = c.identifier
    if (yes.test(c.identifier)) notice('identifier', c.identifier, 'import.unmapped.identifier', [])
  }
  if (c.custom_alignment) meta.align = c.custom_alignment
  if (c.question_number) meta.question = c.question_number
  if (c.matrix_ranking) meta.ranking = c.matrix_ranking
  if (c.matrix_group_name) {
    meta.matrix = c.matrix_group_name
    notice('matrix_group_name', c.matrix_group_name, 'import.unmapped.matrix', [c.matrix_group_name])
  }

  // Field annotation: @DEFAULT and @UNIT become the default value and the unit; other tags are kept.
  const annotation = c.field_annotation
  const unit = readTag(annotation, 'UNIT')
  if (unit !== null) input.unit = unit
  const defaultRaw = readTag(annotation, 'DEFAULT')
  let defaultTaken = false
  if (defaultRaw !== null) {
    input.defaultValue = defaultFromRedcap(input.type, defaultRaw)
    // A default our rules refuse (a smart variable, a code that is no choice) stays in the annotation.
    if (input.defaultValue !== null) {
      const parsed = indicatorInput.safeParse(input)
      if (parsed.success && !indicatorProblems(parsed.data).some((p) => p.field === 'defaultValue')) defaultTaken = true
      else input.defaultValue = null
    }
  }
  let regenerated = ''
  if (defaultTaken && defaultRaw !== null) regenerated = setTag(regenerated, 'DEFAULT', defaultRaw)
  if (unit !== null) regenerated = setTag(regenerated, 'UNIT', unit)
  if (annotation !== regenerated) meta.annotation = annotation
  const otherTags = dropTag(dropTag(annotation, 'UNIT'), 'DEFAULT')
  if (otherTags || (defaultRaw !== null && !defaultTaken))
    notice('field_annotation', annotation, 'import.unmapped.annotation', [clip(annotation, 80)])

  let comment = joinComment(c.field_note, meta)
  const commentMax = indicatorInput.shape.comment.unwrap().maxLength ?? Infinity
  if (comment.length > commentMax) {
    problem('field_note', 'comment', 'import.commentTooLong', [commentMax, comment.length])
    comment = comment.slice(0, commentMax)
  }
  input.comment = comment

  const form = c.form_name
  if (!form) problem('form_name', 'form', 'rule.required', [column('form_name')])
  else if (form.length > 100) problem('form_name', 'form', 'field.tooLong', [column('form_name'), 100])
  const section = c.section_header
  if (section.length > maxSectionTitle) problem('section_header', 'form', 'field.tooLong', [column('section_header'), maxSectionTitle])

  return {
    row,
    input,
    dependent,
    diseaseName: null,
    columnOf,
    absent: redcapAbsent,
    problems,
    notices,
    placements: form ? [{ row, column: column('form_name'), form, section, required: yes.test(c.required_field) }] : [],
    signature: JSON.stringify(redcapColumns.filter((k) => !placementColumns.has(k.key)).map((k) => c[k.key])),
  }
}

/**
 * What a REDCap dictionary does not say: an update keeps the stored status, category, disease and
 * index class (a new field's index class is its form).
 */
const redcapAbsent: (keyof IndicatorInput)[] = ['status', 'category', 'diseaseId', 'indexClass']

/**
 * REDCap has one label where we keep two names, and one label per choice: a label still as our
 * export wrote it (see redcapExport.ts) keeps both stored names and both choice labels; an edited
 * one replaces them, as a new field's label would.
 */
export function keepRedcapLabels(d: Draft, stored: Indicator): void {
  if ((d.input.nameEn || d.input.nameZh) === (stored.nameEn || stored.nameZh)) {
    d.input.nameZh = stored.nameZh
    d.input.nameEn = stored.nameEn
  }
  if (!Array.isArray(d.input.options)) return
  d.input.options = (d.input.options as Choice[]).map((c) => {
    const same = stored.options.find((s) => s.code === c.code)
    return same && choiceLabel(same, 'zh') === c.labelZh ? same : c
  })
}

/** Columns that say where a field sits, not what it is: a field may sit in several forms. */
const placementColumns = new Set<RedcapKey>(['form_name', 'section_header', 'required_field', 'question_number'])

/** @DEFAULT names codes ('1', or '1,3' for a checkbox); ours joins a multiple default with '|'. */
function defaultFromRedcap(type: unknown, raw: string): string {
  if (type === 'single') return raw.trim()
  if (type === 'multiple')
    return raw
      .split(',')
      .map((x) => x.trim())
      .join('|')
  return raw
}
