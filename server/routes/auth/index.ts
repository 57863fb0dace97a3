import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  changePwdBody,
  changePwdResponse,
  loginBody,
  loginResponse,
  logoutQuery,
  logoutResponse,
  permissionsResponse,
  tokenQuery,
  userInfoResponse,
} from '../../../contract/auth.ts'
import { permissionList } from '../../services/access.ts'
import { changePassword, login, logout, userInfo } from '../../services/auth.ts'
import { audit } from '../../services/audit.ts'
import { actor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import { rateLimitHook, type RateLimit } from '../../plugins/rateLimit.ts'

export interface AuthRoutesOptions {
  loginRateLimit: RateLimit
}

const routes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, opts) => {
  const loginLimit = rateLimitHook(opts.loginRateLimit, (req) =>
    audit(app.ctx.db, { userId: null, username: '', ip: req.ip }, 'auth.login', 'denied', app.ctx.now(), { reason: 'rateLimited' }),
  )

  app.post(
    '/auth/jwt/token',
    {
      config: { public: true },
      onRequest: loginLimit,
      schema: { tags: ['auth'], summary: 'Sign in', body: loginBody, response: { 200: loginResponse } },
    },
    async (req) => ok(req, await login(app.ctx, req.body, req.ip), { boolResult: true }),
  )

  app.get(
    '/admin/user/front/info',
    {
      config: { action: 'account.read' },
      schema: { tags: ['auth'], summary: 'The signed-in user', querystring: tokenQuery, response: { 200: userInfoResponse } },
    },
    async (req) => {
      const me = actor(req)
      return ok(
        req,
        userInfo(
          me,
          me.roles.map((r) => (req.lang === 'en' ? r.nameEn : r.nameZh)),
        ),
      )
    },
  )

  app.get(
    '/admin/user/front/permissions',
    {
      config: { action: 'account.read' },
      schema: {
        tags: ['auth'],
        summary: 'Screens the user may open',
        querystring: tokenQuery,
        response: { 200: permissionsResponse },
      },
    },
    async (req) => ok(req, await permissionList(app.ctx.db, actor(req))),
  )

  app.post(
    '/auth/jwt/logout',
    {
      config: { action: 'account.logout' },
      schema: { tags: ['auth'], summary: 'End this session at once', querystring: logoutQuery, response: { 200: logoutResponse } },
    },
    async (req) => {
      await logout(app.ctx, actor(req), req.query.userId, req.ip)
      return done(req, 'auth.loggedOut')
    },
  )

  app.post(
    '/admin/user/changePwd',
    {
      config: { action: 'account.changePassword' },
      schema: { tags: ['account'], summary: 'Change one’s own password', body: changePwdBody, response: { 200: changePwdResponse } },
    },
    async (req) => {
      await changePassword(app.ctx, actor(req), req.body, req.ip)
      return done(req, 'password.changed')
    },
  )
}

export default routes
