import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { envelope } from '../../../contract/envelope.ts'
import { idParams } from '../../../contract/ids.ts'
import { enrolInput, enrolledSubject } from '../../../contract/subjects.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { enrolSubject } from '../../services/enrolment.ts'

/** Enrolment of research subjects, at contract/subjects.ts `subjectPaths`; `:id` is the project. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/projects/:id/subjects',
    {
      config: { action: 'subject.enrol' },
      schema: {
        tags: ['subjects'],
        summary: 'Enrol a subject after its queue checklist; randomized when the plan has a list; blinded callers get no group',
        params: idParams,
        body: enrolInput,
        response: { 200: envelope(enrolledSubject) },
      },
    },
    async (req) => ok(req, await enrolSubject(app.ctx, actor(req), auditActor(req), req.params.id, req.body)),
  )
}

export default routes
