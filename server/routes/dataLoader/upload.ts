import fs from 'node:fs/promises'
import multipart from '@fastify/multipart'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { dataLoaderPaths, uploadQuery, uploadResult } from '../../../contract/dataLoader.ts'
import { message } from '../../i18n/messages.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { receiveUpload, uploadMultipart } from '../../services/dataLoader/receiveUpload.ts'
import { warmReader } from '../../services/dataLoader/readUpload.ts'
import { uploadData } from '../../services/dataLoader/upload.ts'

/** The contract's paths are written 'api/…'; this plugin is registered under /api. */
const routeOf = (p: string) => '/' + p.replace(/^api\//, '')

const refusedResponse = z.object({ code: z.number(), msg: z.string(), boolResult: z.boolean(), data: uploadResult })

/** Data loading: uploadFile (contract/dataLoader.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  // Scoped to this plugin: only the upload route parses multipart bodies.
  await app.register(multipart, uploadMultipart)
  // The reader thread takes seconds to load its modules: started with the server, not on the first upload.
  void warmReader().catch(() => {})

  app.post(
    routeOf(dataLoaderPaths.upload),
    {
      config: { action: 'dataLoad.upload' },
      schema: {
        tags: ['dataLoader'],
        summary:
          'Upload data (multipart field `file`, xlsx or CSV): every cell checked by the entry rules, written all or nothing in one transaction. A re-upload of the same content answers 409 unless again=true; bad cells answer 400 with each one named and an error report',
        querystring: uploadQuery,
        response: { 400: refusedResponse.or(z.unknown()) },
      },
    },
    async (req, reply) => {
      // Given the reply, an oversize body ends the connection with the answer.
      const file = await receiveUpload(app.ctx, req, reply)
      try {
        const answer = await uploadData(app.ctx, actor(req), auditActor(req), req.lang, req.query, file)
        if (answer.loaded) return ok(req, answer.result, { key: answer.say.key, params: answer.say.params })
        // Refused by cells: the dialog lists them; msg says how many and that nothing was written.
        const msg = message(req.lang, answer.say.key, answer.say.params)
        return reply.status(400).send({ code: 400, msg, boolResult: false, data: answer.result })
      } finally {
        await fs.rm(file.path, { force: true })
      }
    },
  )
}

export default routes
