import { Readable } from 'node:stream'
import { parse, CsvError } from 'csv-parse'
import iconv from 'iconv-lite'
import { importLimits } from '../../../contract/dictionaryExchange.ts'
import { ServiceError } from '../errors.ts'
import { formulaSafe, fromFormulaSafe } from '../export/formulaSafe.ts'
import type { Table, TableRow, TextEncoding } from './model.ts'

/**
 * CSV in and out. Reading decodes by content (Excel writes UTF-8 with a BOM, Chinese Excel's
 * "CSV (逗号分隔)" writes GBK without one, "Unicode text" writes UTF-16) and parses with csv-parse:
 * the exceljs CSV reader is ~80× slower (DESIGN §8).
 */

const utf8 = new TextDecoder('utf-8', { fatal: true })
/** C0 controls other than tab, LF and CR, and DEL: never in a spreadsheet's text. */
const controlChars = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]/

export function decodeText(data: Buffer): { text: string; encoding: TextEncoding } {
  const badEncoding = () => new ServiceError('badRequest', 'import.badEncoding')
  let out: { text: string; encoding: TextEncoding }
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) {
    try {
      out = { text: utf8.decode(data.subarray(3)), encoding: 'utf-8-bom' }
    } catch {
      throw badEncoding()
    }
  } else if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff)) {
    const encoding = data[0] === 0xff ? 'utf-16le' : 'utf-16be'
    try {
      out = { text: new TextDecoder(encoding, { fatal: true }).decode(data.subarray(2)), encoding }
    } catch {
      throw badEncoding()
    }
  } else {
    try {
      // Valid UTF-8 is taken as UTF-8: GBK text with Chinese in it is practically never valid UTF-8.
      out = { text: utf8.decode(data), encoding: 'utf-8' }
    } catch {
      // GB18030 decodes every GBK (code page 936) file and the rare characters beyond it; it marks
      // bytes it cannot decode with U+FFFD, which a GBK file does not otherwise hold.
      out = { text: iconv.decode(data, 'gb18030'), encoding: 'gbk' }
      if (out.text.includes('\uFFFD')) throw badEncoding()
    }
  }
  // The decoders above refuse invalid bytes; a U+FFFD they decoded is a character of the text.
  // Control characters are in no spreadsheet's text.
  if (controlChars.test(out.text)) throw badEncoding()
  return out
}

/** The delimiter of the header line: Excel writes ',' (';' in some locales) and tabs for "Unicode text". */
export function sniffDelimiter(text: string): string {
  // The head of the header line says enough; a one-line file is not scanned whole.
  const head = text.slice(0, 64 * 1024)
  const end = head.indexOf('\n')
  const line = end < 0 ? head : head.slice(0, end)
  const counts = new Map<string, number>([
    [',', 0],
    ['\t', 0],
    [';', 0],
  ])
  let quoted = false
  for (const ch of line) {
    if (ch === '"') quoted = !quoted
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1)
  }
  let best = ','
  for (const [ch, n] of counts) if (n > counts.get(best)!) best = ch
  return best
}

function* chunks(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size)
}

/**
 * The first record is the header; rows are numbered by record as a spreadsheet shows them (a
 * quoted cell with line breaks is one row), so a reported row is the one the user sees.
 * It runs in a worker thread (see readTable.ts), so however a file is shaped the server answers.
 */
export async function readCsv(data: Buffer): Promise<Table> {
  const { text, encoding } = decodeText(data)
  const parser = Readable.from(chunks(text, 64 * 1024)).pipe(
    parse({
      delimiter: sniffDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      // Stops a one-line 20 MB file early instead of splitting it into millions of cells.
      max_record_size: importLimits.maxRowChars,
    }),
  )
  let header: string[] | null = null
  const rows: TableRow[] = []
  let n = 0
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      n += 1
      if (record.length > importLimits.maxColumns) throw new ServiceError('tooLarge', 'import.tooManyColumns', [importLimits.maxColumns])
      if (record.some((c) => c.length > importLimits.maxCellChars))
        throw new ServiceError('tooLarge', 'import.cellTooLong', [importLimits.maxCellChars])
      if (header === null) {
        header = record.map((h) => h.trim())
        continue
      }
      if (record.every((c) => c.trim() === '')) continue
      if (rows.length === importLimits.maxRows) throw new ServiceError('tooLarge', 'import.tooManyRows', [importLimits.maxRows])
      rows.push({ row: n, cells: record.map(fromFormulaSafe) })
    }
  } catch (err) {
    parser.destroy()
    if (err instanceof CsvError && err.code === 'CSV_MAX_RECORD_SIZE') {
      throw new ServiceError('tooLarge', 'import.rowTooLong', [importLimits.maxRowChars])
    }
    if (err instanceof CsvError) {
      const line = typeof err.lines === 'number' ? err.lines : n + 1
      throw new ServiceError('badRequest', 'import.badCsv', [line, err.message])
    }
    throw err
  }
  if (header === null) throw new ServiceError('badRequest', 'import.empty')
  return { container: 'csv', encoding, header, rows }
}

/** The BOM that makes Excel (Chinese Excel included) read a CSV as UTF-8. */
export const utf8Bom = '\uFEFF'

const needsQuotes = /[",\r\n]|^\s|\s$/
const quoted = (s: string) => (needsQuotes.test(s) ? `"${s.replace(/"/g, '""')}"` : s)

/**
 * One CSV line (RFC 4180, CRLF), quoting only where needed; text a spreadsheet would run is
 * neutralised unless `verbatim` says the format needs that cell as it is.
 */
export function csvLine(cells: readonly (string | number | null)[], verbatim?: (column: number, text: string) => boolean): string {
  return (
    cells.map((c, i) => quoted(c === null ? '' : typeof c === 'number' || verbatim?.(i, c) ? String(c) : formulaSafe(c))).join(',') + '\r\n'
  )
}

/** What formulaSafe or quoting could change: a first character of either, or a character to quote. */
const special = /^[\s'=+\-@]|[",\r\n]|\s$/

/** One text cell as csvLine writes it; a cell that needs neither costs a single test. */
export const csvCell = (text: string): string => (special.test(text) ? quoted(formulaSafe(text)) : text)
