import fp from 'fastify-plugin'
import type { FastifyRequest, RouteOptions } from 'fastify'
import type { Actor as AuditActor } from '../services/audit.ts'
import type { Actor } from '../services/actor.ts'
import { actorForToken, actorWithMemberships } from '../services/actorCache.ts'
import { authorize, isAction, needsMemberships, resourceTypeOf, type Action, type ResourceType } from '../services/policy.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller of a non-public /api route; null on public routes. */
    actor: Actor | null
  }
  interface FastifyContextConfig {
    /** Served without a session: the short public list (sign-in, health, the API docs). */
    public?: boolean
    /** What the route does, for the policy (server/services/policy.ts). Every non-public /api route names one. */
    action?: Action
  }
}

/** The Kr-D-Token header wins; the `token` query parameter is the SPEC's second way. */
function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers['kr-d-token']
  if (typeof header === 'string' && header.length > 0) return header
  const q = req.query as Record<string, unknown> | undefined
  return typeof q?.token === 'string' && q.token.length > 0 ? q.token : undefined
}

/**
 * The record the request names: `id` in its path or (the SPEC's generate calls) its query; the
 * picture calls (SPEC §7) name theirs `objectId`, in the query or the body; the studyObject calls
 * name their project `studyId`.
 */
function idOf(req: FastifyRequest, type: ResourceType): number | undefined {
  const [params, query, body] = [req.params, req.query, req.body] as (Record<string, unknown> | undefined)[]
  // A research-object call is decided on its project (`studyId`); its objectId names the subject,
  // which the service then looks up inside the caller's queues and centers.
  const candidates =
    type === 'subject' || type === 'dataLoad'
      ? [query?.studyId, body?.studyId, params?.id]
      : [params?.id, query?.id, query?.objectId, body?.objectId, query?.studyId]
  for (const id of candidates) if (typeof id === 'number') return id
  return undefined
}

/**
 * Closed by default, for every route of the scope it is registered in (the /api scope):
 * - onRequest, before the body is read or anything validated: the session, else 401 with
 *   50008/50012/50014; the actor is resolved once here (cached per token while the access
 *   generation stands: server/services/actorCache.ts); then 403 unless the actor's grants could
 *   allow the action at all;
 * - preHandler, once the input is valid: the policy's `authorize` for the route's action on the
 *   record the request names;
 * - on ready: a route that declares neither `public` nor a known action stops the server from
 *   starting, so a route cannot be added without deciding who may call it.
 */
export default fp(async (app) => {
  app.decorateRequest('actor', null)
  const routes: RouteOptions[] = []
  app.addHook('onRoute', (route) => {
    routes.push(route)
  })
  app.addHook('onReady', async () => {
    const undeclared = routes.filter((r) => !r.config?.public && !(r.config?.action && isAction(r.config.action)))
    if (undeclared.length > 0) {
      const names = undeclared.map((r) => `${String(r.method)} ${r.url}`).join(', ')
      throw new Error(`routes without config.action or config.public: ${names}`)
    }
  })
  app.addHook('onRequest', async (req) => {
    const { public: isPublic, action } = req.routeOptions.config
    if (isPublic) return
    const me = await actorForToken(req.server.ctx, tokenOf(req))
    req.actor = me
    // Before any input is read: refused unless the action could be allowed on the actor's own
    // record, the most any rule allows without a grant. A caller without the grant learns nothing
    // about what the route would accept.
    authorize(me, action ?? '', action ? { type: resourceTypeOf(action), id: me.user.id, preflight: true } : undefined)
  })
  app.addHook('preHandler', async (req) => {
    const { public: isPublic, action } = req.routeOptions.config
    if (isPublic) return
    // A route without an action cannot start (above); were one to run, `authorize` refuses it.
    if (req.actor && action && needsMemberships(action)) req.actor = await actorWithMemberships(req.server.ctx, req.actor)
    authorize(req.actor, action ?? '', action ? { type: resourceTypeOf(action), id: idOf(req, resourceTypeOf(action)) } : undefined)
  })
})

/** The caller of a non-public route. */
export function actor(req: FastifyRequest): Actor {
  if (!req.actor) throw new Error('no actor: the route is public or outside the /api guard')
  return req.actor
}

/** The caller as the audit log records them. */
export function auditActor(req: FastifyRequest): AuditActor {
  const { user, account } = actor(req)
  return { userId: user.id, username: account.username, ip: req.ip }
}
