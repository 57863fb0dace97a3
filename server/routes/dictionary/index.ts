import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  diseaseInput,
  diseaseListResponse,
  diseaseResponse,
  indicatorInput,
  indicatorListQuery,
  indicatorPageResponse,
  indicatorResponse,
  statusBody,
  timelineListResponse,
} from '../../../contract/dictionary.ts'
import { emptyEnvelope } from '../../../contract/envelope.ts'
import { idParams } from '../../../contract/ids.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import { listScope } from '../../services/policy.ts'
import { createDisease, deleteDisease, getDisease, listDiseases, listTimeline, updateDisease } from '../../services/diseases.ts'
import {
  createIndicator,
  deleteIndicator,
  getIndicator,
  listIndicators,
  setIndicatorStatus,
  updateIndicator,
} from '../../services/indicators.ts'

/**
 * The data dictionary screens (SPEC §2 /dataDictionary): diseases, timeline items and
 * indicators, at the resource paths of contract/dictionary.ts `dictionaryPaths`.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  // --- Diseases (SPEC §3 Disease) and timeline items -------------------------------------------

  app.get(
    '/dictionary/diseases',
    {
      config: { action: 'disease.list' },
      schema: { tags: ['dictionary'], summary: 'Diseases with their counts', response: { 200: diseaseListResponse } },
    },
    async (req) => ok(req, await listDiseases(app.ctx)),
  )

  app.get(
    '/dictionary/diseases/:id',
    {
      config: { action: 'disease.read' },
      schema: { tags: ['dictionary'], summary: 'One disease', params: idParams, response: { 200: diseaseResponse } },
    },
    async (req) => ok(req, await getDisease(app.ctx, req.params.id)),
  )

  app.post(
    '/dictionary/diseases',
    {
      config: { action: 'disease.create' },
      schema: { tags: ['dictionary'], summary: 'Create a disease', body: diseaseInput, response: { 200: diseaseResponse } },
    },
    async (req) => ok(req, await createDisease(app.ctx, auditActor(req), req.body)),
  )

  app.put(
    '/dictionary/diseases/:id',
    {
      config: { action: 'disease.update' },
      schema: { tags: ['dictionary'], summary: 'Edit a disease', params: idParams, body: diseaseInput, response: { 200: diseaseResponse } },
    },
    async (req) => ok(req, await updateDisease(app.ctx, auditActor(req), req.params.id, req.body)),
  )

  app.delete(
    '/dictionary/diseases/:id',
    {
      config: { action: 'disease.delete' },
      schema: {
        tags: ['dictionary'],
        summary: 'Delete a disease (refused while projects refer to it; its indicators stay, without disease)',
        params: idParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteDisease(app.ctx, auditActor(req), req.params.id)
      return done(req)
    },
  )

  app.get(
    '/dictionary/timeline',
    {
      config: { action: 'timeline.list' },
      schema: { tags: ['dictionary'], summary: 'Treatment-timeline items', response: { 200: timelineListResponse } },
    },
    async (req) => ok(req, await listTimeline(app.ctx)),
  )

  // --- Indicators (SPEC §3 Dictionary/index field) ---------------------------------------------

  app.get(
    '/dictionary/indicators',
    {
      config: { action: 'indicator.list' },
      schema: {
        tags: ['dictionary'],
        summary: 'Indicators: server-sorted, filtered, keyset-paged (pass `next` as `after`)',
        querystring: indicatorListQuery,
        response: { 200: indicatorPageResponse },
      },
    },
    async (req) => ok(req, await listIndicators(app.ctx, req.query, listScope(actor(req), 'indicator.list'))),
  )

  app.get(
    '/dictionary/indicators/:id',
    {
      config: { action: 'indicator.read' },
      schema: { tags: ['dictionary'], summary: 'One indicator', params: idParams, response: { 200: indicatorResponse } },
    },
    async (req) => ok(req, await getIndicator(app.ctx, req.params.id)),
  )

  app.post(
    '/dictionary/indicators',
    {
      config: { action: 'indicator.create' },
      schema: { tags: ['dictionary'], summary: 'Create an indicator', body: indicatorInput, response: { 200: indicatorResponse } },
    },
    async (req) => ok(req, await createIndicator(app.ctx, auditActor(req), req.body)),
  )

  app.put(
    '/dictionary/indicators/:id',
    {
      config: { action: 'indicator.update' },
      schema: {
        tags: ['dictionary'],
        summary: 'Edit an indicator',
        params: idParams,
        body: indicatorInput,
        response: { 200: indicatorResponse },
      },
    },
    async (req) => ok(req, await updateIndicator(app.ctx, auditActor(req), req.params.id, req.body)),
  )

  app.put(
    '/dictionary/indicators/:id/status',
    {
      config: { action: 'indicator.update' },
      schema: {
        tags: ['dictionary'],
        summary: 'Switch an indicator on or off',
        params: idParams,
        body: statusBody,
        response: { 200: indicatorResponse },
      },
    },
    async (req) => ok(req, await setIndicatorStatus(app.ctx, auditActor(req), req.params.id, req.body.status)),
  )

  app.delete(
    '/dictionary/indicators/:id',
    {
      config: { action: 'indicator.delete' },
      schema: {
        tags: ['dictionary'],
        summary: 'Delete an indicator (refused while another depends on it or a form holds it)',
        params: idParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteIndicator(app.ctx, auditActor(req), req.params.id)
      return done(req)
    },
  )
}

export default routes
