import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  generateQuery,
  generateStateResponse,
  layout,
  templateInput,
  templateKinds,
  templateListQuery,
  templateListResponse,
  templateResponse,
  templateVersionResponse,
  versionInfo,
} from '../../../contract/crf.ts'
import { emptyEnvelope, envelope } from '../../../contract/envelope.ts'
import { idParam, idParams } from '../../../contract/ids.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import { listScope } from '../../services/policy.ts'
import {
  createTemplate,
  deleteTemplate,
  generateStateOf,
  getLayout,
  getTemplate,
  getVersion,
  listTemplates,
  listVersions,
  publishTemplate,
  saveLayout,
  updateTemplate,
} from '../../services/templates.ts'

/**
 * CRF and question-group templates (SPEC §2 /templateManage, /dataDictionary crf-template and
 * subject-template) at the resource paths of contract/crf.ts templatePaths, plus the SPEC §7
 * generate-to-DB calls, which check and publish a template by the id in the query.
 */

/**
 * Schemas that replace the query also drop what they do not name; the session token may travel
 * as `?token=` (plugins/auth.ts tokenOf), so the query schemas keep it.
 */
const token = { token: z.string().optional() }
const listQuery = templateListQuery.extend(token)
const idQuery = generateQuery.extend(token)
const versionParams = idParams.extend({ version: idParam })
/** A create names its kind; the kind never changes afterwards, so the update body has none. */
const createBody = templateInput.extend({ kind: z.enum(templateKinds).default('crf') })
const versionListResponse = envelope(z.array(versionInfo))

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['templates']

  app.get(
    '/templates',
    {
      config: { action: 'template.list' },
      schema: { tags, summary: 'CRFs or question groups, by name', querystring: listQuery, response: { 200: templateListResponse } },
    },
    async (req) => {
      const { kind, q, collectType } = req.query
      return ok(req, await listTemplates(app.ctx, { kind, q, collectType }, listScope(actor(req), 'template.list')))
    },
  )

  app.post(
    '/templates',
    {
      config: { action: 'template.create' },
      schema: {
        tags,
        summary: 'New CRF or question group, with an empty draft version 1',
        body: createBody,
        response: { 200: templateResponse },
      },
    },
    async (req) => {
      const { kind, ...input } = req.body
      return ok(req, await createTemplate(app.ctx, auditActor(req), kind, input))
    },
  )

  app.get(
    '/templates/:id',
    {
      config: { action: 'template.read' },
      schema: { tags, summary: 'One template', params: idParams, response: { 200: templateResponse } },
    },
    async (req) => ok(req, await getTemplate(app.ctx, req.params.id)),
  )

  app.put(
    '/templates/:id',
    {
      config: { action: 'template.update' },
      schema: {
        tags,
        summary: 'Replace name, description, collect type, prepose CRFs and status',
        params: idParams,
        body: templateInput,
        response: { 200: templateResponse },
      },
    },
    async (req) => ok(req, await updateTemplate(app.ctx, auditActor(req), req.params.id, req.body)),
  )

  app.delete(
    '/templates/:id',
    {
      config: { action: 'template.delete' },
      schema: {
        tags,
        summary: 'Delete a template with its versions; refused while any version places an indicator',
        params: idParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteTemplate(app.ctx, auditActor(req), req.params.id)
      return done(req)
    },
  )

  app.get(
    '/templates/:id/layout',
    {
      config: { action: 'template.read' },
      schema: {
        tags,
        summary: 'The draft (else the latest published version) with its layout and indicators',
        params: idParams,
        response: { 200: templateVersionResponse },
      },
    },
    async (req) => ok(req, await getLayout(app.ctx, req.params.id)),
  )

  app.put(
    '/templates/:id/layout',
    {
      config: { action: 'template.update' },
      schema: {
        tags,
        summary: 'Write a layout into the draft; after a publication this starts the next version',
        params: idParams,
        body: layout,
        response: { 200: templateVersionResponse },
      },
    },
    async (req) => ok(req, await saveLayout(app.ctx, auditActor(req), req.params.id, req.body)),
  )

  app.get(
    '/templates/:id/versions',
    {
      config: { action: 'template.read' },
      schema: { tags, summary: 'Every version, oldest first', params: idParams, response: { 200: versionListResponse } },
    },
    async (req) => ok(req, await listVersions(app.ctx, req.params.id)),
  )

  app.get(
    '/templates/:id/versions/:version',
    {
      config: { action: 'template.read' },
      schema: {
        tags,
        summary: 'One version with its layout and indicators',
        params: versionParams,
        response: { 200: templateVersionResponse },
      },
    },
    async (req) => ok(req, await getVersion(app.ctx, req.params.id, req.params.version)),
  )

  // SPEC §7: the check and publish calls, one pair per kind, with the template id in the query.
  const generate = [
    {
      kind: 'crf',
      check: '/scientific/form/checkHasCrfFormGenerateToDb',
      publish: '/scientific/form/saveCrfFormGenerateToDb',
      what: 'CRF',
    },
    {
      kind: 'group',
      check: '/scientific/form/checkHasFieldsGenerateToDb',
      publish: '/scientific/form/saveFieldsGenerateToDb',
      what: 'question group',
    },
  ] as const
  for (const g of generate) {
    app.get(
      g.check,
      {
        config: { action: 'template.read' },
        schema: {
          tags,
          summary: `Whether the ${g.what} has a published version (and which) and unpublished changes`,
          querystring: idQuery,
          response: { 200: generateStateResponse },
        },
      },
      async (req) => ok(req, await generateStateOf(app.ctx, req.query.id, g.kind)),
    )
    app.post(
      g.publish,
      {
        config: { action: 'template.publish' },
        schema: {
          tags,
          summary: `Publish the ${g.what}'s draft; the published version is frozen`,
          querystring: idQuery,
          response: { 200: generateStateResponse },
        },
      },
      async (req) => {
        const state = await publishTemplate(app.ctx, auditActor(req), req.query.id, g.kind)
        return ok(req, state, { key: 'template.published', params: [state.version ?? ''], boolResult: true })
      },
    )
  }
}

export default routes
