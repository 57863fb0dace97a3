import type { LightMyRequestResponse } from 'fastify'
import type { TestApp } from './testApp.ts'

export type Json = { code: number; msg: string; data?: unknown; boolResult?: boolean }
export type Payload = Record<string, unknown>
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/**
 * Calls under `prefix` as the signed-in test user (the app and token are read when a call is
 * made, so a file may set them in beforeAll), and readers of the envelope.
 */
export function apiCalls(app: () => TestApp, token: () => string, prefix: string) {
  const call = (method: Method, url: string, payload?: Payload, lang?: 'zh' | 'en', auth = true) =>
    app().app.inject({
      method,
      url: prefix + url,
      ...(payload ? { payload } : {}),
      headers: { ...(auth ? { 'kr-d-token': token() } : {}), ...(lang ? { 'accept-language': lang } : {}) },
    })
  const json = (res: LightMyRequestResponse) => res.json() as Json
  /** The data of a success; anything else fails the test with the answer. */
  const data = <T>(res: LightMyRequestResponse): T => {
    const b = json(res)
    if (res.statusCode !== 200 || b.code !== 0) throw new Error(`expected success, got ${res.statusCode} ${res.body}`)
    return b.data as T
  }
  return { call, json, data }
}
