import type { FastifyRequest } from 'fastify'
import { authenticate, type SignedIn } from '../services/auth.ts'

declare module 'fastify' {
  interface FastifyRequest {
    me: SignedIn | null
  }
}

/** The Kr-D-Token header wins; the `token` query parameter is the SPEC's second way. */
export function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers['kr-d-token']
  if (typeof header === 'string' && header.length > 0) return header
  const q = req.query as Record<string, unknown> | undefined
  return typeof q?.token === 'string' && q.token.length > 0 ? q.token : undefined
}

/** preHandler for routes that need a signed-in user; answers 401 with 50008/50012/50014. */
export async function requireSession(req: FastifyRequest): Promise<void> {
  req.me = await authenticate(req.server.ctx, tokenOf(req))
}

/** The signed-in user of a route guarded by requireSession. */
export function me(req: FastifyRequest): SignedIn {
  if (!req.me) throw new Error('route is missing the requireSession preHandler')
  return req.me
}
