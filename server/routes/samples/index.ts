import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { emptyEnvelope, envelope } from '../../../contract/envelope.ts'
import { idParams } from '../../../contract/ids.ts'
import {
  sample,
  sampleCreate,
  sampleListQuery,
  samplePage,
  sampleParams,
  sampleStatusInput,
  sampleTree,
  sampleUpdate,
} from '../../../contract/samples.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import {
  changeSampleStatus,
  createSample,
  deleteSample,
  getSample,
  listSamples,
  sampleTree as treeOf,
  updateSample,
} from '../../services/samples.ts'

/**
 * Samples of a project's research subjects (SPEC /sample/index) at contract/samples.ts
 * `samplePaths`; `:id` is the project, which the guard decides the action on.
 */

/** The session token may travel as `?token=` (plugins/auth.ts), so query schemas keep it. */
const token = { token: z.string().optional() }

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['samples']

  app.get(
    '/projects/:id/samples',
    {
      config: { action: 'subject.list' },
      schema: {
        tags,
        summary: 'One keyset page of the samples of the caller’s queues and centers, with the state of their sample CRFs',
        params: idParams,
        querystring: sampleListQuery.extend(token),
        response: { 200: envelope(samplePage) },
      },
    },
    async (req) => ok(req, await listSamples(app.ctx, actor(req), req.params.id, req.query)),
  )

  app.post(
    '/projects/:id/samples',
    {
      config: { action: 'subject.sampleWrite' },
      schema: {
        tags,
        summary: 'A sample of a research object (subjectId), or an aliquot of a sample (parentId)',
        params: idParams,
        body: sampleCreate,
        response: { 200: envelope(sample) },
      },
    },
    async (req) => ok(req, await createSample(app.ctx, actor(req), auditActor(req), req.params.id, req.body)),
  )

  app.get(
    '/projects/:id/samples/:sampleId',
    {
      config: { action: 'subject.read' },
      schema: { tags, summary: 'One sample', params: sampleParams, response: { 200: envelope(sample) } },
    },
    async (req) => ok(req, await getSample(app.ctx, actor(req), req.params.id, req.params.sampleId)),
  )

  app.put(
    '/projects/:id/samples/:sampleId',
    {
      config: { action: 'subject.sampleWrite' },
      schema: {
        tags,
        summary: 'Change a sample; a root’s type goes to its aliquots',
        params: sampleParams,
        body: sampleUpdate,
        response: { 200: envelope(sample) },
      },
    },
    async (req) => ok(req, await updateSample(app.ctx, actor(req), auditActor(req), req.params.id, req.params.sampleId, req.body)),
  )

  app.put(
    '/projects/:id/samples/:sampleId/status',
    {
      config: { action: 'subject.sampleWrite' },
      schema: {
        tags,
        summary: 'Available, used or destroyed (final, with a reason)',
        params: sampleParams,
        body: sampleStatusInput,
        response: { 200: envelope(sample) },
      },
    },
    async (req) => ok(req, await changeSampleStatus(app.ctx, actor(req), auditActor(req), req.params.id, req.params.sampleId, req.body)),
  )

  app.delete(
    '/projects/:id/samples/:sampleId',
    {
      config: { action: 'subject.sampleDelete' },
      schema: {
        tags,
        summary: 'Delete a sample without aliquots or sample CRF records',
        params: sampleParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteSample(app.ctx, actor(req), auditActor(req), req.params.id, req.params.sampleId)
      return done(req)
    },
  )

  app.get(
    '/projects/:id/samples/:sampleId/tree',
    {
      config: { action: 'subject.read' },
      schema: { tags, summary: 'The aliquot tree the sample belongs to', params: sampleParams, response: { 200: envelope(sampleTree) } },
    },
    async (req) => ok(req, await treeOf(app.ctx, actor(req), req.params.id, req.params.sampleId)),
  )
}

export default routes
