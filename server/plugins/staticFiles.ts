import fs from 'node:fs'
import path from 'node:path'
import fp from 'fastify-plugin'
import fastifyStatic from '@fastify/static'
import { apiNotFound } from './errors.ts'

/**
 * Serves the built client; any other GET that is not under /api/ gets index.html so deep links
 * (/project/multi-list) open the app, which then routes unknown paths to /404 itself. A missing
 * build file (/assets/…) is a 404, not that page: a tab opened before an update asks for the old
 * build's screens, and HTML in their place fails as a script nobody can tell from a broken app.
 */
export default fp<{ root: string | null }>(async (app, opts) => {
  const root = opts.root
  const index = root ? path.join(root, 'index.html') : null
  if (root && index && fs.existsSync(index)) {
    await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1y', immutable: true })
  }
  app.setNotFoundHandler((req, reply) => {
    const isApi = req.url === '/api' || req.url.startsWith('/api/')
    const isAsset = req.url.startsWith('/assets/')
    if (isApi || isAsset || req.method !== 'GET' || !index || !fs.existsSync(index)) return apiNotFound(req, reply)
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(fs.createReadStream(index))
  })
})
