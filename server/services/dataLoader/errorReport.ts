import crypto from 'node:crypto'
import { createWriteStream } from 'node:fs'
import fs from 'node:fs/promises'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { CellError } from '../../../contract/dataLoader.ts'
import type { Lang } from '../../../contract/formValues.ts'
import { message } from '../../i18n/messages.ts'
import type { ServiceContext } from '../context.ts'
import { xlsxStream, type XlsxCell } from '../dictionaryExchange/xlsx.ts'
import { keepFile, tmpPath } from './loadFiles.ts'

/**
 * The error report of a refused upload: one xlsx sheet, a line per bad cell (sheet, row, column,
 * value, message in the caller's language), written by the streaming writer into a temporary
 * file while hashed, then kept under its hash. Answers the hash.
 */
export async function writeErrorReport(ctx: ServiceContext, lang: Lang, errors: readonly CellError[]): Promise<string> {
  const header = (['sheet', 'row', 'column', 'value', 'message'] as const).map((k) => message(lang, `dataLoad.report.${k}`))
  async function* lines(): AsyncGenerator<XlsxCell[]> {
    for (const e of errors) yield [e.sheet, e.row, e.column, e.value, e.message]
  }
  const hash = crypto.createHash('sha256')
  const tmp = await tmpPath(ctx, 'report')
  try {
    await pipeline(
      xlsxStream(message(lang, 'dataLoad.report.title'), header, lines()),
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk)
          done(null, chunk)
        },
      }),
      createWriteStream(tmp),
    )
    const sha = hash.digest('hex')
    await keepFile(ctx, tmp, sha)
    return sha
  } finally {
    await fs.rm(tmp, { force: true })
  }
}
