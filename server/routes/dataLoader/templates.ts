import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'

/** Data loading: getCrfByStudyId and downloadTemplate (contract/dataLoader.ts). */
const routes: FastifyPluginAsyncZod = async () => {}

export default routes
