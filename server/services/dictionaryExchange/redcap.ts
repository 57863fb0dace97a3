import { z } from 'zod'
import type { Choice, DateFormat, Indicator } from '../../../contract/dictionary.ts'
import { choiceLabel } from '../../../contract/indicatorRules.ts'

/**
 * What both directions of the REDCap mapping share: the 18 columns of the data dictionary, the
 * choice, branching and action-tag syntaxes, and the `@redcap` section of an indicator's comment.
 *
 * The `@redcap` section. Our indicator has no place for a calculation,
 * for a validation we have no rule for, and so on; dropping them would make the export lie. So the
 * comment ends, when there is something to keep, with one line
 *
 *     @redcap {"type":"calc","choices":"[a]+[b]"}
 *
 * holding only what the mapping cannot derive again (see `RedcapMeta`). The rest of the comment is
 * REDCap's Field Note. The line survives our own xlsx/CSV exchange (it is part of the comment),
 * and the REDCap export reads it back.
 */

export const redcapColumns = [
  { key: 'field_name', header: 'Variable / Field Name' },
  { key: 'form_name', header: 'Form Name' },
  { key: 'section_header', header: 'Section Header' },
  { key: 'field_type', header: 'Field Type' },
  { key: 'field_label', header: 'Field Label' },
  { key: 'select_choices_or_calculations', header: 'Choices, Calculations, OR Slider Labels' },
  { key: 'field_note', header: 'Field Note' },
  { key: 'text_validation_type_or_show_slider_number', header: 'Text Validation Type OR Show Slider Number' },
  { key: 'text_validation_min', header: 'Text Validation Min' },
  { key: 'text_validation_max', header: 'Text Validation Max' },
  { key: 'identifier', header: 'Identifier?' },
  { key: 'branching_logic', header: 'Branching Logic (Show field only if...)' },
  { key: 'required_field', header: 'Required Field?' },
  { key: 'custom_alignment', header: 'Custom Alignment' },
  { key: 'question_number', header: 'Question Number (surveys only)' },
  { key: 'matrix_group_name', header: 'Matrix Group Name' },
  { key: 'matrix_ranking', header: 'Matrix Ranking?' },
  { key: 'field_annotation', header: 'Field Annotation' },
] as const
export type RedcapKey = (typeof redcapColumns)[number]['key']
export type RedcapRow = Record<RedcapKey, string>

/** Without these four REDCap itself refuses a dictionary; the others may be missing in older files. */
export const redcapRequired: readonly RedcapKey[] = ['field_name', 'form_name', 'field_type', 'field_label']

export const headerOf = (key: RedcapKey): string => redcapColumns.find((c) => c.key === key)!.header

/** Header cells compared loosely: case, runs of blanks and full-width forms do not matter. */
export const looseHeader = (h: string) => h.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ')

/** Column index of every REDCap column in a header row; the API's snake_case names count too. */
export function redcapIndex(header: readonly string[]): Map<RedcapKey, number> {
  const byName = new Map<string, RedcapKey>()
  for (const c of redcapColumns) {
    byName.set(looseHeader(c.header), c.key)
    byName.set(c.key, c.key)
  }
  const out = new Map<RedcapKey, number>()
  header.forEach((h, i) => {
    const key = byName.get(looseHeader(h))
    if (key && !out.has(key)) out.set(key, i)
  })
  return out
}

export const isRedcapHeader = (header: readonly string[]) => {
  const index = redcapIndex(header)
  return index.has('field_name') || (index.has('form_name') && index.has('field_type'))
}

// ---------------------------------------------------------------------------------------------
// The @redcap section of the comment

