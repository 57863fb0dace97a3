import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  diseaseInput,
  diseaseListResponse,
  diseaseResponse,
  idParams,
  indicatorInput,
  indicatorListQuery,
  indicatorPageResponse,
  indicatorResponse,
  statusBody,
  timelineListResponse,
} from '../../../contract/dictionary.ts'
import { emptyEnvelope } from '../../../contract/envelope.ts'
import { message } from '../../i18n/messages.ts'
import { me, requireSession } from '../../plugins/auth.ts'
import type { Actor } from '../../services/audit.ts'
import { createDisease, deleteDisease, getDisease, listDiseases, listTimeline, updateDisease } from '../../services/diseases.ts'
import {
  IndicatorRuleError,
  createIndicator,
  deleteIndicator,
  describeProblems,
  getIndicator,
  listIndicators,
  setIndicatorStatus,
  updateIndicator,
} from '../../services/indicators.ts'

const actorOf = (req: FastifyRequest): Actor => {
  const { user } = me(req)
  return { userId: user.id, username: user.username, ip: req.ip }
}

/**
 * The data dictionary screens (SPEC §2 /dataDictionary): diseases, timeline items and
 * indicators, at the resource paths of contract/dictionary.ts `dictionaryPaths`.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  // Every route needs a session, checked before the input is validated: an anonymous caller
  // learns nothing about the shapes we accept (the order Outline's routes use, DESIGN §2).
  app.addHook('onRequest', requireSession)

  // A broken indicator rule names its field in the caller's language, which only the request
  // knows; the envelope is the one plugins/errors.ts answers for any ServiceError. Every other
  // failure is thrown on to that handler.
  app.setErrorHandler((err, req, reply) => {
    if (err instanceof IndicatorRuleError) {
      return reply
        .status(err.status)
        .type('application/json; charset=utf-8')
        .send({ code: err.code, msg: describeProblems(req.lang, err.problems), boolResult: false })
    }
    throw err
  })

  const ok = (req: FastifyRequest) => message(req.lang, 'ok')

  // --- Diseases (SPEC §3 Disease) and timeline items -------------------------------------------

  app.get(
    '/dictionary/diseases',
    { schema: { tags: ['dictionary'], summary: 'Diseases with their counts', response: { 200: diseaseListResponse } } },
    async (req) => ({ code: 0, msg: ok(req), data: await listDiseases(app.ctx) }),
  )

  app.get(
    '/dictionary/diseases/:id',
    { schema: { tags: ['dictionary'], summary: 'One disease', params: idParams, response: { 200: diseaseResponse } } },
    async (req) => ({ code: 0, msg: ok(req), data: await getDisease(app.ctx, req.params.id) }),
  )

  app.post(
    '/dictionary/diseases',
    { schema: { tags: ['dictionary'], summary: 'Create a disease', body: diseaseInput, response: { 200: diseaseResponse } } },
    async (req) => ({ code: 0, msg: ok(req), data: await createDisease(app.ctx, actorOf(req), req.body) }),
  )

  app.put(
    '/dictionary/diseases/:id',
    { schema: { tags: ['dictionary'], summary: 'Edit a disease', params: idParams, body: diseaseInput, response: { 200: diseaseResponse } } },
    async (req) => ({ code: 0, msg: ok(req), data: await updateDisease(app.ctx, actorOf(req), req.params.id, req.body) }),
  )

  app.delete(
    '/dictionary/diseases/:id',
    {
      schema: {
        tags: ['dictionary'],
        summary: 'Delete a disease (refused while projects refer to it; its indicators stay, without disease)',
        params: idParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteDisease(app.ctx, actorOf(req), req.params.id)
      return { code: 0, msg: ok(req), boolResult: true }
    },
  )

  app.get(
    '/dictionary/timeline',
    { schema: { tags: ['dictionary'], summary: 'Treatment-timeline items', response: { 200: timelineListResponse } } },
    async (req) => ({ code: 0, msg: ok(req), data: await listTimeline(app.ctx) }),
  )

  // --- Indicators (SPEC §3 Dictionary/index field) ---------------------------------------------

  app.get(
    '/dictionary/indicators',
    {
      schema: {
        tags: ['dictionary'],
        summary: 'Indicators: server-sorted, filtered, keyset-paged (pass `next` as `after`)',
        querystring: indicatorListQuery,
        response: { 200: indicatorPageResponse },
      },
    },
    async (req) => ({ code: 0, msg: ok(req), data: await listIndicators(app.ctx, req.query) }),
  )

  app.get(
    '/dictionary/indicators/:id',
    { schema: { tags: ['dictionary'], summary: 'One indicator', params: idParams, response: { 200: indicatorResponse } } },
    async (req) => ({ code: 0, msg: ok(req), data: await getIndicator(app.ctx, req.params.id) }),
  )

  app.post(
    '/dictionary/indicators',
    { schema: { tags: ['dictionary'], summary: 'Create an indicator', body: indicatorInput, response: { 200: indicatorResponse } } },
    async (req) => ({ code: 0, msg: ok(req), data: await createIndicator(app.ctx, actorOf(req), req.body) }),
  )

  app.put(
    '/dictionary/indicators/:id',
    {
      schema: { tags: ['dictionary'], summary: 'Edit an indicator', params: idParams, body: indicatorInput, response: { 200: indicatorResponse } },
    },
    async (req) => ({ code: 0, msg: ok(req), data: await updateIndicator(app.ctx, actorOf(req), req.params.id, req.body) }),
  )

  app.put(
    '/dictionary/indicators/:id/status',
    {
      schema: { tags: ['dictionary'], summary: 'Switch an indicator on or off', params: idParams, body: statusBody, response: { 200: indicatorResponse } },
    },
    async (req) => ({ code: 0, msg: ok(req), data: await setIndicatorStatus(app.ctx, actorOf(req), req.params.id, req.body.status) }),
  )

  app.delete(
    '/dictionary/indicators/:id',
    {
      schema: {
        tags: ['dictionary'],
        summary: 'Delete an indicator (refused while another depends on it or a form holds it)',
        params: idParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteIndicator(app.ctx, actorOf(req), req.params.id)
      return { code: 0, msg: ok(req), boolResult: true }
    },
  )
}

export default routes
