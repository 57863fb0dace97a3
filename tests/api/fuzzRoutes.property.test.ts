import fc from 'fast-check'
import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDemoStudy } from '../../server/demo/study.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/**
 * Every operation of the OpenAPI document, as a system administrator over a small demo study (so
 * that ids name real projects, subjects, CRFs and records), sent inputs drawn from the operation's
 * own schema — mostly plausible, now and then of the wrong type, out of range, empty, oversized
 * or hostile text — in Chinese and in English: none may fail inside (500), and every refusal is the
 * envelope with a message in the language asked for.
 */

type Schema = {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  properties?: Record<string, Schema>
  required?: string[]
  additionalProperties?: Schema | boolean
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  minimum?: number
  maximum?: number
  maxLength?: number
  maxItems?: number
  format?: string
  pattern?: string
}
type Parameter = { name: string; in: 'query' | 'path' | 'header'; required?: boolean; schema?: Schema }
type Operation = {
  method: string
  path: string
  parameters: Parameter[]
  body: Schema | null
}

/** Sent as they would break a session or another run of this test rather than a rule. */
const skipped = ['POST /api/auth/jwt/logout', 'POST /api/admin/user/changePwd', 'POST /api/auth/jwt/token']

/** Ids of things the demo has (1, 2, 3, 7) and of things nobody has; the caller's own id is above them. */
const ids = fc.constantFrom(1, 2, 3, 7, 1000, 2147483647)
const hostileText = fc.constantFrom(
  '',
  ' ',
  '=HYPERLINK("http://x")',
  '2024-02-30',
  '24:00',
  'a\u0000b',
  '\u202eevil',
  '<script>alert(1)</script>',
  "'; drop table subject; --",
  '../../etc/passwd',
  '𠮷'.repeat(300),
  'x'.repeat(100_001),
  '1e309',
  'NaN',
  '-0',
)
const wrongType = fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.constant([]), fc.constant({}), fc.string({ maxLength: 8 }))

function textOf(s: Schema): fc.Arbitrary<string> {
  // Numbers and column keys sent as text (a query's ids, a sort by an indicator).
  if (s.pattern === '^[0-9]+$') return fc.oneof({ weight: 6, arbitrary: ids.map(String) }, { weight: 1, arbitrary: hostileText })
  if (s.pattern?.startsWith('^f'))
    return fc.oneof(
      ids.map((id) => `f${id}`),
      hostileText,
    )
  const plain = fc.string({ maxLength: Math.min(s.maxLength ?? 40, 40) })
  const sized = s.maxLength !== undefined ? fc.constant('y'.repeat(s.maxLength + 1)) : plain
  return fc.oneof({ weight: 4, arbitrary: plain }, { weight: 2, arbitrary: hostileText }, { weight: 1, arbitrary: sized })
}

/** Values for a schema: mostly of its shape, sometimes not. */
function valueOf(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedOf(s, depth)
  return fc.oneof({ weight: 8, arbitrary: shaped }, { weight: 1, arbitrary: wrongType })
}

function shapedOf(s: Schema, depth: number): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const)
  if (s.enum) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...s.enum) }, { weight: 1, arbitrary: fc.constant('nope') })
  const alternatives = s.anyOf ?? s.oneOf
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => shapedOf(a, depth)))
  if (s.allOf?.length) return shapedOf(Object.assign({}, ...s.allOf) as Schema, depth)
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type
  switch (type) {
    case 'integer':
      return fc.oneof(
        { weight: 4, arbitrary: ids },
        { weight: 1, arbitrary: fc.constantFrom(0, -1, 2147483648, 1.5, Number.MAX_SAFE_INTEGER) },
        { weight: 1, arbitrary: fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 100_000 }) },
      )
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer())
    case 'boolean':
      return fc.boolean()
    case 'string':
      return textOf(s)
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(valueOf(s.items ?? {}, depth + 1), { maxLength: Math.min(s.maxItems ?? 4, 4) })
    case 'object':
    case undefined:
      return objectOf(s, depth)
    default:
      return wrongType
  }
}

function objectOf(s: Schema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 3) return fc.constant({})
  const props = s.properties ?? {}
  const fields = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valueOf(v, depth + 1)]))
  // Required fields are mostly there; any may be missing.
  const known = Object.keys(props).length
    ? fc.oneof(
        { weight: 6, arbitrary: fc.record(fields, { requiredKeys: (s.required ?? []).filter((k) => k in props) }) },
        { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) },
      )
    : fc.constant({})
  const extra =
    s.additionalProperties && typeof s.additionalProperties === 'object'
      ? fc.dictionary(
          fc.oneof(fc.constantFrom('1', '2', '3', '7', 'meds', 'code'), fc.string({ maxLength: 6 })),
          valueOf(s.additionalProperties, depth + 1),
          { maxKeys: 4 },
        )
      : fc.constant({})
  return fc.tuple(known, extra).map(([a, b]) => ({ ...b, ...(a as object) }))
}

