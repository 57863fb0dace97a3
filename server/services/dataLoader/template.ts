import ExcelJS from 'exceljs'
import type { VersionField } from '../../../contract/crf.ts'
import { dataLoadLimits, keyColumns, type TemplateQuery } from '../../../contract/dataLoader.ts'
import { dateFormatOf, fieldKindOf, isMultiKind } from '../../../contract/fieldKind.ts'
import { choiceLabel } from '../../../contract/indicatorRules.ts'
import { message, type Lang, type MessageKey } from '../../i18n/messages.ts'
import { projectNumber } from '../../db/repositories/dataLoadRecords.ts'
import { visitFormsOf, visitsOf } from '../../db/repositories/followUp.ts'
import { centersOf, queuesOf } from '../../db/repositories/projects.ts'
import type { Actor } from '../actor.ts'
import type { ServiceContext } from '../context.ts'
import { ServiceError } from '../errors.ts'
import { projectScope } from '../policy.ts'
import { loadForms } from './forms.ts'
import { columnLabel, layoutHeader, layoutSheet, listsSheet, sheetsOf, type Column, type SheetLayout } from './layout.ts'
import { columnName } from './readRows.ts'

/**
 * downloadTemplate: one workbook for one or several CRFs, in the one sheet layout (layout.ts) an
 * upload reads back. Row 1 the codes, row 2 the labels in the chosen language (bold, both frozen),
 * data from row 3. A choice column drops down its choices, and the center, queue and visit
 * columns the codes, keys and names the caller may load into; each field's code cell carries a
 * note with its type, unit, range, date format, choices and whether it is required. A template
 * is small, so the whole workbook is built in memory.
 */

/**
 * Data rows the drop-downs cover. A template is filled by hand; a larger file is generated, and
 * the server checks every cell of it anyway. Whole-column ranges would make every reader that
 * loads validations (exceljs' workbook) expand a million cells per column.
 */
export const templateRows = 10_000
const firstDataRow = 3
/** Excel keeps an inline list formula to 255 characters. */
const inlineListMax = 255

export interface TemplateFile {
  fileName: string
  body: Buffer
}

/** Characters a file name cannot hold on the common systems. */
const safeFileName = (s: string) => s.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim()

/** The text a person picks for a choice: its label when every label tells the choices apart, else its code. */
export function listEntries(field: Pick<VersionField, 'options'>, lang: Lang): string[] {
  const labels = field.options.map((o) => choiceLabel(o, lang))
  const codes = new Set(field.options.map((o) => o.code))
  // cellToValue reads a code first: a label that is some choice's code would be read as that code.
  const usable = labels.every((l) => l !== '' && !codes.has(l)) && new Set(labels).size === labels.length
  return usable ? labels : field.options.map((o) => o.code)
}

/** The choice lists of a workbook: short ones inline, long ones as a column of the hidden lists sheet. */
class Lists {
  private readonly columns: (readonly string[])[] = []
  private readonly known = new Map<string, string>()