const metaSchema = z
  .object({
    /** The REDCap field type when ours does not say it: yesno, truefalse, calc, descriptive, file, slider, sql… */
    type: z.string(),
    /** A validation our type does not say (date_mdy, email, number_2dp…), or the slider's number flag. */
    validation: z.string(),
    /** A range we cannot hold as numbers (dates, 'today', piping). */
    min: z.string(),
    max: z.string(),
    /** A calculation, slider labels or SQL: the Choices column of a field without options here. */
    choices: z.string(),
    /** Branching logic that is not one simple condition, or a simple one written differently. */
    branching: z.string(),
    /** The full label when the names could not hold it. */
    label: z.string(),
    identifier: z.string(),
    align: z.string(),
    question: z.string(),
    matrix: z.string(),
    ranking: z.string(),
    /** The Field Annotation when it holds more than the @DEFAULT / @UNIT tags we write ourselves. */
    annotation: z.string(),
  })
  .partial()
export type RedcapMeta = z.infer<typeof metaSchema>

const marker = '@redcap '

/** The Field Note part and the kept REDCap definition of a comment; a damaged section counts as note. */
export function splitComment(comment: string): { note: string; meta: RedcapMeta } {
  const last = comment.lastIndexOf('\n' + marker)
  const at = last >= 0 ? last + 1 : comment.startsWith(marker) ? 0 : -1
  if (at < 0) return { note: comment, meta: {} }
  const json = comment.slice(at + marker.length)
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return { note: comment, meta: {} }
  }
  const meta = metaSchema.safeParse(parsed)
  if (!meta.success) return { note: comment, meta: {} }
  return { note: comment.slice(0, Math.max(0, at - 1)), meta: meta.data }
}

export function joinComment(note: string, meta: RedcapMeta): string {
  const kept = Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== undefined))
  if (Object.keys(kept).length === 0) return note
  return (note ? note + '\n' : '') + marker + JSON.stringify(kept)
}

/**
 * An indicator's REDCap field label: the kept full label wins while the names are still its
 * cut-down form (or the code, for an empty label); once someone renamed the indicator, the new
 * name is the label.
 */
export function redcapLabel(ind: Pick<Indicator, 'nameZh' | 'nameEn' | 'code'>, kept: string | undefined): string {
  const shown = ind.nameEn || ind.nameZh
  if (kept !== undefined && (kept.startsWith(shown) || (kept === '' && shown === ind.code))) return kept
  return shown
}

// ---------------------------------------------------------------------------------------------
// Choices

/** "1, Male | 2, Female": the code is up to the first comma, the label after it. */
export function parseChoices(text: string): { codes: string[]; labels: string[] } {
  const codes: string[] = []
  const labels: string[] = []
  for (const part of text.split('|')) {
    const p = part.trim()
    if (!p) continue
    const comma = p.indexOf(',')
    codes.push(comma < 0 ? p : p.slice(0, comma).trim())
    labels.push(comma < 0 ? p : p.slice(comma + 1).trim())
  }
  return { codes, labels }
}

/** REDCap's one label goes out in Chinese when there is one (the name's column), else English. */
export const formatChoices = (options: readonly Choice[]) => options.map((c) => `${c.code}, ${choiceLabel(c, 'zh')}`).join(' | ')

/** REDCap's choices as ours: its codes kept, its one label in both languages. */
export const choicesOf = (codes: readonly string[], labels: readonly string[]): Choice[] =>
  codes.map((code, i) => ({ code, labelZh: labels[i] ?? '', labelEn: labels[i] ?? '' }))

/** REDCap's two fixed-choice types, as our choices. */
export const fixedChoices = {
  yesno: choicesOf(['1', '0'], ['Yes', 'No']),
  truefalse: choicesOf(['1', '0'], ['True', 'False']),
} as const
export type FixedChoiceType = keyof typeof fixedChoices
export const isFixedChoice = (t: string | undefined): t is FixedChoiceType => t === 'yesno' || t === 'truefalse'

// ---------------------------------------------------------------------------------------------
// Branching logic

export interface SimpleCondition {
  code: string
  /** `[f(2)] = '1'`: the checkbox option code 2 is ticked. */
  checkbox: string | null
  value: string
}

const simpleCondition = /^\[([A-Za-z][A-Za-z0-9_]*)(?:\(([A-Za-z0-9_.-]+)\))?\]\s*==?\s*(?:'([^']*)'|"([^"]*)"|(-?\d+(?:\.\d+)?))$/

