import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { emptyEnvelope, envelope } from '../../../contract/envelope.ts'
import { idParams } from '../../../contract/ids.ts'
import {
  openProjectList,
  openProjectQuery,
  optionalReasonInput,
  projectBaseUpdate,
  projectCreateInput,
  projectDetail,
  projectHistory,
  projectListQuery,
  projectPage,
} from '../../../contract/projects.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import {
  closeProject,
  createProject,
  deleteProject,
  getProject,
  listOpenProjects,
  listProjects,
  passProject,
  projectHistory as historyOf,
  submitProject,
  unpassProject,
  updateProjectBase,
} from '../../services/projects.ts'

/**
 * Research projects (issue 9) at contract/projects.ts projectPaths: the lists, the wizard's
 * create, the detail, the base tab, the audit flow, close and delete. Per-project routes name
 * the project `:id`, which the policy reads to decide on the caller's membership.
 */

/** The session token may travel as `?token=` (plugins/auth.ts), so query schemas keep it. */
const token = { token: z.string().optional() }
const detailResponse = envelope(projectDetail)

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['projects']

  app.get(
    '/projects',
    {
      config: { action: 'project.list' },
      schema: {
        tags,
        summary: 'One keyset page of the projects the caller may see',
        querystring: projectListQuery.extend(token),
        response: { 200: envelope(projectPage) },
      },
    },
    async (req) => ok(req, await listProjects(app.ctx, actor(req), req.query)),
  )

  app.get(
    '/projects/open',
    {
      config: { action: 'project.open' },
      schema: {
        tags,
        summary: 'Active projects the caller may apply to join',
        querystring: openProjectQuery.extend(token),
        response: { 200: envelope(openProjectList) },
      },
    },
    async (req) => ok(req, await listOpenProjects(app.ctx, actor(req), req.query.q)),
  )

  app.post(
    '/projects',
    {
      config: { action: 'project.create' },
      schema: {
        tags,
        summary: 'The wizard: project, queues, pinned forms and centers in one transaction',
        body: projectCreateInput,
        response: { 200: detailResponse },
      },
    },
    async (req) => ok(req, await createProject(app.ctx, actor(req), auditActor(req), req.body)),
  )

  app.get(
    '/projects/:id',
    {
      config: { action: 'project.read' },
      schema: {
        tags,
        summary: 'One project, its queues and centers within the caller’s scope',
        params: idParams,
        response: { 200: detailResponse },
      },
    },
    async (req) => ok(req, await getProject(app.ctx, actor(req), req.params.id)),
  )

  app.delete(
    '/projects/:id',
    {
      config: { action: 'project.delete' },
      schema: { tags, summary: 'Delete a project without research objects', params: idParams, response: { 200: emptyEnvelope } },
    },
    async (req) => {
      await deleteProject(app.ctx, auditActor(req), req.params.id)
      return done(req)
    },
  )

  app.put(
    '/projects/:id/base',
    {
      config: { action: 'project.update' },
      schema: { tags, summary: 'The base tab', params: idParams, body: projectBaseUpdate, response: { 200: detailResponse } },
    },
    async (req) => ok(req, await updateProjectBase(app.ctx, actor(req), auditActor(req), req.params.id, req.body)),
  )

  app.get(
    '/projects/:id/history',
    {
      config: { action: 'project.read' },
      schema: { tags, summary: 'The project’s audit log entries', params: idParams, response: { 200: envelope(projectHistory) } },
    },
    async (req) => ok(req, await historyOf(app.ctx, actor(req), req.params.id)),
  )

  app.post(
    '/projects/:id/submit',
    {
      config: { action: 'project.submit' },
      schema: { tags, summary: 'Draft → auditing', params: idParams, response: { 200: detailResponse } },
    },
    async (req) => ok(req, await submitProject(app.ctx, actor(req), auditActor(req), req.params.id)),
  )

  app.post(
    '/projects/:id/pass',
    {
      config: { action: 'project.approve' },
      schema: { tags, summary: 'Auditing → active', params: idParams, response: { 200: detailResponse } },
    },
    async (req) => ok(req, await passProject(app.ctx, actor(req), auditActor(req), req.params.id)),
  )

  app.post(
    '/projects/:id/unpass',
    {
      config: { action: 'project.approve' },
      // The reason is checked by the service, to answer with the flow's own message.
      schema: {
        tags,
        summary: 'Auditing → draft, with a reason',
        params: idParams,
        body: optionalReasonInput,
        response: { 200: detailResponse },
      },
    },
    async (req) => ok(req, await unpassProject(app.ctx, actor(req), auditActor(req), req.params.id, req.body.reason)),
  )

  app.post(
    '/projects/:id/close',
    {
      config: { action: 'project.close' },
      schema: { tags, summary: 'Active → closed', params: idParams, body: optionalReasonInput, response: { 200: detailResponse } },
    },
    async (req) => ok(req, await closeProject(app.ctx, actor(req), auditActor(req), req.params.id, req.body.reason)),
  )
}

export default routes