  formula(entries: readonly string[]): string {
    const inline = `"${entries.join(',')}"`
    // A comma or quote inside an entry cannot be written inline.
    if (inline.length <= inlineListMax && !entries.some((e) => /[,"]/.test(e))) return inline
    const key = JSON.stringify(entries)
    const hit = this.known.get(key)
    if (hit) return hit
    this.columns.push(entries)
    const letter = columnName(this.columns.length)
    const ref = `'${listsSheet}'!$${letter}$1:$${letter}$${entries.length}`
    this.known.set(key, ref)
    return ref
  }

  /** The hidden sheet, after the data sheets (none when every list was short). */
  write(wb: ExcelJS.Workbook): void {
    if (this.columns.length === 0) return
    const ws = wb.addWorksheet(listsSheet, { state: 'hidden' })
    this.columns.forEach((entries, c) => entries.forEach((e, r) => (ws.getCell(r + 1, c + 1).value = e)))
  }
}

/** The note of a field's code cell. */
export function fieldNote(f: VersionField, required: boolean, lang: Lang): string {
  const say = (key: MessageKey, params: (string | number)[] = []) => message(lang, key, params)
  const kind = fieldKindOf(f)
  const kindWord = kind === 'number' ? (f.dataType === 'integer' ? 'integer' : 'decimal') : kind
  const lines = [say('dataLoad.note.type', [say(`dataLoad.note.kind.${kindWord}`)])]
  if (f.unit) lines.push(say('dataLoad.note.unit', [f.unit]))
  if (f.minimum !== null && f.maximum !== null) lines.push(say('dataLoad.note.range', [f.minimum, f.maximum]))
  else if (f.minimum !== null) lines.push(say('dataLoad.note.min', [f.minimum]))
  else if (f.maximum !== null) lines.push(say('dataLoad.note.max', [f.maximum]))
  if (f.type === 'date') lines.push(say('dataLoad.note.format', [dateFormatOf(f)]))
  if (f.options.length > 0) {
    lines.push(say('dataLoad.note.choices'))
    for (const o of f.options) lines.push(`${o.code}=${choiceLabel(o, lang)}`)
    if (isMultiKind(kind)) lines.push(say('dataLoad.note.multi'))
  }
  if (required) lines.push(say('dataLoad.note.required'))
  return lines.join('\n')
}

/** The range text of a number field's validation message. */
const rangeText = (f: VersionField) => `${f.minimum ?? '…'} – ${f.maximum ?? '…'}`

function numberValidation(f: VersionField, lang: Lang): ExcelJS.DataValidation | undefined {
  if (fieldKindOf(f) !== 'number' || (f.minimum === null && f.maximum === null)) return undefined
  const type = f.dataType === 'integer' ? 'whole' : 'decimal'
  const bounds: Pick<ExcelJS.DataValidation, 'operator' | 'formulae'> =
    f.minimum !== null && f.maximum !== null
      ? { operator: 'between', formulae: [f.minimum, f.maximum] }
      : f.minimum !== null
        ? { operator: 'greaterThanOrEqual', formulae: [f.minimum] }
        : { operator: 'lessThanOrEqual', formulae: [f.maximum] }
  return {
    type,
    ...bounds,
    allowBlank: true,
    showErrorMessage: true,
    errorStyle: 'stop',
    errorTitle: message(lang, 'dataLoad.range.title'),
    error: message(lang, 'dataLoad.range.error', [rangeText(f)]),
  }
}

/** What drops down in each key column, by the sheet's CRF. */
interface KeyLists {
  centers: string[]
  queues: string[]
  /** Visit names by template id (the visits that collect it; every visit when none names it). */
  visits: (templateId: number) => string[]
}

function columnValidation(sheet: SheetLayout, c: Column, keys: KeyLists, lists: Lists, lang: Lang): ExcelJS.DataValidation | undefined {
  const list = (entries: readonly string[], multi = false): ExcelJS.DataValidation | undefined =>
    entries.length === 0
      ? undefined
      : {
          type: 'list',
          allowBlank: true,
          formulae: [lists.formula(entries)],
          showErrorMessage: true,
          // Several choices joined with '|' are not one entry of the list: warn, do not stop.
          errorStyle: multi ? 'information' : 'stop',
          errorTitle: message(lang, 'dataLoad.list.title'),
          error: message(lang, multi ? 'dataLoad.list.multi' : 'dataLoad.list.error'),
        }
  if (c.field) {
    if (c.field.options.length > 0) return list(listEntries(c.field, lang), isMultiKind(fieldKindOf(c.field)))
    return numberValidation(c.field, lang)
  }
  switch (c.key) {
    case keyColumns.center:
      return list(keys.centers)
    case keyColumns.queue:
      return list(keys.queues)
    case keyColumns.visit:
      return list(keys.visits(sheet.templateId))
    case keyColumns.row:
      return {
        type: 'whole',
        operator: 'greaterThanOrEqual',
        formulae: [1],
        allowBlank: true,
        showErrorMessage: true,
        errorStyle: 'stop',
        errorTitle: message(lang, 'dataLoad.range.title'),
        error: message(lang, 'dataLoad.row.error'),
      }
    default:
      return undefined
  }
}

/** exceljs keeps validations of ranges in `dataValidations` (one entry per range), which its types leave out. */
type RangeValidations = { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }

function writeSheet(wb: ExcelJS.Workbook, sheet: SheetLayout, required: ReadonlySet<number>, keys: KeyLists, lists: Lists, lang: Lang) {
  const ws = wb.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 2 }] }) as ExcelJS.Worksheet & RangeValidations
  ws.getRow(1).values = sheet.columns.map((c) => c.key)
  const labels = ws.getRow(2)
  labels.values = sheet.columns.map((c) => columnLabel(c, lang))
  labels.font = { bold: true }
  sheet.columns.forEach((c, i) => {
    const col = ws.getColumn(i + 1)
    col.width = Math.min(40, Math.max(12, columnLabel(c, lang).length * 2, c.key.length + 2))
    const head = ws.getCell(1, i + 1)
    if (c.field) head.note = fieldNote(c.field, required.has(c.field.id), lang)
    else if (c.key === keyColumns.subject) head.note = message(lang, 'dataLoad.note.subject')
    else if (c.key === keyColumns.row) head.note = message(lang, 'dataLoad.note.row')
    // Everything but numbers stays text as typed: Excel would turn a subject id 0012 into 12, a
    // choice code 01 into 1, and a date into a serial number in the reader's locale format.
    const numeric = c.field ? fieldKindOf(c.field) === 'number' : c.key === keyColumns.row
    if (!numeric) col.numFmt = '@'
    const v = columnValidation(sheet, c, keys, lists, lang)
    if (v) ws.dataValidations.add(`${col.letter}${firstDataRow}:${col.letter}${firstDataRow + templateRows - 1}`, v)
  })
}

