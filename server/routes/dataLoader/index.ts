import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import downloadRoutes from './download.ts'
import recordRoutes from './records.ts'
import templateRoutes from './templates.ts'
import uploadRoutes from './upload.ts'

/** The SPEC §7 api/scientific/dataloader calls, and the kept files of their records. */
const routes: FastifyPluginAsyncZod = async (app) => {
  await app.register(templateRoutes)
  await app.register(uploadRoutes)
  await app.register(downloadRoutes)
  await app.register(recordRoutes)
}

export default routes
