import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { envelope } from '../../../contract/envelope.ts'
import { idParams } from '../../../contract/ids.ts'
import { allocationListQuery, allocationPage, planInput, planView } from '../../../contract/randomization.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { generateList, getPlan, listAllocations, savePlan } from '../../services/randomization/plan.ts'

/**
 * A project's randomization plan and allocation list (config tab), at contract/randomization.ts
 * randomizationPaths; `:id` is the project.
 */

/** The session token may travel as `?token=` (plugins/auth.ts), so the query schema keeps it. */
const listQuery = allocationListQuery.extend({ token: z.string().optional() })
const planResponse = envelope(planView)

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['randomization']

  app.get(
    '/projects/:id/randomization',
    {
      config: { action: 'project.randomizationRead' },
      schema: {
        tags,
        summary: 'The randomization plan; blinded members get the method only',
        params: idParams,
        response: { 200: planResponse },
      },
    },
    async (req) => ok(req, await getPlan(app.ctx, actor(req), req.params.id)),
  )

  app.put(
    '/projects/:id/randomization',
    {
      config: { action: 'project.randomizationUpdate' },
      schema: {
        tags,
        summary: 'Replace the plan (drops a generated list); refused once a subject is randomized',
        params: idParams,
        body: planInput,
        response: { 200: planResponse },
      },
    },
    async (req) => ok(req, await savePlan(app.ctx, auditActor(req), req.params.id, req.body)),
  )

  app.post(
    '/projects/:id/randomization/generate',
    {
      config: { action: 'project.randomizationUpdate' },
      schema: {
        tags,
        summary: 'Generate the allocation list from the stored seed; refused once a subject is randomized',
        params: idParams,
        response: { 200: planResponse },
      },
    },
    async (req) => ok(req, await generateList(app.ctx, auditActor(req), req.params.id)),
  )

  app.get(
    '/projects/:id/randomization/list',
    {
      config: { action: 'project.randomizationRead' },
      schema: {
        tags,
        summary: 'One keyset page of the allocation list; only for those who may change the plan',
        params: idParams,
        querystring: listQuery,
        response: { 200: envelope(allocationPage) },
      },
    },
    async (req) => {
      const { stratum, after, limit } = req.query
      return ok(req, await listAllocations(app.ctx, actor(req), req.params.id, { stratum, after, limit }))
    },
  )
}

export default routes
