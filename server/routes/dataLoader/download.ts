import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contentDisposition } from '../contentDisposition.ts'
import { dataLoaderPaths, downloadQuery } from '../../../contract/dataLoader.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { startDownload } from '../../services/dataLoader/download.ts'

/** The contract's paths are written 'api/…'; this plugin is registered under /api. */
const routeOf = (p: string) => '/' + p.replace(/^api\//, '')

/** Data loading: downloadData (contract/dataLoader.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    routeOf(dataLoaderPaths.download),
    {
      config: { action: 'dataLoad.download' },
      schema: {
        tags: ['dataLoader'],
        summary:
          "Download a project's entered data (the chosen CRFs, fields, queues, centers, visits) as xlsx in the upload layout, CSV (one table) or CDISC ODM 1.3.2; streamed, and recorded once sent",
        querystring: downloadQuery,
      },
    },
    async (req, reply) => {
      const file = await startDownload(app.ctx, actor(req), auditActor(req), { ...req.query, lang: req.query.lang ?? req.lang })
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('cache-control', 'no-store')
        .send(file.body)
    },
  )
}

export default routes
