import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'

/** Data loading: getUploadRecord, getDownloadRecord and the kept files fetched again (contract/dataLoader.ts). */
const routes: FastifyPluginAsyncZod = async () => {}

export default routes
