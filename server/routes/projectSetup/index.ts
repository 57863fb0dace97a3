import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { emptyEnvelope, envelope } from '../../../contract/envelope.ts'
import { idParam, idParams } from '../../../contract/ids.ts'
import { centersUpdate, formsUpdate, formUpgradeInput, projectDetail, queue, queueInput } from '../../../contract/projects.ts'
import { getProject } from '../../services/projects.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import { addQueue, deleteQueue, setProjectCenters, setProjectForms, updateQueue, upgradeProjectForm } from '../../services/projectSetup.ts'

/**
 * The edit tabs that set one part of a project (queue, index, center), at contract/projects.ts
 * `projectPaths`. `:id` is the project's id: the policy decides on the caller's membership of it.
 */
const queueParams = idParams.extend({ queueId: idParam })
const templateParams = idParams.extend({ templateId: idParam })

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['projects']
  const queueResponse = envelope(queue)
  const detailResponse = envelope(projectDetail)

  app.post(
    '/projects/:id/queues',
    {
      config: { action: 'project.update' },
      schema: {
        tags,
        summary: 'Add a queue (its key unique in the project, any case)',
        params: idParams,
        body: queueInput,
        response: { 200: queueResponse },
      },
    },
    async (req) => ok(req, await addQueue(app.ctx, actor(req), auditActor(req), req.params.id, req.body)),
  )

  app.put(
    '/projects/:id/queues/:queueId',
    {
      config: { action: 'project.update' },
      schema: { tags, summary: 'Edit a queue', params: queueParams, body: queueInput, response: { 200: queueResponse } },
    },
    async (req) => ok(req, await updateQueue(app.ctx, actor(req), auditActor(req), req.params.id, req.params.queueId, req.body)),
  )

  app.delete(
    '/projects/:id/queues/:queueId',
    {
      config: { action: 'project.update' },
      schema: {
        tags,
        summary: 'Delete a queue (refused while it holds research objects, and for the last queue)',
        params: queueParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteQueue(app.ctx, actor(req), auditActor(req), req.params.id, req.params.queueId)
      return done(req)
    },
  )

  app.put(
    '/projects/:id/centers',
    {
      config: { action: 'project.update' },
      schema: {
        tags,
        summary: "Replace the project's centers (from the directory; a center with research objects stays)",
        params: idParams,
        body: centersUpdate,
        response: { 200: detailResponse },
      },
    },
    async (req) => {
      await setProjectCenters(app.ctx, actor(req), auditActor(req), req.params.id, req.body.centerIds)
      return ok(req, await getProject(app.ctx, actor(req), req.params.id))
    },
  )

  app.put(
    '/projects/:id/forms',
    {
      config: { action: 'project.update' },
      schema: {
        tags,
        summary: 'Add, remove and reorder pinned CRFs and question groups (a pin changes version only by an upgrade)',
        params: idParams,
        body: formsUpdate,
        response: { 200: detailResponse },
      },
    },
    async (req) => {
      await setProjectForms(app.ctx, auditActor(req), req.params.id, req.body.forms)
      return ok(req, await getProject(app.ctx, actor(req), req.params.id))
    },
  )

  app.post(
    '/projects/:id/forms/:templateId/upgrade',
    {
      config: { action: 'project.update' },
      schema: {
        tags,
        summary: 'Move a pinned CRF or question group to a newer published version; logged with both versions',
        params: templateParams,
        body: formUpgradeInput,
        response: { 200: detailResponse },
      },
    },
    async (req) => {
      await upgradeProjectForm(app.ctx, auditActor(req), req.params.id, req.params.templateId, req.body.versionId)
      return ok(req, await getProject(app.ctx, actor(req), req.params.id))
    },
  )
}

export default routes
