import { fileTypeFromBuffer } from 'file-type'
import type { ExchangeFormat } from '../../../contract/dictionaryExchange.ts'
import { ServiceError } from '../errors.ts'

export type Container = 'xlsx' | 'csv'

/** Bytes that never occur in a text file (NUL), looked for in the head of a file without a UTF-16 BOM. */
function looksBinary(data: Buffer): boolean {
  const head = data.subarray(0, 64 * 1024)
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return false
  return head.includes(0)
}

/**
 * What the upload is, by its bytes, never by its name or the browser's MIME type: an .xlsx that is
 * no xlsx, or a picture renamed .csv, is refused before any parser sees it. The name and the
 * requested format only say what was expected, which makes the refusal precise.
 */
export async function detectContainer(data: Buffer, filename: string, requested: ExchangeFormat | undefined): Promise<Container> {
  if (data.length === 0) throw new ServiceError('badRequest', 'import.empty')
  const sniffed = await fileTypeFromBuffer(data)
  const expectsXlsx = requested === 'xlsx' || /\.xlsx$/i.test(filename)
  if (sniffed?.ext === 'xlsx') {
    // The user asked for a CSV and sent a workbook: say what it is rather than guess.
    if (requested === 'csv') throw new ServiceError('badRequest', 'import.badFile', ['xlsx'])
    return 'xlsx'
  }
  // Some writers order the zip so that file-type sees only 'zip': exceljs, which reads the
  // entries, decides (readXlsx refuses a zip without a worksheet as no xlsx).
  if (sniffed?.ext === 'zip' && expectsXlsx) return 'xlsx'
  if (expectsXlsx) throw new ServiceError('badRequest', 'import.notXlsx')
  if (sniffed) throw new ServiceError('badRequest', 'import.badFile', [sniffed.ext])
  if (looksBinary(data)) throw new ServiceError('badRequest', 'import.badFile', ['binary'])
  return 'csv'
}
