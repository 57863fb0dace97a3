import http from 'node:http'
import type { Socket } from 'node:net'
import fp from 'fastify-plugin'
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import type { z } from 'zod'
import { issueMessage, requestParts } from '../i18n/issueMessage.ts'
import { message, pickLang, type Lang, type MessageKey } from '../i18n/messages.ts'
import { ServiceError } from '../services/errors.ts'
import { redactUrl } from './logging.ts'

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang
  }
}

/** fastify-type-provider-zod's record of a zod issue, back as the issue it was made from. */
const zodIssueOf = (v: FastifySchemaValidationError): z.core.$ZodIssue =>
  ({ ...v.params, code: v.keyword, path: v.instancePath.split('/').filter(Boolean) }) as z.core.$ZodIssue

function send(reply: FastifyReply, status: number, code: number, msg: string, boolResult?: false, data?: unknown) {
  return reply.status(status).type('application/json; charset=utf-8').send({ code, msg, boolResult, data })
}

const fastifyCodes: Record<string, { key: MessageKey; params?: (req: FastifyRequest, err: FastifyError) => (string | number)[] }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { key: 'error.badJson' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { key: 'error.badJson' },
  FST_ERR_CTP_BODY_TOO_LARGE: { key: 'error.tooLarge', params: (req) => [req.routeOptions.bodyLimit ?? 0] },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { key: 'error.badContentType', params: (req) => [req.headers['content-type'] ?? ''] },
}

/** The one envelope for every failure: `{ code, msg }`, the HTTP status of its class, no stack. */
export default fp(async (app) => {
  app.decorateRequest('lang', 'zh')
  app.addHook('onRequest', async (req) => {
    req.lang = pickLang(req.headers['accept-language'])
  })

  app.setErrorHandler((err: FastifyError, req, reply) => {
    // Calls the SPEC reads by boolResult (sign-in, change password) see false on every refusal.
    if (err instanceof ServiceError) return send(reply, err.status, err.code, err.describe(req.lang), false, err.data)
    if (hasZodFastifySchemaValidationErrors(err)) {
      const part = requestParts.find((p) => p === err.validationContext) ?? 'body'
      const input = { body: req.body, querystring: req.query, params: req.params, headers: req.headers }[part]
      const msg = err.validation
        .slice(0, 3)
        .map((i) => issueMessage(req.lang, zodIssueOf(i), input, part))
        .join('; ')
      return send(reply, 400, 400, msg)
    }
    const known = err.code ? fastifyCodes[err.code] : undefined
    if (known) {
      const status = err.statusCode ?? 400
      return send(reply, status, status, message(req.lang, known.key, known.params?.(req, err)))
    }
    // busboy's own errors carry no code: a body cut off or not multipart as its header said.
    if (!err.code && /^(Unexpected end of (form|file|multipart data)|Malformed part header|Malformed urlencoded form)/.test(err.message)) {
      return send(reply, 400, 400, message(req.lang, 'error.badMultipart'))
    }
    if (err instanceof SyntaxError || (err.statusCode === 400 && /JSON/i.test(err.message))) {
      return send(reply, 400, 400, message(req.lang, 'error.badJson'))
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return send(reply, err.statusCode, err.statusCode, message(req.lang, 'field.invalid', [req.url.split('?')[0] ?? '']))
    }
    req.log.error({ err, url: redactUrl(req.url) }, 'unhandled error')
    return send(reply, 500, 500, message(req.lang, 'error.unknown'))
  })
})

export function apiNotFound(req: FastifyRequest, reply: FastifyReply) {
  return send(reply, 404, 404, message(req.lang, 'error.notFound', [`${req.method} ${req.url.split('?')[0]}`]))
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode, or a path parameter too long. These
 * answer before any hook runs, so the language is read from the headers here.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400
  const path = (req.raw.url ?? '').split('?')[0] ?? ''
  return send(reply, status, status, message(pickLang(req.headers['accept-language']), 'error.badUrl', [path]))
}

/** Accept-Language out of the bytes Node could not parse as a request, when they hold it. */
function langOfRawPacket(raw: unknown): Lang {
  const header = (Buffer.isBuffer(raw) ? raw.toString('latin1') : '').match(/\r\naccept-language:[ \t]*([^\r\n]*)/i)?.[1]
  return pickLang(header)
}

/**
 * Fastify's `clientErrorHandler`: requests Node refuses before Fastify sees them (headers too
 * large, malformed HTTP, a request timeout) get the envelope too, written on the socket.
 */
export function clientErrorHandler(err: ConnectionError, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, key]: [number, MessageKey] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'error.headersTooLarge']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'error.timeout']
        : [400, 'error.badHttp']
  const body = JSON.stringify({ code: status, msg: message(langOfRawPacket(err.rawPacket), key) })
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(err)
}
