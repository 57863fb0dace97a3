import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { dictionaryPaths } from '../../../contract/dictionary.ts'
import { exportQuery, importFailureResponse, importLimits, importQuery, importResponse } from '../../../contract/dictionaryExchange.ts'
import { message, type Lang, type MessageKey } from '../../i18n/messages.ts'
import { auditActor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { ServiceError } from '../../services/errors.ts'
import { exportDictionary } from '../../services/dictionaryExchange/exporter.ts'
import { importDictionary } from '../../services/dictionaryExchange/importer.ts'
import { ImportRejected, type Param } from '../../services/dictionaryExchange/model.ts'

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

/** The one file of the request, by its form field `file`, at most importLimits.maxBytes. */
async function upload(req: FastifyRequest): Promise<{ filename: string; data: Buffer }> {
  if (!req.isMultipart()) throw new ServiceError('badRequest', 'import.noFile')
  const part = await req.file()
  if (!part || part.fieldname !== 'file') {
    part?.file.resume()
    throw new ServiceError('badRequest', 'import.noFile')
  }
  try {
    return { filename: part.filename, data: await part.toBuffer() }
  } catch (err) {
    if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new ServiceError('tooLarge', 'import.tooLarge', [importLimits.maxBytes / 1024 / 1024])
    }
    throw err
  }
}

const routes: FastifyPluginAsyncZod = async (app) => {
  // Scoped to this plugin: only the import route parses multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: importLimits.maxBytes, files: 1, fields: 10, parts: 11 },
    throwFileSizeLimit: true,
  })

  app.post(
    routeOf(dictionaryPaths.import),
    {
      config: { action: 'dictionary.import' },
      schema: {
        tags: ['dictionary'],
        summary: 'Import a dictionary file (multipart field `file`): xlsx, CSV or a REDCap data dictionary; all or nothing',
        querystring: importQuery,
        response: { 200: importResponse, 400: importFailureResponse },
      },
    },
    async (req, reply) => {
      const { filename, data } = await upload(req)
      try {
        const r = await importDictionary(app.ctx, auditActor(req), { filename, data, format: req.query.format, diseaseId: req.query.diseaseId })
        const unmapped = r.unmapped.map((n) => ({ row: n.row, code: n.code, column: n.column, value: n.value, message: render(req.lang, n.key, n.params) }))
        return ok(req, { ...r, unmapped }, { key: 'import.done', params: [r.indicators, r.templates] })
      } catch (err) {
        if (!(err instanceof ImportRejected)) throw err
        const errors = err.problems.slice(0, importLimits.maxReported).map((p) => ({
          row: p.row,
          column: p.column,
          field: p.field,
          message: render(req.lang, p.key, p.params),
        }))
        // The toast shows msg: the count, then the first problems, each with its row.
        const first = errors.slice(0, 3).map((e) => message(req.lang, 'import.rowError', [e.row, `${e.column}: ${e.message}`]))
        const msg = [render(req.lang, err.key, err.params), ...first].join('; ')
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
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.body)
    },
  )
}

export default routes
