import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contentDisposition } from '../contentDisposition.ts'
import {
  attachment,
  attachmentDeleteBody,
  attachmentFileParams,
  attachmentLimits,
  attachmentList,
  attachmentListParams,
  attachmentListQuery,
  attachmentPaths,
  attachmentUploadQuery,
} from '../../../contract/attachments.ts'
import { emptyEnvelope, envelope } from '../../../contract/envelope.ts'
import { z } from 'zod'
import { actor, auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import { pictureMultipart, readPictureUpload } from '../pictureUpload.ts'
import { deleteAttachment, listAttachments, readAttachment, uploadAttachment, type Caller } from '../../services/attachments.ts'
import { ServiceError } from '../../services/errors.ts'

/**
 * Attachments of research objects: the SPEC §7 api/public/attachment calls (upload with the
 * picture rules, delete), a subject's list, and the scoped download (contract/attachments.ts).
 */

const routeOf = (p: string) => '/' + p.replace(/^api\//, '')
const caller = (req: FastifyRequest): Caller => ({ actor: actor(req), who: auditActor(req) })

const routes: FastifyPluginAsyncZod = async (app) => {
  // Scoped to this plugin: only the upload here parses multipart bodies.
  await app.register(multipart, pictureMultipart(attachmentLimits.maxBytes))
  const tags = ['attachments']

  app.post(
    routeOf(attachmentPaths.upload),
    {
      config: { action: 'subject.enter' },
      schema: {
        tags,
        summary:
          'Picture upload (SPEC §2, §7): multipart field `file`; query type=3, studyId, objectId (the subject), recordId and indicatorId optional (a field holds one picture); jpeg/jpg/png/bmp by content, at most 5 MB while streaming; answers the attachment with data.path',
        querystring: attachmentUploadQuery,
        response: { 200: envelope(attachment) },
      },
    },
    async (req, reply) => {
      // The rest of an oversize body is not worth reading: the connection ends with the answer.
      const file = await readPictureUpload(req, attachmentLimits.maxBytes).catch((err: unknown) => {
        if (err instanceof ServiceError && err.kind === 'tooLarge') void reply.header('connection', 'close')
        throw err
      })
      return ok(req, await uploadAttachment(app.ctx, caller(req), req.query, file), { key: 'picture.saved' })
    },
  )

  app.post(
    routeOf(attachmentPaths.delete),
    {
      config: { action: 'subject.enter' },
      schema: {
        tags,
        summary: 'Picture delete (SPEC §7): type 3, studyId, objectId and the attachment; the trail keeps its name',
        body: attachmentDeleteBody,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteAttachment(app.ctx, caller(req), req.body)
      return done(req, 'picture.deleted')
    },
  )

  app.get(
    '/projects/:id/subjects/:subjectId/attachments',
    {
      config: { action: 'subject.read' },
      schema: {
        tags,
        summary: "A subject's attachments, oldest first; narrowed to a record and a field of it",
        params: attachmentListParams,
        querystring: attachmentListQuery,
        response: { 200: envelope(attachmentList) },
      },
    },
    async (req) => {
      const { recordId, indicatorId } = req.query
      return ok(req, { rows: await listAttachments(app.ctx, actor(req), req.params.id, req.params.subjectId, { recordId, indicatorId }) })
    },
  )

  app.get(
    '/projects/:id/attachments/:attachmentId',
    {
      config: { action: 'subject.read' },
      schema: {
        tags,
        summary: 'The bytes of an attachment, to a caller who may read its subject (else 404 like an unknown one)',
        params: attachmentFileParams,
        querystring: z.object({ token: z.string().max(256).optional() }),
      },
    },
    async (req, reply) => {
      const { data, attachment } = await readAttachment(app.ctx, actor(req), req.params.id, req.params.attachmentId)
      return reply
        .header('content-type', attachment.mime)
        .header('content-disposition', contentDisposition(attachment.name, 'inline'))
        .header('cache-control', 'private, no-cache')
        .header('x-content-type-options', 'nosniff')
        .send(data)
    },
  )
}

export default routes
