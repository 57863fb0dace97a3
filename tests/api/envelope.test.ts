import { sql } from 'kysely'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { body, testApp, type TestApp } from '../support/testApp.ts'

let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})
const start = async (opts: Parameters<typeof testApp>[0] = {}) => (t = await testApp(opts))

const send = (app: TestApp, opts: InjectOptions) => app.app.inject(opts)
const postRaw = (app: TestApp, url: string, payload: string, contentType: string, lang?: string) =>
  send(app, { method: 'POST', url, payload, headers: { 'content-type': contentType, ...(lang ? { 'accept-language': lang } : {}) } })

/** The failure envelope and nothing else: `{ code, msg }` (boolResult false at most), JSON, no stack. */
function expectEnvelope(res: LightMyRequestResponse, status: number, msg?: string | RegExp) {
  expect(res.statusCode, res.body).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/json/)
  const b = body(res)
  expect(b.code).toBe(status)
  expect(
    Object.keys(b)
      .filter((k) => k !== 'boolResult')
      .sort(),
  ).toEqual(['code', 'msg'])
  expect(b.boolResult).not.toBe(true)
  expect(b.msg.length).toBeGreaterThan(0)
  expectNoStack(res)
  if (typeof msg === 'string') expect(b.msg).toBe(msg)
  else if (msg) expect(b.msg).toMatch(msg)
  return b
}

function expectNoStack(res: LightMyRequestResponse) {
  expect(res.body).not.toMatch(/\bat \S+ \(|\.ts:\d+|\.js:\d+|node_modules|stack|Error:/i)
}

describe('malformed requests', () => {
  it('malformed JSON to sign-in → 400', async () => {
    const app = await start()
    const url = '/api/auth/jwt/token'
    expectEnvelope(await postRaw(app, url, '{"username": "alice",', 'application/json'), 400, '请求体不是合法的 JSON')
    expectEnvelope(await postRaw(app, url, '{bad', 'application/json', 'en'), 400, 'The request body is not valid JSON')
  })

  it('malformed JSON from a signed-in caller → 400 (an anonymous one gets 401 before the body is read)', async () => {
    const app = await start()
    await app.createUser('alice', 'abc123')
    const token = await app.signIn('alice', 'abc123')
    const post = (lang?: string) =>
      send(app, {
        method: 'POST',
        url: '/api/admin/user/changePwd',
        payload: '{bad',
        headers: { 'content-type': 'application/json', 'kr-d-token': token, ...(lang ? { 'accept-language': lang } : {}) },
      })
    expectEnvelope(await post(), 400, '请求体不是合法的 JSON')
    expectEnvelope(await post('en'), 400, 'The request body is not valid JSON')
  })

  it('an empty JSON body → 400', async () => {
    const app = await start()
    expectEnvelope(await postRaw(app, '/api/auth/jwt/token', '', 'application/json'), 400, '请求体不是合法的 JSON')
  })

  it('a JSON body that is not an object → 400 naming the request', async () => {
    const app = await start()
    expectEnvelope(await postRaw(app, '/api/auth/jwt/token', '["alice"]', 'application/json'), 400, /请求/)
    expectEnvelope(await postRaw(app, '/api/auth/jwt/token', '"alice"', 'application/json', 'en'), 400, /request/)
  })

  it('an unsupported content type → 415 naming it', async () => {
    const app = await start()
    expectEnvelope(await postRaw(app, '/api/auth/jwt/token', '<u>alice</u>', 'application/xml'), 415, '不支持的内容类型：application/xml')
    expectEnvelope(
      await postRaw(app, '/api/auth/jwt/token', 'a=b', 'application/x-www-form-urlencoded', 'en'),
      415,
      'Unsupported content type: application/x-www-form-urlencoded',
    )
  })

  it('a form sent as text → 400, not a sign-in', async () => {
    const app = await start()
    expectEnvelope(await postRaw(app, '/api/auth/jwt/token', 'username=alice&password=x', 'text/plain'), 400)
  })

  it('a body over the configured limit → 413 naming the limit', async () => {
    const app = await start({ bodyLimit: 256 })
    const payload = JSON.stringify({ username: 'alice', password: 'a1'.repeat(200) })
    expectEnvelope(await postRaw(app, '/api/auth/jwt/token', payload, 'application/json'), 413, '请求体过大，上限为 256 字节')
    expectEnvelope(
      await postRaw(app, '/api/auth/jwt/token', payload, 'application/json', 'en'),
      413,
      'The request body is too large; the limit is 256 bytes',
    )
  })

  it('a body over 1 MiB by default → 413, nothing written', async () => {
    const app = await start()
    const payload = JSON.stringify({ username: 'alice', password: 'x'.repeat(1024 * 1024) })
    expectEnvelope(await postRaw(app, '/api/auth/jwt/token', payload, 'application/json'), 413, '请求体过大，上限为 1048576 字节')
    expect(await app.db.kysely.selectFrom('audit_log').selectAll().execute()).toEqual([])
    expect(await app.db.kysely.selectFrom('login_throttle').selectAll().execute()).toEqual([])
  })
})

describe('unknown routes', () => {
  it.each([
    ['GET', '/api/nope', '接口不存在：GET /api/nope'],
    ['POST', '/api/auth/jwt/nothing?token=secret', '接口不存在：POST /api/auth/jwt/nothing'],
    ['GET', '/api', '接口不存在：GET /api'],
    ['DELETE', '/api/auth/jwt/token', '接口不存在：DELETE /api/auth/jwt/token'],
  ] as const)('%s %s → 404 with the route in msg', async (method, url, msg) => {
    const app = await start()
    expectEnvelope(await send(app, { method, url }), 404, msg)
  })

  it('names the route in English on request', async () => {
    const app = await start()
    expectEnvelope(
      await send(app, { method: 'GET', url: '/api/nope', headers: { 'accept-language': 'en-US,en;q=0.9' } }),
      404,
      'No such interface: GET /api/nope',
    )
  })
})

describe('the caller’s language', () => {
  const missingPassword = (app: TestApp, lang?: string) =>
    send(app, {
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: 'alice' },
      headers: lang ? { 'accept-language': lang } : {},
    })

  it.each([
    [undefined, '请输入 password'],
    ['zh-CN,zh;q=0.9', '请输入 password'],
    ['en', 'Please input password'],
    ['en-GB,en;q=0.8,zh;q=0.5', 'Please input password'],
    ['zh;q=0.3, en;q=0.7', 'Please input password'],
    ['fr-FR', '请输入 password'],
  ])('Accept-Language %s', async (lang, msg) => {
    const app = await start()
    expectEnvelope(await missingPassword(app, lang), 400, msg)
  })
})

