import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  dataLoaderPaths,
  downloadRecordPage,
  recordFileParams,
  recordFileQuery,
  recordsQuery,
  uploadRecordPage,
} from '../../../contract/dataLoader.ts'
import { envelope } from '../../../contract/envelope.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { downloadFile, downloadRecords, uploadFile, uploadRecords, uploadReport, type KeptFile } from '../../services/dataLoader/records.ts'
import { contentDisposition } from '../contentDisposition.ts'
import { contentTypeOf } from './files.ts'

/** The contract's paths are written 'api/…'; this plugin is registered under /api. */
const routeOf = (p: string) => '/' + p.replace(/^api\//, '')
/** A contract path of one record as a route with an `:id` parameter. */
const byId = (path: (id: number) => string) => routeOf(path(0)).replace('/0/', '/:id/')

/** The kept file under its original name, streamed. */
const sendKept = (reply: FastifyReply, file: KeptFile) =>
  reply
    .header('content-type', contentTypeOf(file.fileName))
    .header('content-disposition', contentDisposition(file.fileName))
    .header('content-length', file.size)
    .header('cache-control', 'no-store')
    .send(file.stream)

/** Data loading: getUploadRecord, getDownloadRecord and the kept files fetched again (contract/dataLoader.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['dataLoader']
  const config = { action: 'dataLoad.records' } as const

  app.get(
    routeOf(dataLoaderPaths.uploadRecords),
    {
      config,
      schema: {
        tags,
        summary: "The project's uploads, newest first (keyset pages): who, when, file, size, hash, rows, outcome, duration",
        querystring: recordsQuery,
        response: { 200: envelope(uploadRecordPage) },
      },
    },
    async (req) => ok(req, await uploadRecords(app.ctx, actor(req), req.query, req.lang)),
  )

  app.get(
    routeOf(dataLoaderPaths.downloadRecords),
    {
      config,
      schema: {
        tags,
        summary: "The project's downloads, newest first (keyset pages), with what each asked for in words",
        querystring: recordsQuery,
        response: { 200: envelope(downloadRecordPage) },
      },
    },
    async (req) => ok(req, await downloadRecords(app.ctx, actor(req), req.query, req.lang)),
  )

  const fileSchema = { tags, params: recordFileParams, querystring: recordFileQuery }

  app.get(
    byId(dataLoaderPaths.uploadFile),
    { config, schema: { ...fileSchema, summary: "An upload's original file, within the retention period (410 after)" } },
    async (req, reply) => sendKept(reply, await uploadFile(app.ctx, actor(req), auditActor(req), req.query.studyId, req.params.id)),
  )

  app.get(
    byId(dataLoaderPaths.uploadReport),
    { config, schema: { ...fileSchema, summary: "A refused upload's error report (xlsx), within the retention period (410 after)" } },
    async (req, reply) =>
      sendKept(reply, await uploadReport(app.ctx, actor(req), auditActor(req), req.query.studyId, req.params.id, req.lang)),
  )

  app.get(
    byId(dataLoaderPaths.downloadFile),
    { config, schema: { ...fileSchema, summary: "A download's file, within the retention period (410 after)" } },
    async (req, reply) => sendKept(reply, await downloadFile(app.ctx, actor(req), auditActor(req), req.query.studyId, req.params.id)),
  )
}

export default routes