/** One `[field] = 'value'` (or a ticked checkbox option); anything else is null. */
export function parseBranching(text: string): SimpleCondition | null {
  const m = simpleCondition.exec(text.trim())
  if (!m) return null
  const value = m[3] ?? m[4] ?? m[5] ?? ''
  if (m[2] !== undefined) return value === '1' ? { code: m[1]!, checkbox: m[2], value } : null
  return { code: m[1]!, checkbox: null, value }
}

export function formatBranching(c: SimpleCondition): string {
  if (c.checkbox !== null) return `[${c.code}(${c.checkbox})] = '1'`
  return c.value.includes("'") ? `[${c.code}] = "${c.value}"` : `[${c.code}] = '${c.value}'`
}

export const sameCondition = (a: SimpleCondition | null, b: SimpleCondition) =>
  a !== null && a.code === b.code && a.checkbox === b.checkbox && a.value === b.value

// ---------------------------------------------------------------------------------------------
// Action tags in the Field Annotation: @DEFAULT is REDCap's; @UNIT is ours (REDCap shows unknown
// tags as plain annotation text and ignores them), so a unit survives the round trip.

export type Tag = 'DEFAULT' | 'UNIT'
const tagPattern = (tag: Tag) => new RegExp(`\\s*@${tag}\\s*=\\s*(?:'([^']*)'|"([^"]*)")`, 'g')

export function readTag(annotation: string, tag: Tag): string | null {
  const m = tagPattern(tag).exec(annotation)
  return m ? (m[1] ?? m[2] ?? '') : null
}

export const dropTag = (annotation: string, tag: Tag) => annotation.replace(tagPattern(tag), '').trim()

/** Sets a tag's value, leaving the annotation untouched when it already says so. */
export function setTag(annotation: string, tag: Tag, value: string): string {
  if (readTag(annotation, tag) === value) return annotation
  const rest = dropTag(annotation, tag)
  const quoted = value.includes("'") ? `"${value}"` : `'${value}'`
  return (rest ? rest + ' ' : '') + `@${tag}=${quoted}`
}

// ---------------------------------------------------------------------------------------------
// Text validations

/** REDCap validations that are a date or time format of ours (mdy / dmy only change the entry order). */
export const dateValidations: Record<string, DateFormat> = {
  date_ymd: 'YYYY-MM-DD',
  date_mdy: 'YYYY-MM-DD',
  date_dmy: 'YYYY-MM-DD',
  datetime_ymd: 'YYYY-MM-DD HH:mm',
  datetime_mdy: 'YYYY-MM-DD HH:mm',
  datetime_dmy: 'YYYY-MM-DD HH:mm',
  datetime_seconds_ymd: 'YYYY-MM-DD HH:mm:ss',
  datetime_seconds_mdy: 'YYYY-MM-DD HH:mm:ss',
  datetime_seconds_dmy: 'YYYY-MM-DD HH:mm:ss',
  time: 'HH:mm',
  time_hh_mm_ss: 'HH:mm:ss',
}

/** The REDCap validation written for a date format of ours; YYYY-MM and YYYY have none. */
export const validationOfDate: Partial<Record<DateFormat, string>> = {
  'YYYY-MM-DD': 'date_ymd',
  'YYYY-MM-DD HH:mm': 'datetime_ymd',
  'YYYY-MM-DD HH:mm:ss': 'datetime_seconds_ymd',
  'HH:mm': 'time',
  'HH:mm:ss': 'time_hh_mm_ss',
}

/** REDCap field types with no equivalent here: kept as a multi-line text field plus the @redcap section. */
export const keptTypes = new Set(['calc', 'descriptive', 'file', 'slider', 'signature', 'sql'])

export const choiceTypes = new Set(['radio', 'dropdown', 'checkbox'])
export const knownTypes = ['text', 'notes', 'radio', 'dropdown', 'checkbox', 'yesno', 'truefalse', ...keptTypes]

export const hasCjk = (s: string) => /[\u3400-\u9fff\uf900-\ufaff]/.test(s)
