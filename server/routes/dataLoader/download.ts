import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'

/** Data loading: downloadData (contract/dataLoader.ts). */
const routes: FastifyPluginAsyncZod = async () => {}

export default routes
