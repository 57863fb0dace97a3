import type { VersionField } from '../../../contract/crf.ts'
import { keyColumns } from '../../../contract/dataLoader.ts'
import { fieldKindOf, isMultiKind } from '../../../contract/fieldKind.ts'
import type { MessageKey } from '../../i18n/messages.ts'
import { redcapLabel, splitComment } from '../dictionaryExchange/redcap.ts'
import { layoutHeader, sheetsOf, type LoadForm, type SheetLayout } from './layout.ts'

/**
 * The header of a REDCap record export: which column is what. REDCap writes it in two styles:
 *
 * | "CSV (raw data)"                        | "CSV (labels)"                                    |
 * |-----------------------------------------|---------------------------------------------------|
 * | variable names (record_id, dob)         | field labels (Record ID, Date of birth)           |
 * | checkbox columns field___code, 1 / 0    | Label (choice=Choice label), Checked / Unchecked  |
 * | choices as codes                        | choices as their labels                           |
 * | redcap_event_name: baseline_arm_1       | Event Name: Baseline (Arm 1: Arm 1)               |
 * | redcap_repeat_instrument / _instance    | Repeat Instrument / Repeat Instance               |
 * | redcap_data_access_group, _survey_identifier | Data Access Group, Survey Identifier         |
 * | <instrument>_complete, _timestamp       | Complete?, Survey Timestamp                       |
 *
 * The CRFs are those imported from the same REDCap data dictionary, so a field's code is its
 * variable name and its label (redcapLabel) the field label. The style is the one that names more
 * of the file's columns. A label two fields share says nothing about which one a column is: such
 * a column is refused by name rather than guessed.
 */

export type HeaderStyle = 'raw' | 'labels'

interface OwnColumns {
  event: string
  instrument: string
  instance: string
  ignored: readonly string[]
  /** Form status and survey bookkeeping: nothing a CRF here holds. */
  bookkeeping: RegExp
  /** A checkbox column: the field and the choice it names. */
  checkbox: RegExp
  /** The cell texts of a checkbox column that leave its choice unticked. */
  off: ReadonlySet<string>
}

/** REDCap's own columns in each style, compared as `headerKey` makes them. */
const own: Record<HeaderStyle, OwnColumns> = {
  raw: {
    event: 'redcap_event_name',
    instrument: 'redcap_repeat_instrument',
    instance: 'redcap_repeat_instance',
    ignored: ['redcap_data_access_group', 'redcap_survey_identifier'],
    bookkeeping: /_(complete|timestamp)$/,
    checkbox: /^(.+?)___(.+)$/,
    off: new Set(['0', '']),
  },
  labels: {
    event: 'event name',
    instrument: 'repeat instrument',
    instance: 'repeat instance',
    ignored: ['data access group', 'survey identifier'],
    bookkeeping: /^(complete\?|survey timestamp)$/,
    checkbox: /^(.+) \(choice=(.+)\)$/,
    off: new Set(['Unchecked', '']),
  },
}

const ownNames = (o: OwnColumns) => new Set([o.event, o.instrument, o.instance, ...o.ignored])
const ownOf = { raw: ownNames(own.raw), labels: ownNames(own.labels) }

/** Whether a header cell is one of REDCap's own columns, in either style. */
export const isOwnColumn = (text: string) => ownOf.raw.has(headerKey(text)) || ownOf.labels.has(headerKey(text))

/** A header cell as compared: a label without markup and doubled spaces (REDCap drops both), any case. */
export function headerKey(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}

/** A checkbox choice code as REDCap writes it in a column name: lower case, other characters '_'. */
const choicePart = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '_')

const fieldName = (f: VersionField, style: HeaderStyle) =>
  headerKey(style === 'raw' ? f.code : redcapLabel(f, splitComment(f.comment).meta.label))

export interface FieldPlace {
  layout: SheetLayout
  field: VersionField
}

export interface HeaderColumn {
  index: number
  /** Where its field may sit: one place per sheet holding it. */
  places: FieldPlace[]
  /** A checkbox column: its choice, and the cell texts that tick it. */
  box: { code: string; on: ReadonlySet<string> } | null
}

export interface RedcapHeader {
  style: HeaderStyle
  eventAt: number
  instanceAt: number
  /** Cell texts of any checkbox column that leave it unticked. */
  off: ReadonlySet<string>
  /** The field columns (the record id column among them when it is a field), in file order. */
  fields: HeaderColumn[]
}

export type HeaderProblem = (index: number, key: MessageKey, params: string[]) => void

/** Field name (code or label, as `headerKey` makes it) → its places, for one style. */
function placesByName(layouts: readonly SheetLayout[], style: HeaderStyle): Map<string, FieldPlace[]> {
  const out = new Map<string, FieldPlace[]>()
  for (const layout of layouts)
    for (const c of layout.columns)
      if (c.field) {
        const name = fieldName(c.field, style)
        out.set(name, [...(out.get(name) ?? []), { layout, field: c.field }])
      }
  return out
}

