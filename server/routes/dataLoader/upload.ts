import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'

/** Data loading: uploadFile (contract/dataLoader.ts). */
const routes: FastifyPluginAsyncZod = async () => {}

export default routes
