import type { TemplateVersion, VersionField } from '../../../contract/crf.ts'
import { keyColumns, type KeyColumn } from '../../../contract/dataLoader.ts'
import { dateFormatOf, fieldKindOf, isDateKind, isMultiKind } from '../../../contract/fieldKind.ts'
import type { FieldValue, Lang } from '../../../contract/formValues.ts'
import { labelOf, numberAsKept } from '../../../contract/formValues.ts'
import { splitMulti } from '../../../contract/indicatorRules.ts'
import type { FormMode } from '../../../contract/studyData.ts'
import { message } from '../../i18n/messages.ts'
import { dateSpelling } from '../../../contract/dateSpelling.ts'
import { halfWidth } from '../../../contract/halfWidth.ts'

/**
 * The one sheet layout of data loading (docs/DATA_LOADING.md): templates are written in it,
 * uploads read in it, xlsx and CSV downloads written in it, and REDCap records are mapped onto it.
 *
 * A CRF's plain sections are one sheet: key columns (subject_id, center, queue, rand_group when
 * asked for, and visit or sample_id as its mode needs), then one column per field, headed by the
 * field's code. Each sub
 * form (repeating section) is a sheet of its own: subject_id, visit or sample_id, row, its fields.
 * Row 1 holds the codes, row 2 the labels in the chosen language; data starts on row 3 (a CSV
 * may leave the label row out). A workbook names what each sheet is in a hidden sheet `_layout`
 * (sheet, templateId, versionId, section), so a renamed CRF still loads.
 */

export const layoutSheet = '_layout'
export const layoutHeader = ['sheet', 'templateId', 'versionId', 'section'] as const
/** A template's hidden sheet of long choice lists its validations point at; holds no data. */
export const listsSheet = '_lists'

export interface Column {
  /** The header cell: a key column's name or the field's code. */
  key: string
  kind: 'key' | 'field'
  /** Set for a field column. */
  field?: VersionField
}

export interface SheetLayout {
  /** A valid, unique Excel sheet name (≤ 31 characters). */
  name: string
  templateId: number
  versionId: number
  /** '' for the plain sections, else the repeating section's key. */
  section: string
  mode: FormMode
  columns: Column[]
}

export interface LoadForm {
  templateId: number
  versionId: number
  name: string
  mode: FormMode
  version: TemplateVersion
}

/** Whether a form has sub forms (repeating sections): rows of other sheets may join its instances. */
export const hasSubForms = (form: LoadForm) => form.version.layout.sections.some((s) => s.repeating)

const slotColumn = (mode: FormMode): KeyColumn[] => (mode === 'visit' ? [keyColumns.visit] : mode === 'sample' ? [keyColumns.sample] : [])

/** Excel refuses []:*?/\ in a sheet name and more than 31 characters; one cut short ends in no space. */
const sheetName = (raw: string) =>
  raw
    .replace(/[[\]:*?/\\]/g, ' ')
    .trim()
    .slice(0, 31)
    .trimEnd() || 'Sheet'

function unique(name: string, taken: Set<string>): string {
  let out = name
  for (let n = 2; taken.has(out.toLowerCase()); n++) out = `${name.slice(0, 31 - String(n).length - 1)}~${n}`
  taken.add(out.toLowerCase())
  return out
}

/**
 * The sheets of several CRFs in one workbook, names unique across them. `groups`: main sheets
 * carry the rand_group column (a download for one who sees groups; an upload, which reads past it).
 */
export function sheetsOf(forms: readonly LoadForm[], opts: { groups?: boolean } = {}): SheetLayout[] {
  const taken = new Set<string>([layoutSheet, listsSheet])
  const out: SheetLayout[] = []
  for (const form of forms) {
    const byId = new Map(form.version.indicators.map((f) => [f.id, f]))
    const fieldsOf = (items: readonly { indicatorId: number }[]): Column[] =>
      items.flatMap((i) => {
        const field = byId.get(i.indicatorId)
        return field ? [{ key: field.code, kind: 'field' as const, field }] : []
      })
    const plain = form.version.layout.sections.filter((s) => !s.repeating).flatMap((s) => s.items)
    const keys = [
      keyColumns.subject,
      keyColumns.center,
      keyColumns.queue,
      ...(opts.groups ? [keyColumns.group] : []),
      ...slotColumn(form.mode),
    ]
    out.push({
      name: unique(sheetName(form.name), taken),
      templateId: form.templateId,
      versionId: form.versionId,
      section: '',
      mode: form.mode,
      columns: [...keys.map((key) => ({ key, kind: 'key' as const })), ...fieldsOf(plain)],
    })
    for (const s of form.version.layout.sections.filter((x) => x.repeating)) {
      const subKeys = [keyColumns.subject, ...slotColumn(form.mode), keyColumns.row]
      out.push({
        name: unique(sheetName(`${form.name} - ${s.title.replace(/<[^>]*>/g, '') || s.key}`), taken),
        templateId: form.templateId,
        versionId: form.versionId,
        section: s.key,
        mode: form.mode,
        columns: [...subKeys.map((key) => ({ key, kind: 'key' as const })), ...fieldsOf(s.items)],
      })
    }
  }
  return out
}

/** The label row's text of a column. */
export function columnLabel(c: Column, lang: Lang): string {
  return c.field ? labelOf(c.field, lang) : message(lang, `dataLoad.column.${c.key as KeyColumn}`)
}

/** Whether a row is the label row (its first cell is the subject column's label in either language). */
export const isLabelRow = (cells: readonly string[]) =>
  cells[0] !== undefined && (['zh', 'en'] as const).some((l) => message(l, 'dataLoad.column.subject_id') === cells[0]!.trim())

// ---------------------------------------------------------------------------------------------
// Cell text ↔ stored value

/** A stored value as cell text: a choice as its code, several joined with '|'. */
export function valueToCell(value: FieldValue | undefined): string {
  if (value === undefined) return ''
  return typeof value === 'string' ? value : value.join('|')
}

/**
 * Cell text as the value to validate: a choice may be written as its code or as its label in
 * either language (what a person picks in Excel); several choices are joined with '|'; a date
 * or time spelled year-first as spreadsheets save it ('2024/1/5') is put in the field's format
 * (contract/dateSpelling.ts); full-width digits and signs in numbers, dates and choice codes are read as
 * their ASCII (contract/halfWidth.ts). What matches no choice or format is kept as written, so the entry
 * rules name it.
 */
export function cellToValue(field: VersionField, text: string): FieldValue {
  return cellReader(field)(text)
}

/** cellToValue for one field, its choices looked up once (an upload reads a column 100,000 times). */
export function cellReader(field: VersionField): (text: string) => FieldValue {
  const codes = new Map<string, string>()
  for (const o of field.options) for (const l of [o.labelZh, o.labelEn]) if (l !== '' && !codes.has(l)) codes.set(l, o.code)
  for (const o of field.options) codes.set(o.code, o.code)
  const toCode = (part: string) => {
    const p = part.trim()
    const hit = codes.get(p)
    if (hit !== undefined) return hit
    const half = halfWidth(p).trim()
    return codes.get(half) ?? half
  }
  const kind = fieldKindOf(field)
  if (isMultiKind(kind)) return (text) => splitMulti(text.trim()).map(toCode)
  if (isDateKind(kind)) {
    const format = dateFormatOf(field)
    return (text) => dateSpelling(halfWidth(text).trim(), format)
  }
  if (kind === 'number') return (text) => numberAsKept(halfWidth(text))
  if (field.options.length === 0) return (text) => text.trim()
  return (text) => {
    const t = text.trim()
    return t === '' ? t : toCode(t)
  }
}
