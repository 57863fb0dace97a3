import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  buttonAuthorityResponse,
  studyCenterListResponse,
  studyCenterQuery,
  studyGroupListResponse,
  studyGroupQuery,
  studyObjectPaths,
} from '../../../contract/studyObject.ts'
import { idParam } from '../../../contract/ids.ts'
import { actor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { projectButtonAuthority } from '../../services/subjectList.ts'
import { studyCenterList, studyGroupList } from '../../services/projectMembers.ts'

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `/${studyObjectPaths.buttonAuthority.slice('api/'.length)}`,
    {
      config: { action: 'subject.buttonAuthority' },
      schema: {
        tags: ['studyObject'],
        summary:
          'The research-object buttons the caller may use (SPEC §7): in the project studyId from their project role, else from their role grants',
        querystring: z.object({ token: z.string().max(256).optional(), studyId: idParam.optional() }),
        response: { 200: buttonAuthorityResponse },
      },
    },
    async (req) => ok(req, projectButtonAuthority(actor(req), req.query.studyId)),
  )

  app.get(
    `/${studyObjectPaths.groupList.slice('api/'.length)}`,
    {
      config: { action: 'subject.groupList' },
      schema: {
        tags: ['studyObject'],
        summary: "The queues of the project studyId that the caller's project role grants (SPEC §7)",
        querystring: studyGroupQuery,
        response: { 200: studyGroupListResponse },
      },
    },
    async (req) => ok(req, await studyGroupList(app.ctx, actor(req), req.query.studyId)),
  )

  app.get(
    `/${studyObjectPaths.centerList.slice('api/'.length)}`,
    {
      config: { action: 'subject.centerList' },
      schema: {
        tags: ['studyObject'],
        summary: "The centers of the project studyId that the caller's project role grants (SPEC §7)",
        querystring: studyCenterQuery,
        response: { 200: studyCenterListResponse },
      },
    },
    async (req) => ok(req, await studyCenterList(app.ctx, actor(req), req.query.studyId, req.query.centerId)),
  )
}

export default routes