describe('server failures', () => {
  it('answer 500 with a generic message and nothing of the cause', async () => {
    const app = await start()
    await sql`DROP TABLE login_throttle`.execute(app.db.kysely)
    const res = await send(app, { method: 'POST', url: '/api/auth/jwt/token', payload: { username: 'alice', password: 'abc123' } })
    expectEnvelope(res, 500, '未知错误，请稍后重试')
    expect(res.body).not.toMatch(/login_throttle|sqlite|relation|select/i)
  })
})

describe('documentation and health', () => {
  it('/api/docs serves the OpenAPI page', async () => {
    const app = await start()
    const res = await send(app, { method: 'GET', url: '/api/docs' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.body).toContain('Swagger UI')
  })

  it('/api/docs/json lists the four auth calls with their methods', async () => {
    const app = await start()
    const res = await send(app, { method: 'GET', url: '/api/docs/json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> }
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths['/api/auth/jwt/token'] ?? {})).toContain('post')
    expect(Object.keys(doc.paths['/api/auth/jwt/logout'] ?? {})).toContain('post')
    expect(Object.keys(doc.paths['/api/admin/user/front/info'] ?? {})).toContain('get')
    expect(Object.keys(doc.paths['/api/admin/user/changePwd'] ?? {})).toContain('post')
    expect(JSON.stringify(doc.paths['/api/auth/jwt/token'])).toContain('username')
  })

  it('/api/health answers code 0', async () => {
    const app = await start()
    const res = await send(app, { method: 'GET', url: '/api/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ code: 0, msg: '操作成功' })
  })
})