const queryText = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v))

function requestOf(op: Operation): fc.Arbitrary<{ url: string; payload?: unknown; lang: 'zh' | 'en' }> {
  const path = op.parameters.filter((p) => p.in === 'path')
  // A token in the query is refused as such (tests/api/routeGrants.test.ts): the header carries it.
  const query = op.parameters.filter((p) => p.in === 'query' && p.name !== 'token')
  return fc
    .record({
      path: fc.tuple(
        ...path.map(() => fc.oneof({ weight: 6, arbitrary: ids }, { weight: 1, arbitrary: fc.constantFrom('x', '-1', '1.5') })),
      ),
      query: fc.tuple(
        ...query.map((q) =>
          q.required
            ? fc.oneof({ weight: 12, arbitrary: shapedOf(q.schema ?? {}, 0) }, { weight: 1, arbitrary: fc.constant(undefined) })
            : fc.option(valueOf(q.schema ?? {}), { nil: undefined, freq: 2 }),
        ),
      ),
      payload: op.body ? valueOf(op.body) : fc.constant(undefined),
      lang: fc.constantFrom('zh' as const, 'en' as const),
    })
    .map(({ path: pathValues, query: queryValues, payload, lang }) => {
      let url = op.path
      path.forEach((p, i) => (url = url.replace(`{${p.name}}`, encodeURIComponent(String(pathValues[i])))))
      const search = new URLSearchParams()
      query.forEach((q, i) => {
        const v = queryValues[i]
        if (v !== undefined) search.set(q.name, queryText(v))
      })
      const qs = search.toString()
      return { url: qs ? `${url}?${qs}` : url, payload, lang }
    })
}

const han = /[\u4e00-\u9fff]/

let t: TestApp
let token = ''
let operations: Operation[] = []

beforeAll(async () => {
  t = await testApp()
  await createDemoStudy(t.app, t.db.kysely, { password: 'Fuzz-demo-2026', clock: { set: () => {} }, subjects: 12 })
  // The caller's own id stays out of the ids the inputs name, so no input disables or demotes the caller.
  let id = 0
  let username = ''
  for (let n = 0; id <= 7 || id === 1000; n++) {
    username = `fuzz${n}`
    id = await t.createUser(username, 'Fuzz2026pass')
  }
  token = await t.signIn(username, 'Fuzz2026pass')
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>
  }
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, o]) => ({
      method: method.toUpperCase(),
      path,
      parameters: o.parameters ?? [],
      body: o.requestBody?.content?.['application/json']?.schema ?? null,
    })),
  )
}, 120_000)
afterAll(() => t?.close())

describe('every operation of the OpenAPI document, fed inputs from its own schema', () => {
  it('answers without failing inside, and refuses in the envelope in the language asked for', async () => {
    expect(operations.length).toBeGreaterThan(100)
    for (const op of operations.filter((o) => !skipped.includes(`${o.method} ${o.path}`))) {
      await fc.assert(
        fc.asyncProperty(requestOf(op), async (r) => {
          const options: InjectOptions = {
            method: op.method as InjectOptions['method'],
            url: r.url,
            headers: { 'kr-d-token': token, 'accept-language': r.lang },
          }
          if (r.payload !== undefined) {
            options.payload = JSON.stringify(r.payload)
            options.headers = { ...options.headers, 'content-type': 'application/json' }
          }
          const res = await t.app.inject(options)
          const what = `${op.method} ${r.url.slice(0, 200)} ${String(options.payload ?? '').slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`
          expect(res.statusCode, what).toBeLessThan(500)
          expect(res.statusCode, what).not.toBe(401)
          if (res.statusCode < 400) return
          const b = res.json() as { code: number; msg: string }
          expect(b.code, what).toBe(res.statusCode)
          expect(b.msg.length, what).toBeGreaterThan(0)
          // A Chinese answer reads in Chinese (an English one may quote stored Chinese names).
          if (r.lang === 'zh') expect(han.test(b.msg), what).toBe(true)
        }),
        { numRuns: 30 },
      )
    }
  }, 600_000)
})
