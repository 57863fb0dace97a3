import { z } from 'zod'
import type { FastifyRequest } from 'fastify'
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
import { message } from '../../i18n/messages.ts'
import { me, requireSession } from '../../plugins/auth.ts'
import type { Actor } from '../../services/audit.ts'
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
const idParams = z.object({ id: z.coerce.number().int().positive() })
const versionParams = idParams.extend({ version: z.coerce.number().int().positive() })
/** A create names its kind; the kind never changes afterwards, so the update body has none. */
const createBody = templateInput.extend({ kind: z.enum(templateKinds).default('crf') })
const versionListResponse = envelope(z.array(versionInfo))

const actorOf = (req: FastifyRequest): Actor => ({ userId: me(req).user.id, username: me(req).user.username, ip: req.ip })

const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('preHandler', requireSession)
  const tags = ['templates']

  app.get(
    '/templates',
    { schema: { tags, summary: 'CRFs or question groups, by name', querystring: listQuery, response: { 200: templateListResponse } } },
    async (req) => {
      const { kind, q, collectType } = req.query
      return { code: 0, msg: message(req.lang, 'ok'), data: await listTemplates(app.ctx, { kind, q, collectType }) }
    },
  )

  app.post(
    '/templates',
    { schema: { tags, summary: 'New CRF or question group, with an empty draft version 1', body: createBody, response: { 200: templateResponse } } },
    async (req) => {
      const { kind, ...input } = req.body
      return { code: 0, msg: message(req.lang, 'ok'), data: await createTemplate(app.ctx, actorOf(req), kind, input) }
    },
  )

  app.get(
    '/templates/:id',
    { schema: { tags, summary: 'One template', params: idParams, response: { 200: templateResponse } } },
    async (req) => ({ code: 0, msg: message(req.lang, 'ok'), data: await getTemplate(app.ctx, req.params.id) }),
  )

  app.put(
    '/templates/:id',
    {
      schema: {
        tags,
        summary: 'Replace name, description, collect type, prepose CRFs and status',
        params: idParams,
        body: templateInput,
        response: { 200: templateResponse },
      },
    },
    async (req) => ({ code: 0, msg: message(req.lang, 'ok'), data: await updateTemplate(app.ctx, actorOf(req), req.params.id, req.body) }),
  )

  app.delete(
    '/templates/:id',
    {
      schema: {
        tags,
        summary: 'Delete a template with its versions; refused while any version places an indicator',
        params: idParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteTemplate(app.ctx, actorOf(req), req.params.id)
      return { code: 0, msg: message(req.lang, 'ok'), boolResult: true }
    },
  )

  app.get(
    '/templates/:id/layout',
    {
      schema: {
        tags,
        summary: 'The draft (else the latest published version) with its layout and indicators',
        params: idParams,
        response: { 200: templateVersionResponse },
      },
    },
    async (req) => ({ code: 0, msg: message(req.lang, 'ok'), data: await getLayout(app.ctx, req.params.id) }),
  )

  app.put(
    '/templates/:id/layout',
    {
      schema: {
        tags,
        summary: 'Write a layout into the draft; after a publication this starts the next version',
        params: idParams,
        body: layout,
        response: { 200: templateVersionResponse },
      },
    },
    async (req) => ({ code: 0, msg: message(req.lang, 'ok'), data: await saveLayout(app.ctx, actorOf(req), req.params.id, req.body) }),
  )

  app.get(
    '/templates/:id/versions',
    { schema: { tags, summary: 'Every version, oldest first', params: idParams, response: { 200: versionListResponse } } },
    async (req) => ({ code: 0, msg: message(req.lang, 'ok'), data: await listVersions(app.ctx, req.params.id) }),
  )

  app.get(
    '/templates/:id/versions/:version',
    {
      schema: { tags, summary: 'One version with its layout and indicators', params: versionParams, response: { 200: templateVersionResponse } },
    },
    async (req) => ({ code: 0, msg: message(req.lang, 'ok'), data: await getVersion(app.ctx, req.params.id, req.params.version) }),
  )

  // SPEC §7: the check and publish calls, one pair per kind, with the template id in the query.
  const generate = [
    { kind: 'crf', check: '/scientific/form/checkHasCrfFormGenerateToDb', publish: '/scientific/form/saveCrfFormGenerateToDb', what: 'CRF' },
    { kind: 'group', check: '/scientific/form/checkHasFieldsGenerateToDb', publish: '/scientific/form/saveFieldsGenerateToDb', what: 'question group' },
  ] as const
  for (const g of generate) {
    app.get(
      g.check,
      {
        schema: {
          tags,
          summary: `Whether the ${g.what} has a published version (and which) and unpublished changes`,
          querystring: idQuery,
          response: { 200: generateStateResponse },
        },
      },
      async (req) => ({ code: 0, msg: message(req.lang, 'ok'), data: await generateStateOf(app.ctx, req.query.id, g.kind) }),
    )
    app.post(
      g.publish,
      {
        schema: {
          tags,
          summary: `Publish the ${g.what}'s draft; the published version is frozen`,
          querystring: idQuery,
          response: { 200: generateStateResponse },
        },
      },
      async (req) => {
        const state = await publishTemplate(app.ctx, actorOf(req), req.query.id, g.kind)
        return { code: 0, msg: message(req.lang, 'template.published', [state.version ?? '']), boolResult: true, data: state }
      },
    )
  }
}

export default routes
