import type { FastifyReply, FastifyRequest } from 'fastify'
import { ServiceError } from '../services/errors.ts'

export interface RateLimit {
  max: number
  windowMs: number
}

/**
 * A fixed-window counter per client address, kept in this process: it stops a flood at the door
 * before the body is read. The per-account lock that survives restarts lives in the database.
 * `onFirstRefusal` runs once per window and address, so a flood leaves one audit row, not millions.
 */
export function rateLimitHook(limit: RateLimit, onFirstRefusal: (req: FastifyRequest) => Promise<void>) {
  const windows = new Map<string, { start: number; count: number }>()
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const now = Date.now()
    let w = windows.get(req.ip)
    if (!w || now - w.start >= limit.windowMs) {
      if (windows.size > 10_000) for (const [k, v] of windows) if (now - v.start >= limit.windowMs) windows.delete(k)
      w = { start: now, count: 0 }
      windows.set(req.ip, w)
    }
    w.count += 1
    if (w.count > limit.max) {
      const retry = Math.ceil((w.start + limit.windowMs - now) / 1000)
      reply.header('retry-after', String(retry))
      if (w.count === limit.max + 1) await onFirstRefusal(req)
      throw new ServiceError('tooMany', 'error.tooMany', [retry])
    }
  }
}
