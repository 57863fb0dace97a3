import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/**
 * Every operation of the OpenAPI document, called by a caller without a valid session and with
 * deliberately broken input: each must answer the session refusal, never a 400 naming fields,
 * because the session is checked before the body, query or path is read.
 */

type Operation = { method: string; path: string; hasBody: boolean; hasParams: boolean }

/** The short public list: everything else needs a session. */
const publicOperations = ['POST /api/auth/jwt/token', 'GET /api/health']

let t: TestApp
let operations: Operation[]
const tokens = { forged: 'forged-' + 'x'.repeat(40), expired: '', loggedOut: '', valid: '' }

beforeAll(async () => {
  t = await testApp()
  await t.createUser('alice', 'abc123')
  const loggedOut = await t.signIn('alice', 'abc123')
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/jwt/logout', headers: { 'kr-d-token': loggedOut } })
  expect(res.statusCode, res.body).toBe(200)
  tokens.loggedOut = loggedOut
  tokens.expired = await t.signIn('alice', 'abc123')
  t.advance(13 * 60 * 60 * 1000)
  tokens.valid = await t.signIn('alice', 'abc123')

  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, { requestBody?: unknown; parameters?: { in: string }[] }>>
  }
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      hasBody: op.requestBody !== undefined,
      hasParams: (op.parameters ?? []).some((p) => p.in === 'path'),
    })),
  )
})
afterAll(() => t?.close())

const protectedOperations = () => operations.filter((o) => !publicOperations.includes(`${o.method} ${o.path}`))

/** Broken input for every part: path ids that are no number, a query of wrong values, a body. */
function brokenRequest(op: Operation, payload: string, token?: string): InjectOptions {
  const url = op.path.replace(/\{[^}]+\}/g, 'not-a-number') + '?id=x&diseaseId=x&limit=0&sort=nope&kind=nope&format=nope'
  return {
    method: op.method as InjectOptions['method'],
    url,
    headers: { 'content-type': 'application/json', ...(token ? { 'kr-d-token': token } : {}) },
    ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload }),
  }
}

const bodies = { malformed: '{"name": ', wrongShape: JSON.stringify({ id: 'x', name: 5, code: '!', password: [], bogus: true }) }

function expectRefused(res: LightMyRequestResponse, code: number, msg: string, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(401)
  expect(body(res), what).toEqual({ code, msg, boolResult: false })
}

describe('the OpenAPI document', () => {
  it('lists every operation, the public ones included', () => {
    expect(protectedOperations().length).toBeGreaterThanOrEqual(31)
    for (const p of publicOperations) expect(operations.map((o) => `${o.method} ${o.path}`)).toContain(p)
  })
})

describe.each([
  ['no token', undefined, 50008, '未登录或登录已失效，请重新登录'],
  ['a forged token', 'forged', 50008, '非法的令牌，请重新登录'],
  ['an expired token', 'expired', 50014, '登录已过期，请重新登录'],
  ['a logged-out token', 'loggedOut', 50012, '你已在别处登出或令牌已失效，请重新登录'],
] as const)('%s', (_name, which, code, msg) => {
  it.each(Object.entries(bodies))('is refused on every protected operation before the input is read (%s body)', async (_kind, payload) => {
    for (const op of protectedOperations()) {
      const token = which ? tokens[which] : undefined
      expectRefused(await t.app.inject(brokenRequest(op, payload, token)), code, msg, `${op.method} ${op.path}`)
    }
  })

  it('is refused when sent as ?token= too', async () => {
    for (const op of protectedOperations()) {
      const req = brokenRequest(op, bodies.wrongShape)
      const token = which ? tokens[which] : ''
      expectRefused(await t.app.inject({ ...req, url: `${req.url}&token=${token}` }), code, msg, `${op.method} ${op.path}`)
    }
  })
})

describe('a valid session', () => {
  it('reaches validation with the same broken input: the refusals above were not about the input', async () => {
    const withInput = protectedOperations().filter((o) => o.hasBody || o.hasParams)
    expect(withInput.length).toBeGreaterThanOrEqual(15)
    for (const op of withInput) {
      const res = await t.app.inject(brokenRequest(op, bodies.wrongShape, tokens.valid))
      expect(res.statusCode, `${op.method} ${op.path}: ${res.body}`).toBe(400)
    }
  })

  it('public operations answer without a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username: 'alice', password: 'abc123' } })
    expect(body(res).boolResult).toBe(true)
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200)
  })
})
