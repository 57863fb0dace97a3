import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { emptyEnvelope, envelope } from '../../../contract/envelope.ts'
import { idParams } from '../../../contract/ids.ts'
import { center, centerInput, centerListQuery, centerPage } from '../../../contract/projects.ts'
import { auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import { createCenter, deleteCenter, listCenters, updateCenter } from '../../services/centers.ts'

/** The center directory (SPEC §3 Center) at contract/projects.ts `projectPaths.centerDirectory`. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['centers']
  const centerResponse = envelope(center)

  app.get(
    '/centers',
    {
      config: { action: 'center.list' },
      schema: {
        tags,
        summary: 'Centers by name, keyset-paged (pass `next` as `after`); q: prefix of the code or either name',
        querystring: centerListQuery,
        response: { 200: envelope(centerPage) },
      },
    },
    async (req) => ok(req, await listCenters(app.ctx, req.query)),
  )

  app.post(
    '/centers',
    {
      config: { action: 'center.create' },
      schema: { tags, summary: 'Add a center to the directory', body: centerInput, response: { 200: centerResponse } },
    },
    async (req) => ok(req, await createCenter(app.ctx, auditActor(req), req.body)),
  )

  app.put(
    '/centers/:id',
    {
      config: { action: 'center.update' },
      schema: { tags, summary: 'Edit a center', params: idParams, body: centerInput, response: { 200: centerResponse } },
    },
    async (req) => ok(req, await updateCenter(app.ctx, auditActor(req), req.params.id, req.body)),
  )

  app.delete(
    '/centers/:id',
    {
      config: { action: 'center.delete' },
      schema: {
        tags,
        summary: 'Delete a center (refused while a project uses it)',
        params: idParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteCenter(app.ctx, auditActor(req), req.params.id)
      return done(req)
    },
  )
}

export default routes