export async function buildTemplate(ctx: ServiceContext, actor: Actor, q: TemplateQuery, lang: Lang): Promise<TemplateFile> {
  const ids = [...new Set(q.templateIds)]
  if (ids.length === 0) throw new ServiceError('badRequest', 'dataLoad.noTemplates')
  if (ids.length > dataLoadLimits.maxForms) throw new ServiceError('badRequest', 'dataLoad.tooManyForms', [dataLoadLimits.maxForms])
  const projectId = q.studyId
  const forms = await loadForms(ctx, projectId, ids)
  // The lists offer what the caller may load into: a member of center A sees A only.
  const scope = projectScope(actor, 'dataLoad.template', projectId)
  const [number, centers, queues, visits, visitForms] = await Promise.all([
    projectNumber(ctx.db, projectId),
    centersOf(ctx.db, projectId, scope),
    queuesOf(ctx.db, projectId, scope),
    visitsOf(ctx.db, projectId),
    visitFormsOf(ctx.db, projectId),
  ])
  const keys: KeyLists = {
    centers: centers.map((c) => c.code),
    queues: queues.map((x) => x.key),
    visits: (templateId) => {
      const named = new Set(visitForms.filter((v) => v.template_id === templateId).map((v) => v.visit_id))
      return visits.filter((v) => named.size === 0 || named.has(v.id)).map((v) => v.name)
    },
  }

  const wb = new ExcelJS.Workbook()
  wb.created = ctx.now()
  const lists = new Lists()
  const sheets = sheetsOf(forms)
  for (const sheet of sheets) {
    const form = forms.find((f) => f.templateId === sheet.templateId)!
    const required = new Set(
      form.version.layout.sections
        .filter((s) => s.key === sheet.section || (sheet.section === '' && !s.repeating))
        .flatMap((s) => s.items.filter((i) => i.required).map((i) => i.indicatorId)),
    )
    writeSheet(wb, sheet, required, keys, lists, lang)
  }
  // What each sheet is, so an upload still maps a sheet someone renamed.
  const layout = wb.addWorksheet(layoutSheet, { state: 'hidden' })
  layout.addRow([...layoutHeader])
  for (const s of sheets) layout.addRow([s.name, s.templateId, s.versionId, s.section])
  lists.write(wb)
  const body = Buffer.from(await wb.xlsx.writeBuffer())

  const projectNo = safeFileName(number ?? String(projectId))
  const fileName =
    forms.length === 1
      ? message(lang, 'dataLoad.templateFile', [projectNo, safeFileName(forms[0]!.name)])
      : message(lang, 'dataLoad.templateFileMany', [projectNo, forms.length])
  return { fileName, body }
}
