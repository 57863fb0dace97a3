import { PassThrough, Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import '../exceljsDecodeOnce.ts'
import { importLimits } from '../../../contract/dictionaryExchange.ts'
import { ServiceError } from '../errors.ts'
import { formulaSafe, fromFormulaSafe } from '../export/formulaSafe.ts'
import type { Table, TableRow } from './model.ts'
import { InflateBudget } from '../inflateBudget.ts'
import { entryText, zipEntries, type ZipEntry } from './zip.ts'

/**
 * xlsx in and out with exceljs' streaming reader and writer: a 20 MB workbook is never held as a
 * whole object model. Reading uses styles 'cache' because without styles Excel dates come back as
 * serial numbers (DESIGN §8).
 */

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * An Excel date as the text a person typed: exceljs hands dates back as UTC instants of the
 * cell's wall-clock value. A time alone sits on Excel's day zero (1899-12-30). Midnight is shown
 * when the cell's format shows a time: 2024-01-05 00:00 is a date-time, not a date.
 */
function dateText(d: Date, withTime: boolean): string {
  const time = d.getUTCSeconds()
    ? `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
    : `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
  const hasTime = withTime || d.getUTCHours() !== 0 || d.getUTCMinutes() !== 0 || d.getUTCSeconds() !== 0
  if (d.getUTCFullYear() === 1899 && d.getUTCMonth() === 11 && d.getUTCDate() === 30) return time
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  return hasTime ? `${date} ${time}` : date
}

/** A number format that shows a time of day: hours or seconds outside quoted text and [$-804], [Red] parts ([h] is elapsed hours). */
export const showsTime = (numFmt: string | undefined) =>
  numFmt !== undefined && /[hs]/i.test(numFmt.replace(/"[^"]*"|\[(?![hms]+\])[^\]]*\]|\\./gi, ''))

/**
 * A number as Excel shows it: toPrecision(15) drops binary noise such as 0.30000000000000004.
 * A number whose shortest spelling fits in 15 characters has at most 15 significant digits, so
 * rounding it to 15 gives it back unchanged, and most cells skip the rounding: it cost the reader
 * thread ~0.3 s of the bench's 100,000-row xlsx upload (1,200,000 number cells), which the parse
 * paces (tests/unit/dataLoader/numberText.property.test.ts checks the two agree).
 */
export function numberText(v: number): string {
  const shortest = String(v)
  return shortest.length <= 15 ? shortest : String(Number(v.toPrecision(15)))
}

/** The text of any exceljs cell value (its number format tells a date-time at midnight); formulas give their cached result, errors nothing. */
export function cellText(v: ExcelJS.CellValue, numFmt?: string): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'string') return v
  if (typeof v === 'number') return numberText(v)
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE'
  if (v instanceof Date) return dateText(v, showsTime(numFmt))
  if ('richText' in v) return v.richText.map((r) => r.text).join('')
  if ('hyperlink' in v) return v.text
  if ('formula' in v || 'sharedFormula' in v) return v.result === undefined ? '' : cellText(v.result as ExcelJS.CellValue, numFmt)
  return ''
}

/** The parts of exceljs' streaming reader that read one zip entry each (exceljs 4.4, pinned). */
interface ReaderParts {
  workbookRels?: { Id: string; Target: string }[]
  model?: { sheets?: { rId: string }[] }
  _parseRels(entry: Readable): Promise<void>
  _parseWorkbook(entry: Readable): Promise<void>
  _parseStyles(entry: Readable): Promise<void>
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>
  _parseWorksheet(text: AsyncIterable<string>, sheetNo: string): Iterable<{ value: AsyncIterable<ExcelJS.Row> }>
}

/** The workbook's first sheet by its own order, else the lowest numbered one. */
function firstSheet(reader: ReaderParts, entries: Map<string, ZipEntry>): ZipEntry | undefined {
  const rId = reader.model?.sheets?.[0]?.rId
  const target = reader.workbookRels?.find((r) => r.Id === rId)?.Target.replace(/^\/?(xl\/)?/, '')
  const byModel = target ? entries.get(`xl/${target}`) : undefined
  if (byModel) return byModel
  const sheets = [...entries.values()].filter((e) => /^xl\/worksheets\/sheet\d+\.xml$/.test(e.name))
  return sheets.sort((a, b) => Number(/\d+/.exec(a.name)![0]) - Number(/\d+/.exec(b.name)![0]))[0]
}

