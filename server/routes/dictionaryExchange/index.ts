import multipart, { type MultipartFile } from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contentDisposition } from '../contentDisposition.ts'
import { dictionaryPaths } from '../../../contract/dictionary.ts'
import { exportQuery, importFailureResponse, importLimits, importQuery, importResponse } from '../../../contract/dictionaryExchange.ts'
import { message, type Lang, type MessageKey } from '../../i18n/messages.ts'
import { auditActor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { ServiceError } from '../../services/errors.ts'
import { onlyFile } from '../../services/onlyFile.ts'
import { exportDictionary } from '../../services/dictionaryExchange/exporter.ts'
import { importDictionary } from '../../services/dictionaryExchange/importer.ts'
import { ImportRejected, type Param, type RowProblem } from '../../services/dictionaryExchange/model.ts'

/** The contract's paths are written 'api/…'; this plugin is registered under /api. */
const routeOf = (p: string) => '/' + p.replace(/^api\//, '')

/** A message whose field parameters are rendered as the field's label in the caller's language. */
function render(lang: Lang, key: MessageKey, params: readonly Param[]): string {
  return message(
    lang,
    key,
    params.map((p) => (typeof p === 'object' ? message(lang, `indicatorField.${p.label}`) : p)),
  )
}

const rowError = (lang: Lang, p: RowProblem) => ({ row: p.row, column: p.column, field: p.field, message: render(lang, p.key, p.params) })

/**
 * The one file of the request, by its form field `file`, at most importLimits.maxBytes. busboy
 * stops a file at the limit and only flags it `truncated`, sometimes after the last chunk was
 * already read: the flag is checked on every chunk and once more at the end, so a cut file is
 * always refused whole, never imported as far as it got.
 */
function upload(req: FastifyRequest): Promise<{ filename: string; data: Buffer }> {
  return onlyFile(req, 'import.noFile', readImport)
}

async function readImport(part: MultipartFile): Promise<{ filename: string; data: Buffer }> {
  const tooLarge = () => new ServiceError('tooLarge', 'import.tooLarge', [importLimits.maxBytes / 1024 / 1024])
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length
    if (part.file.truncated || size > importLimits.maxBytes) throw tooLarge()
    chunks.push(chunk)
  }
  if (part.file.truncated) throw tooLarge()
  return { filename: part.filename, data: Buffer.concat(chunks, size) }
}

const routes: FastifyPluginAsyncZod = async (app) => {
  // Scoped to this plugin: only the import route parses multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: importLimits.maxBytes, files: 1, fields: 10, parts: 11 },
    throwFileSizeLimit: false,
  })

  app.post(
    routeOf(dictionaryPaths.import),
    {
      config: { action: 'dictionary.import' },
      schema: {
        tags: ['dictionary'],
        summary:
          'Import a dictionary file (multipart field `file`): xlsx, CSV or a REDCap data dictionary; all or nothing. mode=upsert updates codes already here; dryRun=true previews and writes nothing',
        querystring: importQuery,
        response: { 200: importResponse, 400: importFailureResponse },
      },
    },
    async (req, reply) => {
      // The rest of an oversize body is not worth reading: the connection ends with the answer.
      const { filename, data } = await upload(req).catch((err: unknown) => {
        if (err instanceof ServiceError && err.kind === 'tooLarge') void reply.header('connection', 'close')
        throw err
      })
      try {
        const { format, diseaseId, mode, dryRun } = req.query
        const r = await importDictionary(app.ctx, auditActor(req), { filename, data, format, diseaseId, mode, dryRun })
        const unmapped = r.unmapped.map((n) => ({
          row: n.row,
          code: n.code,
          column: n.column,
          value: n.value,
          message: render(req.lang, n.key, n.params),
        }))
        const key = dryRun
          ? ({ key: 'import.preview', params: [r.added, r.changed, r.unchanged, r.errorsTotal] } as const)
          : mode === 'upsert'
            ? ({ key: 'import.doneUpsert', params: [r.added, r.changed, r.unchanged, r.templates] } as const)
            : ({ key: 'import.done', params: [r.indicators, r.templates] } as const)
        return ok(req, { ...r, unmapped, errors: r.errors.map((p) => rowError(req.lang, p)) }, key)
      } catch (err) {
        if (!(err instanceof ImportRejected)) throw err
        const errors = err.problems.slice(0, importLimits.maxReported).map((p) => rowError(req.lang, p))
        // The dialog lists the rows: msg only says how many and that nothing was written.
        const msg = err.params[0] === 1 ? message(req.lang, 'import.failedOne') : render(req.lang, err.key, err.params)
        return reply.status(400).send({ code: 400, msg, boolResult: false, data: { errors, total: err.problems.length } })
      }
    },
  )

  app.get(
    routeOf(dictionaryPaths.export),
    {
      config: { action: 'dictionary.export' },
      schema: {
        tags: ['dictionary'],
        summary: 'Export the dictionary as a file: xlsx, CSV (UTF-8 with BOM) or a REDCap data dictionary CSV',
        querystring: exportQuery,
      },
    },
    async (req, reply) => {
      const file = await exportDictionary(app.ctx, auditActor(req), req.query)
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.filename))
        .header('cache-control', 'no-store')
        .send(file.body)
    },
  )
}

export default routes
