import fs from 'node:fs/promises'
import { Readable } from 'node:stream'
import { CsvError, parse } from 'csv-parse'
import { decodeText, sniffDelimiter } from '../dictionaryExchange/csv.ts'
import { ServiceError } from '../errors.ts'
import type { ReadEvent, ReadLimits } from './readRows.ts'

/** A record longer than this is refused before csv-parse splits it: a one-line file of 64 MB is no table. */
const maxRecordChars = 16 * 1024 * 1024

function* chunks(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size)
}

/**
 * A CSV as one sheet named '', record by record. It is decoded by content as the dictionary import
 * does (UTF-8 with or without BOM, GBK, UTF-16: the whole file at once, at most
 * dataLoadLimits.maxBytes, so a multi-byte character is never split), then parsed as a stream.
 * Rows are numbered by record as a spreadsheet shows them (a quoted cell with line breaks is one row).
 */
export async function* csvRows(path: string, limits: ReadLimits): AsyncGenerator<ReadEvent> {
  const { text } = decodeText(await fs.readFile(path))
  const parser = Readable.from(chunks(text, 64 * 1024)).pipe(
    parse({
      delimiter: sniffDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      max_record_size: Math.min(maxRecordChars, limits.maxColumns * (limits.maxCellChars + 3)),
    }),
  )
  yield { sheet: '' }
  let n = 0
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      n += 1
      yield { row: n, cells: record }
    }
  } catch (err) {
    if (err instanceof CsvError && err.code === 'CSV_MAX_RECORD_SIZE') throw new ServiceError('tooLarge', 'dataLoad.rowTooLong', [n + 1])
    if (err instanceof CsvError) {
      // The parser may fail ahead of the records taken so far: its own count says where.
      const row = typeof err.records === 'number' ? err.records + 1 : n + 1
      throw new ServiceError('badRequest', err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'dataLoad.csvQuote' : 'dataLoad.badCsv', [row])
    }
    throw err
  } finally {
    parser.destroy()
  }
}
