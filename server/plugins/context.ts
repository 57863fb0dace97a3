import fp from 'fastify-plugin'
import type { ServiceContext } from '../services/context.ts'

declare module 'fastify' {
  interface FastifyInstance {
    ctx: ServiceContext
  }
}

/** Makes the service context (database, clock, policy) reachable from every route. */
export default fp<{ ctx: ServiceContext }>(async (app, opts) => {
  app.decorate('ctx', opts.ctx)
})
