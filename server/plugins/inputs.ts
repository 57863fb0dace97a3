import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { ServiceError } from '../services/errors.ts'

/** The path of the first string (or key) holding U+0000, or null. */
function nulAt(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null
  if (value === null || typeof value !== 'object') return null
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k
    if (k.includes('\u0000')) return at
    const found = nulAt(v, at)
    if (found) return found
  }
  return null
}

/**
 * No text with U+0000 reaches a service: PostgreSQL cannot store it (a 500 there) and SQLite
 * cuts strings at it. Checked once for every route of the scope, on the parsed input, before
 * the route's schema.
 */
export default fp(async (app) => {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    for (const part of [req.params, req.query, req.body]) {
      const at = nulAt(part, '')
      if (at !== null) throw new ServiceError('badRequest', 'field.nul', [at])
    }
  })
})
