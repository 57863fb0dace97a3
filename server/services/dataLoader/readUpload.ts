import fs from 'node:fs/promises'
import { readCsv } from '../dictionaryExchange/csv.ts'
import { readXlsx } from '../dictionaryExchange/xlsx.ts'
import type { ReceivedFile, SheetBatch } from './model.ts'

/**
 * The rows of a received file, sheet by sheet in batches. This first version reads a CSV, or the
 * first sheet of a workbook, whole with the dictionary import's readers and their limits.
 */
export async function* readUpload(file: ReceivedFile): AsyncGenerator<SheetBatch> {
  const data = await fs.readFile(file.path)
  const table = file.container === 'xlsx' ? await readXlsx(data) : await readCsv(data)
  const batch = 1000
  for (let i = 0; i === 0 || i < table.rows.length; i += batch) {
    yield { sheet: '', ...(i === 0 ? { header: table.header } : {}), rows: table.rows.slice(i, i + batch) }
  }
}
