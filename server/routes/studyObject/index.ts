import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { buttonAuthorityResponse, studyObjectPaths } from '../../../contract/studyObject.ts'
import { actor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { buttonAuthority } from '../../services/buttonAuthority.ts'

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `/${studyObjectPaths.buttonAuthority.slice('api/'.length)}`,
    {
      config: { action: 'subject.buttonAuthority' },
      schema: {
        tags: ['studyObject'],
        summary: 'The research-object buttons the caller may use (SPEC §7), from their role grants',
        querystring: z.object({ token: z.string().max(256).optional() }),
        response: { 200: buttonAuthorityResponse },
      },
    },
    async (req) => ok(req, buttonAuthority(actor(req))),
  )
}

export default routes
