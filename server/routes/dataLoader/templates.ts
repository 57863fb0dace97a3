import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { crfsQuery, dataLoaderPaths, loadableCrf, templateQuery } from '../../../contract/dataLoader.ts'
import { envelope } from '../../../contract/envelope.ts'
import { actor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { loadableCrfs } from '../../services/dataLoader/crfs.ts'
import { buildTemplate } from '../../services/dataLoader/template.ts'
import { contentDisposition } from '../contentDisposition.ts'
import { xlsxType } from './files.ts'

/** The contract's paths are written 'api/…'; this plugin is registered under /api. */
const routeOf = (p: string) => '/' + p.replace(/^api\//, '')

/** Data loading: getCrfByStudyId and downloadTemplate (contract/dataLoader.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['dataLoader']

  app.get(
    routeOf(dataLoaderPaths.crfs),
    {
      config: { action: 'dataLoad.crfs' },
      schema: {
        tags,
        summary:
          "The project's CRFs data can be loaded into or downloaded from (pinned versions, prepose CRFs first), with their mode and field counts",
        querystring: crfsQuery,
        response: { 200: envelope(loadableCrf.array()) },
      },
    },
    async (req) => ok(req, await loadableCrfs(app.ctx, req.query.studyId)),
  )

  app.get(
    routeOf(dataLoaderPaths.template),
    {
      config: { action: 'dataLoad.template' },
      schema: {
        tags,
        summary:
          'An xlsx template for one or several CRFs (templateIds=1,2): a sheet per CRF and per sub form, codes in row 1, labels (lang) in row 2, drop-down lists and notes',
        querystring: templateQuery,
      },
    },
    async (req, reply) => {
      const lang = req.query.lang ?? req.lang
      const file = await buildTemplate(app.ctx, actor(req), req.query, lang)
      return reply
        .header('content-type', xlsxType)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('cache-control', 'no-store')
        .send(file.body)
    },
  )
}

export default routes