/**
 * The first worksheet; its first non-blank row is the header; rows keep their sheet numbers.
 *
 * exceljs' WorkbookReader reads the zip as a stream in file order and parks every sheet that comes
 * before the shared strings (Excel's own order) in a temporary file it never removes when the
 * caller stops early, and it inflates without any bound. So the entries are taken here from the
 * zip's directory in the order the reader needs (relations, workbook, styles, shared strings,
 * sheet), each inflated under one InflateBudget, and handed to exceljs' own entry parsers: no
 * temporary file, and a bomb is refused after at most maxInflatedBytes.
 */
export async function readXlsx(data: Buffer): Promise<Table> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  }) as unknown as ReaderParts
  const entries = zipEntries(data)
  const budget = new InflateBudget({
    maxInflatedBytes: importLimits.maxInflatedBytes,
    maxCellChars: importLimits.maxCellChars,
    tooLarge: 'import.inflatedTooLarge',
    textTooLong: 'import.inflatedTextTooLong',
  })
  const text = (name: string) => {
    const e = entries.get(name)
    return e ? Readable.from(entryText(data, e, budget)) : null
  }
  let header: string[] | null = null
  const rows: TableRow[] = []
  try {
    const rels = text('xl/_rels/workbook.xml.rels')
    if (rels) await reader._parseRels(rels)
    const book = text('xl/workbook.xml')
    if (book) await reader._parseWorkbook(book)
    const styles = text('xl/styles.xml')
    if (styles) await reader._parseStyles(styles)
    const shared = text('xl/sharedStrings.xml')
    if (shared) for await (const _ of reader._parseSharedStrings(shared));
    const chosen = firstSheet(reader, entries)
    // A zip without a worksheet (a .docx, an archive) is no workbook, whatever its name says.
    if (!chosen) throw new ServiceError('badRequest', 'import.notXlsx')
    const sheetNo = /(\d+)\.xml$/.exec(chosen.name)?.[1] ?? '1'
    for (const { value: ws } of reader._parseWorksheet(entryText(data, chosen, budget), sheetNo)) {
      for await (const row of ws) {
        const values = Array.isArray(row.values) ? row.values : []
        if (values.length - 1 > importLimits.maxColumns)
          throw new ServiceError('tooLarge', 'import.tooManyColumns', [importLimits.maxColumns])
        // row.values is 1-based and sparse: index 0 is always empty.
        const cells: string[] = []
        let chars = 0
        for (let i = 1; i < values.length; i++) {
          const t = cellText(values[i] as ExcelJS.CellValue)
          if (t.length > importLimits.maxCellChars) throw new ServiceError('tooLarge', 'import.cellTooLong', [importLimits.maxCellChars])
          chars += t.length
          cells.push(t)
        }
        if (chars > importLimits.maxRowChars) throw new ServiceError('tooLarge', 'import.rowTooLong', [importLimits.maxRowChars])
        if (cells.every((c) => c.trim() === '')) continue
        if (header === null) {
          header = cells.map((h) => h.trim())
          continue
        }
        if (rows.length === importLimits.maxRows) throw new ServiceError('tooLarge', 'import.tooManyRows', [importLimits.maxRows])
        rows.push({ row: row.number, cells: cells.map(fromFormulaSafe) })
      }
    }
  } catch (err) {
    if (err instanceof ServiceError) throw err
    // A zip that file-type took for a workbook but exceljs cannot read is no xlsx either.
    throw new ServiceError('badRequest', 'import.notXlsx')
  }
  if (header === null) throw new ServiceError('badRequest', 'import.empty')
  return { container: 'xlsx', encoding: null, header, rows }
}

export type XlsxCell = string | number | null

/**
 * A one-sheet workbook streamed as it is written: rows are committed one by one, so an export of
 * 100,000 indicators never sits in memory as a workbook. The header row is bold and frozen. Text
 * cells are neutralised as in CSV: a string cell is not run, but becomes a formula once edited.
 */
export function xlsxStream(sheetName: string, header: readonly string[], rows: AsyncIterable<XlsxCell[]>): Readable {
  const out = new PassThrough()
  const write = async () => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false })
    const ws = wb.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] })
    ws.columns = header.map((h) => ({ key: h, width: Math.max(12, Math.min(40, h.length + 4)) }))
    const head = ws.addRow([...header])
    head.font = { bold: true }
    head.commit()
    for await (const r of rows) ws.addRow(r.map((c) => (typeof c === 'string' ? formulaSafe(c) : c))).commit()
    ws.commit()
    await wb.commit()
  }
  write().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))))
  return out
}