/** Whether a header key names a field of the index, as a plain or a checkbox column. */
function isFieldColumn(key: string, byName: Map<string, FieldPlace[]>, style: HeaderStyle): boolean {
  const box = own[style].checkbox.exec(key)
  return byName.has(key) || (box !== null && byName.has(box[1]!))
}

/** How many columns a style reads as REDCap's own or as a field of the project. */
function score(keys: readonly string[], byName: Map<string, FieldPlace[]>, style: HeaderStyle): number {
  const o = own[style]
  return keys.filter((k) => ownOf[style].has(k) || o.bookkeeping.test(k) || isFieldColumn(k, byName, style)).length
}

/**
 * Whether a header row is a REDCap record export rather than a sheet of ours: its first column is
 * no key column of ours, and it has REDCap's own columns (in either style), instrument status
 * columns, checkbox columns of the labels style, or (given the project's CRFs) a first column and
 * another one that name fields.
 */
export function isRedcapRecordHeader(header: readonly string[], forms: readonly LoadForm[] = []): boolean {
  const keys = header.map(headerKey)
  const first = keys[0] ?? ''
  if (first === '' || first === keyColumns.subject || first === layoutHeader[0]) return false
  const styles: HeaderStyle[] = ['raw', 'labels']
  const signal = (k: string) =>
    isOwnColumn(k) || own.raw.bookkeeping.test(k) || own.labels.bookkeeping.test(k) || own.labels.checkbox.test(k)
  if (keys.some(signal)) return true
  const layouts = sheetsOf(forms)
  return styles.some((style) => {
    const byName = placesByName(layouts, style)
    return byName.has(first) && keys.slice(1).some((k) => isFieldColumn(k, byName, style))
  })
}

/**
 * Each column of a REDCap record export's header: REDCap's own, ignored, or a field's (with its
 * candidate places). A column naming nothing, a choice its field lacks, or a label several fields
 * share goes to `problem` and is left out.
 */
export function readRedcapHeader(layouts: readonly SheetLayout[], header: readonly string[], problem: HeaderProblem): RedcapHeader {
  const names = header.map((h) => h.trim())
  const keys = names.map(headerKey)
  const raw = placesByName(layouts, 'raw')
  const labels = placesByName(layouts, 'labels')
  const style: HeaderStyle = score(keys, labels, 'labels') > score(keys, raw, 'raw') ? 'labels' : 'raw'
  const byName = style === 'raw' ? raw : labels
  const o = own[style]
  const fields: HeaderColumn[] = []

  /** The places of a name, or none when two different fields answer to it. */
  const placesOf = (index: number, name: string): FieldPlace[] | undefined => {
    const places = byName.get(name)
    const codes = [...new Set(places?.map((p) => p.field.code))]
    if (codes.length <= 1) return places
    problem(index, 'dataLoad.redcap.ambiguousLabel', [names[index]!, codes.join(', ')])
    return []
  }
  keys.forEach((key, index) => {
    if (index > 0 && (ownOf[style].has(key) || key === '')) return
    const plain = placesOf(index, key)
    if (plain) {
      if (plain.length > 0) fields.push({ index, places: plain, box: null })
      return
    }
    if (index === 0) return
    const box = o.checkbox.exec(key)
    const boxPlaces = box ? placesOf(index, box[1]!) : undefined
    if (boxPlaces?.length === 0) return
    const multi = boxPlaces?.filter((p) => isMultiKind(fieldKindOf(p.field))) ?? []
    if (box && multi.length > 0) {
      const part = box[2]!
      const option = multi[0]!.field.options.find((c) =>
        style === 'raw'
          ? c.code.toLowerCase() === part || choicePart(c.code) === part
          : headerKey(c.labelZh) === part || headerKey(c.labelEn) === part,
      )
      if (!option) {
        const shown = o.checkbox.exec(names[index]!.replace(/\s+/g, ' '))?.[2] ?? part
        return problem(index, 'dataLoad.redcap.unknownChoice', [names[index]!, shown, multi[0]!.field.code])
      }
      const on = style === 'raw' ? ['1'] : ['Checked', option.labelZh, option.labelEn].filter((t) => t !== '')
      fields.push({ index, places: multi, box: { code: option.code, on: new Set(on) } })
      return
    }
    if (o.bookkeeping.test(key)) return
    problem(index, 'dataLoad.redcap.unknownColumn', [names[index]!])
  })
  return { style, eventAt: keys.indexOf(o.event), instanceAt: keys.indexOf(o.instance), off: o.off, fields }
}

/**
 * How a labels export's cell of a single choice field reads: its choice label (REDCap has one,
 * kept in both languages) as the code; anything else as written, for the entry rules to name.
 */
export function labelReader(field: VersionField): ((text: string) => string) | undefined {
  if (field.options.length === 0 || isMultiKind(fieldKindOf(field))) return undefined
  const codes = new Map<string, string>()
  for (const c of field.options) for (const l of [c.labelZh, c.labelEn]) if (l !== '' && !codes.has(l)) codes.set(l, c.code)
  return (text) => codes.get(text) ?? text
}
