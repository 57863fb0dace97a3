import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { envelope } from '../../../contract/envelope.ts'
import { idParam, idParams } from '../../../contract/ids.ts'
import { duePage, dueListQuery, progressView, subjectSchedule, visitInput, visitPlan } from '../../../contract/followUp.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import {
  createVisit,
  deleteVisit,
  getProgress,
  getVisitPlan,
  listDue,
  subjectSchedule as scheduleOf,
  updateVisit,
} from '../../services/followUp.ts'

/**
 * Follow-up management and project progress, at contract/followUp.ts `followUpPaths`; `:id` is
 * the project, so the policy decides on the caller's membership of it.
 */
const visitParams = idParams.extend({ visitId: idParam })
const subjectParams = idParams.extend({ subjectId: idParam })
/** The session token may travel as `?token=` (plugins/auth.ts), so the query schema keeps it. */
const dueQuery = dueListQuery.extend({ token: z.string().optional() })

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['follow-up']
  const planResponse = envelope(visitPlan)

  app.get(
    '/projects/:id/visits',
    {
      config: { action: 'project.read' },
      schema: {
        tags,
        summary: 'The visit schedule and the follow-up CRFs a visit may collect',
        params: idParams,
        response: { 200: planResponse },
      },
    },
    async (req) => ok(req, await getVisitPlan(app.ctx, actor(req), req.params.id)),
  )

  app.post(
    '/projects/:id/visits',
    {
      config: { action: 'project.visitPlanUpdate' },
      schema: {
        tags,
        summary: 'Add a visit (name unique in the project, any case; pinned follow-up CRFs only)',
        params: idParams,
        body: visitInput,
        response: { 200: planResponse },
      },
    },
    async (req) => ok(req, await createVisit(app.ctx, actor(req), auditActor(req), req.params.id, req.body)),
  )

  app.put(
    '/projects/:id/visits/:visitId',
    {
      config: { action: 'project.visitPlanUpdate' },
      schema: { tags, summary: 'Change a visit', params: visitParams, body: visitInput, response: { 200: planResponse } },
    },
    async (req) => ok(req, await updateVisit(app.ctx, actor(req), auditActor(req), req.params.id, req.params.visitId, req.body)),
  )

  app.delete(
    '/projects/:id/visits/:visitId',
    {
      config: { action: 'project.visitPlanUpdate' },
      schema: {
        tags,
        summary: 'Delete a visit; refused while records were entered for it',
        params: visitParams,
        response: { 200: planResponse },
      },
    },
    async (req) => ok(req, await deleteVisit(app.ctx, actor(req), auditActor(req), req.params.id, req.params.visitId)),
  )

  app.get(
    '/projects/:id/subjects/:subjectId/visits',
    {
      config: { action: 'subject.followUp' },
      schema: {
        tags,
        summary: "A subject's planned visits with their windows and state; another center's subject is not found",
        params: subjectParams,
        response: { 200: envelope(subjectSchedule) },
      },
    },
    async (req) => ok(req, await scheduleOf(app.ctx, actor(req), req.params.id, req.params.subjectId)),
  )

  app.get(
    '/projects/:id/follow-up',
    {
      config: { action: 'subject.followUp' },
      schema: {
        tags,
        summary: 'One keyset page of the due or overdue visits, in visit then enrolment order, inside the caller’s centers and queues',
        params: idParams,
        querystring: dueQuery,
        response: { 200: envelope(duePage) },
      },
    },
    async (req) => {
      const { token: _token, ...q } = req.query
      return ok(req, await listDue(app.ctx, actor(req), req.params.id, q))
    },
  )

  app.get(
    '/projects/:id/progress',
    {
      config: { action: 'project.progress' },
      schema: {
        tags,
        summary: 'Enrolment against plan by month, center and queue, and CRF completion, inside the caller’s centers and queues',
        params: idParams,
        response: { 200: envelope(progressView) },
      },
    },
    async (req) => ok(req, await getProgress(app.ctx, actor(req), req.params.id)),
  )
}

export default routes
