import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { emptyEnvelope } from '../../../contract/envelope.ts'

/** Liveness for load balancers, and the bare route the benchmarks compare against. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { tags: ['system'], summary: 'Liveness', querystring: z.object({}), response: { 200: emptyEnvelope } } },
    async () => ({ code: 0, msg: 'ok' }),
  )
}

export default routes
