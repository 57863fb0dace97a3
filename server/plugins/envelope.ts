import type { FastifyRequest } from 'fastify'
import { success } from '../../contract/envelope.ts'
import { message, type MessageKey } from '../i18n/messages.ts'

interface Say {
  /** The message; 'ok' by default. */
  key?: MessageKey
  params?: readonly (string | number)[]
  /** Calls the SPEC reads by boolResult (sign-in, delete, publish) answer true. */
  boolResult?: boolean
}

/** The success envelope of a route, in the caller's language; failures are the error plugin's. */
export function ok<T>(req: FastifyRequest, data?: T, say: Say = {}) {
  return success(message(req.lang, say.key ?? 'ok', say.params), data, say.boolResult)
}

/** A success with no data that the client reads by boolResult (deletes, logout, password change). */
export function done(req: FastifyRequest, key: MessageKey = 'ok') {
  return ok(req, undefined, { key, boolResult: true })
}
