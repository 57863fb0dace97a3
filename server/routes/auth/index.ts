import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  changePwdBody,
  changePwdResponse,
  loginBody,
  loginResponse,
  logoutQuery,
  logoutResponse,
  tokenQuery,
  userInfoResponse,
} from '../../../contract/auth.ts'
import { envelope } from '../../../contract/envelope.ts'
import { permissionsData, screenNames } from '../../../contract/screens.ts'
import { message } from '../../i18n/messages.ts'
import { changePassword, login, logout, userInfo } from '../../services/auth.ts'
import { audit } from '../../services/audit.ts'
import { me, requireSession } from '../../plugins/auth.ts'
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
      onRequest: loginLimit,
      schema: { tags: ['auth'], summary: 'Sign in', body: loginBody, response: { 200: loginResponse } },
    },
    async (req) => {
      const data = await login(app.ctx, req.body, req.ip)
      return { code: 0, msg: message(req.lang, 'ok'), boolResult: true, data }
    },
  )

  app.get(
    '/admin/user/front/info',
    {
      preHandler: requireSession,
      schema: { tags: ['auth'], summary: 'The signed-in user', querystring: tokenQuery, response: { 200: userInfoResponse } },
    },
    async (req) => ({ code: 0, msg: message(req.lang, 'ok'), data: userInfo(me(req).user) }),
  )

  // SPEC §6: every signed-in user is effectively admin and receives the full route set.
  app.get(
    '/admin/user/front/permissions',
    {
      preHandler: requireSession,
      schema: { tags: ['auth'], summary: 'Screens the user may open', querystring: tokenQuery, response: { 200: envelope(permissionsData) } },
    },
    async (req) => ({ code: 0, msg: message(req.lang, 'ok'), data: { screens: [...screenNames] } }),
  )

  app.post(
    '/auth/jwt/logout',
    {
      preHandler: requireSession,
      schema: { tags: ['auth'], summary: 'End this session at once', querystring: logoutQuery, response: { 200: logoutResponse } },
    },
    async (req) => {
      await logout(app.ctx, me(req), req.query.userId, req.ip)
      return { code: 0, msg: message(req.lang, 'auth.loggedOut'), boolResult: true }
    },
  )

  app.post(
    '/admin/user/changePwd',
    {
      preHandler: requireSession,
      schema: { tags: ['account'], summary: 'Change one’s own password', body: changePwdBody, response: { 200: changePwdResponse } },
    },
    async (req) => {
      await changePassword(app.ctx, me(req), req.body, req.ip)
      return { code: 0, msg: message(req.lang, 'password.changed'), boolResult: true }
    },
  )
}

export default routes
