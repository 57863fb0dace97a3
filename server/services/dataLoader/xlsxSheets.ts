import fs from 'node:fs/promises'
import { Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import '../exceljsDecodeOnce.ts'
import { ServiceError } from '../errors.ts'
import { cellText } from '../dictionaryExchange/xlsx.ts'
import { layoutSheet } from './layout.ts'
import { cellName, type ReadEvent, type ReadLimits } from './readRows.ts'
import { InflateBudget } from '../inflateBudget.ts'
import { entryText, zipEntries, type ZipEntry } from './zipFile.ts'

/** The parts of exceljs' streaming reader that read one zip entry each (exceljs 4.4, pinned). */
interface ReaderParts {
  workbookRels?: { Id: string; Target: string }[]
  model?: { sheets?: { rId: string; name: string }[] }
  _parseRels(entry: Readable): Promise<void>
  _parseWorkbook(entry: Readable): Promise<void>
  _parseStyles(entry: Readable): Promise<void>
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>
  _parseWorksheet(text: AsyncIterable<string>, sheetNo: string): Iterable<{ value: AsyncIterable<ExcelJS.Row> }>
}

/** Cells holding a formula named before the file is refused: enough to show what is wrong. */
const formulasNamed = 5

/** The worksheets by the workbook's own order, with their names; `_layout` first so its mapping is known before any data. */
function sheetsOf(reader: ReaderParts, entries: Map<string, ZipEntry>): { name: string; entry: ZipEntry }[] {
  const out: { name: string; entry: ZipEntry }[] = []
  for (const s of reader.model?.sheets ?? []) {
    const target = reader.workbookRels?.find((r) => r.Id === s.rId)?.Target
    if (!target) continue
    const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`
    const entry = entries.get(path)
    if (entry) out.push({ name: s.name, entry })
  }
  return out.sort((a, b) => Number(b.name === layoutSheet) - Number(a.name === layoutSheet))
}

/**
 * Every worksheet of an xlsx on disk, row by row as ReadEvents, with exceljs' own entry parsers.
 *
 * exceljs' WorkbookReader reads the zip as a stream in file order, parks every sheet that comes
 * before the shared strings in a temporary file, and inflates without any bound. So the entries
 * are taken from the zip's directory in the order needed (relations, workbook, styles, shared
 * strings, then each sheet), each inflated under one InflateBudget for the whole workbook: no
 * temporary file, and a bomb is refused after at most limits.maxInflatedBytes.
 *
 * Styles are read ('cache') because without them Excel dates come back as serial numbers. A cell
 * holding a formula is refused: its cached result may be stale or missing, and a data upload
 * carries values; the first few such cells are named.
 */
export async function* xlsxSheets(path: string, limits: ReadLimits): AsyncGenerator<ReadEvent> {
  const fd = await fs.open(path)
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
      worksheets: 'emit',
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    }) as unknown as ReaderParts
    const budget = new InflateBudget({
      maxInflatedBytes: limits.maxInflatedBytes,
      maxCellChars: limits.maxCellChars,
      tooLarge: 'dataLoad.inflatedTooLarge',
      textTooLong: 'dataLoad.inflatedTextTooLong',
    })
    let sheets: { name: string; entry: ZipEntry }[]
    try {
      const entries = await zipEntries(fd)
      const text = (name: string) => {
        const e = entries.get(name)
        return e ? Readable.from(entryText(path, fd, e, budget)) : null
      }
      const rels = text('xl/_rels/workbook.xml.rels')
      if (rels) await reader._parseRels(rels)
      const book = text('xl/workbook.xml')
      if (book) await reader._parseWorkbook(book)
      const styles = text('xl/styles.xml')
      if (styles) await reader._parseStyles(styles)
      const shared = text('xl/sharedStrings.xml')
      if (shared) for await (const _ of reader._parseSharedStrings(shared));
      sheets = sheetsOf(reader, entries)
    } catch (err) {
      throw notXlsx(err)
    }
    // A zip without a worksheet (a .docx, an archive) is no workbook, whatever its name says.
    if (sheets.length === 0) throw new ServiceError('badRequest', 'dataLoad.notXlsx')
    let rowElements = 0
    for (const { name, entry } of sheets) {
      yield { sheet: name }
      const formulas: string[] = []
      const sheetNo = /(\d+)\.xml$/.exec(entry.name)?.[1] ?? '1'
      try {
        for (const { value: ws } of reader._parseWorksheet(entryText(path, fd, entry, budget), sheetNo)) {
          for await (const row of ws) {
            if (++rowElements > limits.maxRowElements)
              throw new ServiceError('tooLarge', 'dataLoad.tooManyRowElements', [limits.maxRowElements])
            const values = row.values as ExcelJS.CellValue[]
            // row.values is 1-based and sparse: index 0 is always empty.
            if (values.length - 1 > limits.maxColumns)
              throw new ServiceError('tooLarge', 'dataLoad.tooManyColumns', [name, limits.maxColumns])
            const cells = new Array<string>(Math.max(0, values.length - 1))
            for (let i = 1; i < values.length; i++) {
              const v = values[i]
              if (v !== null && typeof v === 'object' && ('formula' in v || 'sharedFormula' in v)) {
                formulas.push(cellName(name, i, row.number))
                if (formulas.length === formulasNamed) throw formulaRefusal(formulas)
              }
              cells[i - 1] = v instanceof Date ? cellText(v, row.getCell(i).numFmt) : cellText(v)
            }
            // Once a formula is seen nothing more is handed on: the file is refused at the sheet's end.
            if (formulas.length === 0) yield { row: row.number, cells }
          }
        }
      } catch (err) {
        throw notXlsx(err)
      }
      if (formulas.length) throw formulaRefusal(formulas)
    }
  } finally {
    await fd.close()
  }
}

const formulaRefusal = (cells: string[]) =>
  cells.length === 1
    ? new ServiceError('badRequest', 'dataLoad.formula', [cells[0]!])
    : new ServiceError('badRequest', 'dataLoad.formulas', [cells.join(', ')])

/** Our refusals pass; anything exceljs or the XML parser throws means the zip is no workbook we read. */
const notXlsx = (err: unknown) => (err instanceof ServiceError ? err : new ServiceError('badRequest', 'dataLoad.notXlsx'))
