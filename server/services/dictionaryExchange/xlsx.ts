import { PassThrough, Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import { importLimits } from '../../../contract/dictionaryExchange.ts'
import { ServiceError } from '../errors.ts'
import type { Table, TableRow } from './model.ts'

/**
 * xlsx in and out with exceljs' streaming reader and writer: a 20 MB workbook is never held as a
 * whole object model. Reading uses styles 'cache' because without styles Excel dates come back as
 * serial numbers (DESIGN §8).
 */

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * An Excel date as the text a person typed: exceljs hands dates back as UTC instants of the
 * cell's wall-clock value. A time alone sits on Excel's day zero (1899-12-30).
 */
function dateText(d: Date): string {
  const time = d.getUTCSeconds()
    ? `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
    : `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
  const hasTime = d.getUTCHours() !== 0 || d.getUTCMinutes() !== 0 || d.getUTCSeconds() !== 0
  if (d.getUTCFullYear() === 1899 && d.getUTCMonth() === 11 && d.getUTCDate() === 30) return time
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  return hasTime ? `${date} ${time}` : date
}

/** The text of any exceljs cell value; formulas give their cached result, errors nothing. */
export function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'string') return v
  // toPrecision(15) drops binary noise such as 0.30000000000000004, as Excel itself shows it.
  if (typeof v === 'number') return String(Number(v.toPrecision(15)))
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE'
  if (v instanceof Date) return dateText(v)
  if ('richText' in v) return v.richText.map((r) => r.text).join('')
  if ('hyperlink' in v) return v.text
  if ('formula' in v || 'sharedFormula' in v) return v.result === undefined ? '' : cellText(v.result as ExcelJS.CellValue)
  return ''
}

/** The first worksheet; its first non-blank row is the header; rows keep their sheet numbers. */
export async function readXlsx(data: Buffer): Promise<Table> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  })
  let header: string[] | null = null
  let sawSheet = false
  const rows: TableRow[] = []
  try {
    for await (const sheet of reader) {
      sawSheet = true
      for await (const row of sheet) {
        const values = Array.isArray(row.values) ? row.values : []
        // row.values is 1-based and sparse: index 0 is always empty.
        const cells: string[] = []
        for (let i = 1; i < values.length; i++) cells.push(cellText(values[i] as ExcelJS.CellValue))
        if (cells.every((c) => c.trim() === '')) continue
        if (header === null) {
          header = cells.map((h) => h.trim())
          continue
        }
        if (rows.length === importLimits.maxRows) throw new ServiceError('tooLarge', 'import.tooManyRows', [importLimits.maxRows])
        rows.push({ row: row.number, cells })
      }
      break
    }
  } catch (err) {
    if (err instanceof ServiceError) throw err
    // A zip that file-type took for a workbook but exceljs cannot read is no xlsx either.
    throw new ServiceError('badRequest', 'import.notXlsx')
  }
  // A zip without a worksheet (a .docx, an archive) is no workbook, whatever its name says.
  if (!sawSheet) throw new ServiceError('badRequest', 'import.notXlsx')
  if (header === null) throw new ServiceError('badRequest', 'import.empty')
  return { container: 'xlsx', encoding: null, header, rows }
}

export type XlsxCell = string | number | null

/**
 * A one-sheet workbook streamed as it is written: rows are committed one by one, so an export of
 * 100,000 indicators never sits in memory as a workbook. The header row is bold and frozen.
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
    for await (const r of rows) ws.addRow(r).commit()
    ws.commit()
    await wb.commit()
  }
  write().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))))
  return out
}
