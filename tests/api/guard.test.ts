import Fastify, { type FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { idParams } from '../../contract/ids.ts'
import context from '../../server/plugins/context.ts'
import errors from '../../server/plugins/errors.ts'
import guard, { actor } from '../../server/plugins/auth.ts'
import { ok } from '../../server/plugins/envelope.ts'
import type { Action } from '../../server/services/policy.ts'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/** The /api guard on its own: what a route must declare, and the policy's answer reaching the caller. */

let t: TestApp
let aliceId: number
let token: string
beforeAll(async () => {
  t = await testApp()
  aliceId = await t.createUser('alice', 'abc123')
  token = await t.signIn('alice', 'abc123')
})
afterAll(() => t?.close())

let mini: FastifyInstance | undefined
afterEach(async () => {
  await mini?.close()
  mini = undefined
})

/** An app with the guard and one route declared by `config`. */
async function appWith(config: Record<string, unknown> | undefined) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>()
  mini = app
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  await app.register(errors)
  await app.register(context, { ctx: t.app.ctx })
  await app.register(guard)
  app.get('/accounts/:id', { ...(config ? { config } : {}), schema: { params: idParams } }, async (req) =>
    ok(req, actor(req).account.username),
  )
  return app
}

describe('a route must say who may call it', () => {
  it('without config.action or config.public the server does not start', async () => {
    const app = await appWith(undefined)
    await expect(app.ready()).rejects.toThrow('routes without config.action or config.public: GET /accounts/:id')
  })

  it('an action the policy does not know stops it too', async () => {
    const app = await appWith({ action: 'account.destroy' })
    await expect(app.ready()).rejects.toThrow(/GET \/accounts\/:id/)
  })

  it('a declared action or public starts', async () => {
    await (await appWith({ action: 'account.read' satisfies Action })).ready()
    await mini?.close()
    await (await appWith({ public: true })).ready()
  })
})

describe('the policy’s answer', () => {
  it('allows one’s own account and refuses another’s with 403 in the caller’s language', async () => {
    const app = await appWith({ action: 'account.read' })
    const get = (id: number, lang?: string) =>
      app.inject({ method: 'GET', url: `/accounts/${id}`, headers: { 'kr-d-token': token, ...(lang ? { 'accept-language': lang } : {}) } })
    expect(body(await get(aliceId))).toMatchObject({ code: 0, data: 'alice' })
    const zh = await get(aliceId + 1)
    expect(zh.statusCode).toBe(403)
    expect(body(zh)).toEqual({ code: 403, msg: '没有权限执行此操作', boolResult: false })
    expect(body(await get(aliceId + 1, 'en')).msg).toBe('You are not allowed to do this')
  })
})
