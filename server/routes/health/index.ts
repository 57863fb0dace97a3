import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { emptyEnvelope } from '../../../contract/envelope.ts'
import { ok } from '../../plugins/envelope.ts'

/** Liveness for load balancers, and the bare route the benchmarks compare against. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: { tags: ['system'], summary: 'Liveness', querystring: z.object({}), response: { 200: emptyEnvelope } },
    },
    async (req) => ok(req),
  )
}

export default routes
