// The ofetch client against a real HTTP server (node:http on 127.0.0.1, port 0): SPEC §7, §8.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { z } from 'zod'
import { envelope } from '../../../contract/envelope.ts'
import { endpoint, noData } from '../../../contract/endpoint.ts'
import { call } from '../../../src/api/call.ts'
import {
  ApiError,
  DEFAULT_TIMEOUT_MS,
  ERROR_TOAST_MS,
  configureApi,
  dispositionFileName,
  download,
  get,
  post,
  request,
  type ApiConfig,
  apiMessageKeys,
} from '../../../src/api/client.ts'
import { TOKEN_COOKIE, memoryCookieStorage, session, setCookieStorage, setToken, type CookieStorage } from '../../../src/state/session.ts'

interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify(body))
}

const seen: Seen[] = []
const hanging = new Set<http.ServerResponse>()
const routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void> = {
  '/api/ok': (_q, res) => json(res, 200, { code: 0, msg: 'ok', data: { n: 1 } }),
  '/api/echo': (req, res, body) =>
    json(res, 200, {
      code: 0,
      msg: 'ok',
      data: { token: req.headers['kr-d-token'] ?? null, url: req.url, body, lang: req.headers['accept-language'] ?? null },
    }),
  '/api/code1': (_q, res) => json(res, 200, { code: 1, msg: '保存失败！' }),
  '/api/code1-nomsg': (_q, res) => json(res, 200, { code: 1, msg: '' }),
  '/api/code401': (_q, res) => json(res, 200, { code: 401, msg: '未授权' }),
  '/api/code50014-200': (_q, res) => json(res, 200, { code: 50014, msg: '登录已过期，请重新登录' }),
  '/api/expired': (_q, res) => json(res, 401, { code: 50014, msg: '登录已过期，请重新登录' }),
  '/api/illegal': (_q, res) => json(res, 401, { code: 50008, msg: '非法的令牌，请重新登录' }),
  '/api/ended': (_q, res) => json(res, 401, { code: 50012, msg: '你已在别处登出或令牌已失效，请重新登录' }),
  '/api/http401-code401': (_q, res) => json(res, 401, { code: 401, msg: 'unauthorized' }),
  '/api/http401-plain': (_q, res) => {
    res.writeHead(401, { 'content-type': 'text/plain' })
    res.end('nope')
  },
  '/api/bad400': (_q, res) => json(res, 400, { code: 400, msg: 'username 必填', boolResult: false }),
  '/api/conflict409': (_q, res) =>
    json(res, 409, { code: 409, msg: 'There are research objects under the current queue, deletion failed' }),
  '/api/html500': (_q, res) => {
    res.writeHead(500, { 'content-type': 'text/html' })
    res.end('<html><body><h1>502 Bad Gateway</h1></body></html>')
  },
  '/api/garbage': (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"code": 0, "msg": "ok"')
  },
  '/api/html200': (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<!doctype html><title>app</title>')
  },
  '/api/not-envelope': (_q, res) => json(res, 200, { hello: 'world' }),
  '/api/empty': (_q, res) => {
    res.writeHead(204)
    res.end()
  },
  '/api/wrong-data': (_q, res) => json(res, 200, { code: 0, msg: 'ok', data: { n: 'one' } }),
  '/api/file': (req, res) => {
    res.writeHead(200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('数据字典.csv')}`,
    })
    res.end(`code,lang\nBP,${req.headers['accept-language'] ?? ''}\n`)
  },
  // As the data-loading routes answer: an ASCII stand-in first, the real name in filename*.
  '/api/file-both': (_q, res) => {
    res.writeHead(200, {
      'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'content-disposition': `attachment; filename="____-LC-01.xlsx"; filename*=UTF-8''${encodeURIComponent('数据模板-LC-01.xlsx')}`,
    })
    res.end('x')
  },
  '/api/file-json-refusal': (_q, res) => json(res, 200, { code: 1, msg: '导出失败：没有可导出的指标' }),
  '/api/empty-ok': (_q, res) => json(res, 200, { code: 0, msg: '删除成功' }),
  '/api/never': (_q, res) => void hanging.add(res),
  '/api/reset': (req) => req.socket.destroy(),
  '/api/stall-body': (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('{"code": 0, "msg"')
    hanging.add(res)
  },
}

let server: http.Server
let base: string
let refusedBase: string

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (body += c))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      const route = routes[(req.url ?? '').split('?')[0] ?? '']
      if (route) route(req, res, body)
      else json(res, 404, { code: 404, msg: `not found ${req.url}` })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`

  // A port that was just free: nothing listens there, connections are refused.
  const closed = http.createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  refusedBase = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`
  await new Promise<void>((resolve) => closed.close(() => resolve()))
})

afterAll(async () => {
  for (const res of hanging) res.destroy()
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

/** The injected effects, recorded. */
interface Effects {
  toasts: { message: string; timeout: number }[]
  dialogs: number
  forceLogouts: number
  reloads: number
  answerDialog(relogin: boolean): void
  config: ApiConfig
}

function effects(overrides: Partial<ApiConfig> = {}): Effects {
  const answers: ((v: boolean) => void)[] = []
  const e: Effects = {
    toasts: [],
    dialogs: 0,
    forceLogouts: 0,
    reloads: 0,
    answerDialog: (v) => answers.shift()?.(v),
    config: {
      baseURL: base,
      timeout: 400,
      toast: (message, { timeout }) => void e.toasts.push({ message, timeout }),
      confirmRelogin: () => {
        e.dialogs++
        return new Promise<boolean>((resolve) => answers.push(resolve))
      },
      forceLogout: () => {
        e.forceLogouts++
        // what the app does: clear the session
        session.token = ''
        cookies.remove(TOKEN_COOKIE)
      },
      reload: () => void e.reloads++,
      ...overrides,
    },
  }
  configureApi(e.config)
  return e
}

let cookies: CookieStorage
let errorLog: MockInstance<typeof console.error>
let warnLog: MockInstance<typeof console.warn>

beforeEach(() => {
  seen.length = 0
  cookies = memoryCookieStorage()
  setCookieStorage(cookies)
  errorLog = vi.spyOn(console, 'error').mockImplementation(() => {})
  warnLog = vi.spyOn(console, 'warn').mockImplementation(() => {})
})

afterEach(() => {
  errorLog.mockRestore()
  warnLog.mockRestore()
})

/** Settles the promise, failing the test if it resolves. */
async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => {
      throw new Error('expected a rejection')
    },
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(ApiError)
  return e as ApiError
}

const tick = () => new Promise((r) => setTimeout(r, 20))

describe('success', () => {
  it('resolves the envelope of code 0 with no effect', async () => {
    const fx = effects()
    await expect(get<{ n: number }>('api/ok')).resolves.toEqual({ code: 0, msg: 'ok', data: { n: 1 } })
    expect(fx.toasts).toEqual([])
    expect(fx.forceLogouts + fx.reloads + fx.dialogs).toBe(0)
    expect(errorLog).not.toHaveBeenCalled()
  })

  it('sends a JSON body and query parameters', async () => {
    effects()
    const res = await post<{ url: string; body: string }>('api/echo', { username: 'alice', n: 2 }, { token: 't', userId: 3 })
    expect(seen[0]?.method).toBe('POST')
    expect(seen[0]?.headers['content-type']).toBe('application/json')
    expect(JSON.parse(res.data?.body ?? '')).toEqual({ username: 'alice', n: 2 })
    expect(res.data?.url).toBe('/api/echo?token=t&userId=3')
  })

  it('validates a successful envelope against a schema when one is given', async () => {
    const fx = effects()
    const schema = envelope(z.object({ n: z.number() }))
    await expect(get('api/ok', undefined, { schema })).resolves.toMatchObject({ data: { n: 1 } })
    const e = await rejection(get('api/wrong-data', undefined, { schema }))
    expect(e.kind).toBe('invalid')
    expect(fx.toasts).toEqual([{ message: 'The server sent an invalid response', timeout: 5000 }])
  })
})

describe('the Kr-D-Token header', () => {
  it('is sent with the stored token', async () => {
    effects()
    setToken('tok-123')
    expect(cookies.get('Kr-D-Token')).toBe('tok-123')
    const res = await get<{ token: string | null }>('api/echo')
    expect(res.data?.token).toBe('tok-123')
    expect(seen[0]?.headers['kr-d-token']).toBe('tok-123')
  })

  it('is not sent when there is no token', async () => {
    effects()
    await get('api/echo')
    expect(seen[0]?.headers).not.toHaveProperty('kr-d-token')
  })

  it('follows the cookie: a removed cookie stops the header', async () => {
    effects()
    setToken('tok-1')
    cookies.remove(TOKEN_COOKIE)
    await get('api/echo')
    expect(seen[0]?.headers).not.toHaveProperty('kr-d-token')
  })

  it('carries the app language as Accept-Language when configured', async () => {
    effects({ language: () => 'en' })
    const res = await get<{ lang: string | null }>('api/echo')
    expect(res.data?.lang).toBe('en')
  })
})

describe('non-zero codes (SPEC §8)', () => {
  it('code 1: error toast with msg for 5000 ms, rejection carrying the envelope', async () => {
    const fx = effects()
    const e = await rejection(post('api/code1', { a: 1 }))
    expect(fx.toasts).toEqual([{ message: '保存失败！', timeout: 5000 }])
    expect(e.kind).toBe('code')
    expect(e.code).toBe(1)
    expect(e.message).toBe('保存失败！')
    expect(e.status).toBe(200)
    expect(fx.forceLogouts + fx.reloads + fx.dialogs).toBe(0)
  })

  it('a code without msg still toasts something', async () => {
    const fx = effects()
    await rejection(get('api/code1-nomsg'))
    expect(fx.toasts).toEqual([{ message: 'Error', timeout: 5000 }])
  })

  it('code 401: toast, forced logout and reload', async () => {
    const fx = effects()
    setToken('tok')
    const e = await rejection(get('api/code401'))
    expect(e.code).toBe(401)
    expect(fx.toasts).toEqual([{ message: '未授权', timeout: 5000 }])
    expect(fx.forceLogouts).toBe(1)
    expect(fx.reloads).toBe(1)
    expect(fx.dialogs).toBe(0)
    expect(cookies.get(TOKEN_COOKIE)).toBeUndefined()
  })

  it('code 50014 in a 2xx answer: toast and the re-login dialog', async () => {
    const fx = effects()
    await rejection(get('api/code50014-200'))
    expect(fx.toasts).toEqual([{ message: '登录已过期，请重新登录', timeout: 5000 }])
    expect(fx.dialogs).toBe(1)
    fx.answerDialog(false)
  })
})

describe('re-login dialog for 50008 / 50012 / 50014 answered with HTTP 401', () => {
  it.each([
    ['api/expired', 50014],
    ['api/illegal', 50008],
    ['api/ended', 50012],
  ])('%s: no toast, the dialog, rejection', async (path, code) => {
    const fx = effects()
    const e = await rejection(get(path))
    expect(e.status).toBe(401)
    expect(e.code).toBe(code)
    expect(fx.toasts).toEqual([])
    expect(fx.dialogs).toBe(1)
    expect(fx.forceLogouts + fx.reloads).toBe(0)
    fx.answerDialog(false)
  })

  it('opens one dialog for many failing calls; confirming clears the session and reloads', async () => {
    const fx = effects()
    setToken('old')
    const errors = await Promise.all([rejection(get('api/expired')), rejection(get('api/ended')), rejection(post('api/illegal'))])
    expect(errors.map((e) => e.code)).toEqual([50014, 50012, 50008])
    expect(fx.dialogs).toBe(1)
    // still open: another failure does not stack a second dialog
    await rejection(get('api/expired'))
    expect(fx.dialogs).toBe(1)
    fx.answerDialog(true)
    await tick()
    expect(fx.forceLogouts).toBe(1)
    expect(fx.reloads).toBe(1)
    expect(cookies.get(TOKEN_COOKIE)).toBeUndefined()
    expect(fx.toasts).toEqual([])
  })

  it('cancelling keeps the session; a later failure asks again', async () => {
    const fx = effects()
    setToken('old')
    await rejection(get('api/expired'))
    fx.answerDialog(false)
    await tick()
    expect(fx.forceLogouts + fx.reloads).toBe(0)
    expect(cookies.get(TOKEN_COOKIE)).toBe('old')
    await rejection(get('api/expired'))
    expect(fx.dialogs).toBe(2)
    fx.answerDialog(false)
  })

  it('a dialog that fails is logged and does not block the next one', async () => {
    let calls = 0
    effects({
      confirmRelogin: () => {
        calls++
        return Promise.reject(new Error('no dialog host'))
      },
    })
    await rejection(get('api/expired'))
    await tick()
    await rejection(get('api/expired'))
    expect(calls).toBe(2)
  })
})

describe('HTTP 401 without a re-login code', () => {
  it('code 401 in an HTTP 401: forced logout and reload, no toast', async () => {
    const fx = effects()
    const e = await rejection(get('api/http401-code401'))
    expect(e.status).toBe(401)
    expect(fx.toasts).toEqual([])
    expect(fx.forceLogouts).toBe(1)
    expect(fx.reloads).toBe(1)
  })

  it('a non-envelope HTTP 401: no toast, no logout, rejected', async () => {
    const fx = effects()
    const e = await rejection(get('api/http401-plain'))
    expect(e.kind).toBe('http')
    expect(e.status).toBe(401)
    expect(fx.toasts).toEqual([])
    expect(fx.forceLogouts + fx.reloads + fx.dialogs).toBe(0)
  })
})

describe('transport failures: toast with the error message for 5000 ms, rejection', () => {
  it('HTTP 400 with an envelope: the server message, boolResult false readable', async () => {
    const fx = effects()
    const e = await rejection(post('api/bad400', { username: '' }))
    expect(fx.toasts).toEqual([{ message: 'username 必填', timeout: 5000 }])
    expect(e.status).toBe(400)
    expect(e.envelope?.boolResult).toBe(false)
  })

  it('HTTP 409 with an envelope: the server message', async () => {
    const fx = effects()
    await rejection(post('api/conflict409'))
    expect(fx.toasts).toEqual([{ message: 'There are research objects under the current queue, deletion failed', timeout: 5000 }])
  })

  it('HTTP 500 with HTML: the status message, asked once (no retry)', async () => {
    const fx = effects()
    const e = await rejection(get('api/html500'))
    expect(e.kind).toBe('http')
    expect(e.status).toBe(500)
    expect(fx.toasts).toEqual([{ message: 'Request failed with status code 500', timeout: 5000 }])
    expect(seen.filter((s) => s.url === '/api/html500')).toHaveLength(1)
    expect(fx.forceLogouts + fx.reloads + fx.dialogs).toBe(0)
  })

  it('an unknown path (HTTP 404 envelope)', async () => {
    const fx = effects()
    const e = await rejection(get('api/nowhere'))
    expect(e.status).toBe(404)
    expect(fx.toasts).toEqual([{ message: 'not found /api/nowhere', timeout: 5000 }])
  })

  it.each(['api/garbage', 'api/html200', 'api/not-envelope', 'api/empty'])('%s: 2xx that is not a JSON envelope', async (path) => {
    const fx = effects()
    const e = await rejection(get(path))
    expect(e.kind).toBe('invalid')
    expect(fx.toasts).toEqual([{ message: 'The server sent an invalid response', timeout: 5000 }])
  })

  it('a server that never answers: time-out toast and rejection, no hang', async () => {
    const fx = effects({ timeout: 300 })
    const started = Date.now()
    const e = await rejection(get('api/never'))
    expect(Date.now() - started).toBeLessThan(2000)
    expect(e.kind).toBe('timeout')
    expect(fx.toasts).toEqual([{ message: 'Request timed out after 300 ms', timeout: 5000 }])
  })

  it('a body that starts and never ends also times out', async () => {
    const fx = effects({ timeout: 300 })
    const e = await rejection(get('api/stall-body'))
    expect(e.kind).toBe('timeout')
    expect(fx.toasts).toHaveLength(1)
  })

  it('a time-out per call overrides the configured one', async () => {
    const fx = effects({ timeout: 10_000 })
    const e = await rejection(get('api/never', undefined, { timeout: 150 }))
    expect(e.kind).toBe('timeout')
    expect(fx.toasts[0]?.message).toBe('Request timed out after 150 ms')
  })

  it('the default time-out is 50000 ms', async () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(50_000)
    const fx = effects()
    const { timeout: _t, ...rest } = fx.config
    configureApi(rest)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      let settled = false
      const p = rejection(get('api/never')).finally(() => (settled = true))
      await vi.advanceTimersByTimeAsync(49_900)
      expect(settled).toBe(false)
      await vi.advanceTimersByTimeAsync(200)
      const e = await p
      expect(e.kind).toBe('timeout')
      expect(fx.toasts).toEqual([{ message: 'Request timed out after 50000 ms', timeout: 5000 }])
    } finally {
      vi.useRealTimers()
    }
  })

  it('connection refused: network toast and rejection', async () => {
    const fx = effects({ baseURL: refusedBase })
    const e = await rejection(post('api/ok', { a: 1 }))
    expect(e.kind).toBe('network')
    expect(fx.toasts).toEqual([{ message: 'Network Error: the server cannot be reached', timeout: 5000 }])
    expect(fx.forceLogouts + fx.reloads + fx.dialogs).toBe(0)
  })

  it('a connection dropped mid-call: network toast, asked once (no retry of a GET)', async () => {
    const fx = effects()
    const e = await rejection(get('api/reset'))
    expect(e.kind).toBe('network')
    expect(fx.toasts).toEqual([{ message: 'Network Error: the server cannot be reached', timeout: 5000 }])
    expect(seen.filter((s) => s.url === '/api/reset')).toHaveLength(1)
  })

  it('messages come from the injected translate, with {0} filled', async () => {
    const zh: Record<string, string> = { [apiMessageKeys.http]: '请求失败，状态码 {0}', [apiMessageKeys.timeout]: '请求超时（{0} 毫秒）' }
    const fx = effects({ translate: (k) => zh[k] ?? k, timeout: 100 })
    await rejection(get('api/html500'))
    await rejection(get('api/never'))
    await rejection(get('api/garbage')) // key missing: the English fallback
    expect(fx.toasts.map((t) => t.message)).toEqual(['请求失败，状态码 500', '请求超时（100 毫秒）', 'The server sent an invalid response'])
  })
})

describe('options, logging and robustness', () => {
  it('logs an interface error with its URL, hiding token values, in one line without a stack', async () => {
    effects()
    await rejection(get('api/html500', { token: 'secret-token', id: 7 }))
    expect(errorLog).toHaveBeenCalledTimes(1)
    expect(errorLog.mock.calls[0]).toHaveLength(1)
    const line = String(errorLog.mock.calls[0]?.[0])
    expect(line).toContain(`GET ${base}api/html500?token=***&id=7`)
    expect(line).not.toContain('secret-token')
  })

  it('a handled refusal (a code, a 4xx) writes no console.error: one console.warn line, no stack', async () => {
    effects()
    await rejection(get('api/code1', { token: 'secret-token' }))
    await rejection(get('api/bad400'))
    await rejection(get('api/conflict409'))
    expect(errorLog).not.toHaveBeenCalled()
    expect(warnLog).toHaveBeenCalledTimes(3)
    for (const call of warnLog.mock.calls) {
      expect(call).toHaveLength(1)
      expect(String(call[0])).not.toMatch(/\n\s+at /)
    }
    expect(String(warnLog.mock.calls[0]?.[0])).toContain(`GET ${base}api/code1?token=***`)
  })

  it('toast: false rejects without a toast; sessionEffects: false without logout or dialog', async () => {
    const fx = effects()
    await rejection(get('api/code1', undefined, { toast: false }))
    await rejection(get('api/code401', undefined, { toast: false, sessionEffects: false }))
    await rejection(get('api/expired', undefined, { sessionEffects: false }))
    expect(fx.toasts).toEqual([])
    expect(fx.forceLogouts + fx.reloads + fx.dialogs).toBe(0)
  })

  it('toast as a function leaves the refusals it declines to the caller, and toasts the others', async () => {
    const fx = effects()
    const conflictIsAsked = (e: ApiError) => e.status !== 409
    await rejection(get('api/conflict409', undefined, { toast: conflictIsAsked }))
    expect(fx.toasts).toEqual([])
    await rejection(get('api/bad400', undefined, { toast: conflictIsAsked }))
    expect(fx.toasts.map((t) => t.message)).toEqual(['username 必填'])
  })

  it('a caller abort rejects without a toast', async () => {
    const fx = effects({ timeout: 5000 })
    const controller = new AbortController()
    const p = rejection(request('GET', 'api/never', { signal: controller.signal }))
    await tick()
    controller.abort()
    const e = await p
    expect(e.kind).toBe('aborted')
    expect(fx.toasts).toEqual([])
  })

  it('effects that throw do not turn a rejection into something else', async () => {
    effects({
      toast: () => {
        throw new Error('no toaster')
      },
      forceLogout: () => {
        throw new Error('boom')
      },
    })
    const e = await rejection(get('api/code401'))
    expect(e.code).toBe(401)
  })
})

describe('downloads go through the same client', () => {
  it('send the session header and the language, and hand back the file with its name', async () => {
    effects({ language: () => 'en' })
    setToken('tok-dl')
    const file = await download('api/file', { format: 'csv', q: undefined })
    expect(seen[0]?.url).toBe('/api/file?format=csv')
    expect(seen[0]?.headers['kr-d-token']).toBe('tok-dl')
    expect(seen[0]?.headers['accept-language']).toBe('en')
    expect(file.filename).toBe('数据字典.csv')
    expect(await file.blob.text()).toBe('code,lang\nBP,en\n')
  })

  it('name the file by filename* (its Chinese kept) rather than the ASCII filename beside it', async () => {
    effects()
    expect((await download('api/file-both')).filename).toBe('数据模板-LC-01.xlsx')
  })

  it('a 401 with 50012 opens the re-login dialog like any call, without a toast', async () => {
    const fx = effects()
    const e = await rejection(download('api/ended'))
    expect(e.code).toBe(50012)
    expect(fx.dialogs).toBe(1)
    expect(fx.toasts).toEqual([])
    fx.answerDialog(true)
    await tick()
    expect(fx.forceLogouts).toBe(1)
    expect(fx.reloads).toBe(1)
  })

  it('code 401 logs out; a JSON refusal toasts the server’s message', async () => {
    const fx = effects()
    await rejection(download('api/code401'))
    expect(fx.forceLogouts).toBe(1)
    const e = await rejection(download('api/bad400'))
    expect(e.message).toBe('username 必填')
    const refused = await rejection(download('api/file-json-refusal'))
    expect(refused.message).toBe('导出失败：没有可导出的指标')
    expect(fx.toasts.map((t) => t.message)).toEqual(['未授权', 'username 必填', '导出失败：没有可导出的指标'])
    expect(errorLog).not.toHaveBeenCalled()
  })
})

describe('typed calls (src/api/call.ts)', () => {
  const echo = endpoint({
    method: 'POST',
    input: z.object({ id: z.number().int().positive(), note: z.string() }),
    output: z.object({ url: z.string(), body: z.string() }),
    request: ({ id, note }) => ({ path: 'api/echo', query: { id }, body: { note } }),
  })
  const gone = endpoint({
    method: 'DELETE',
    input: z.object({ id: z.number() }),
    output: noData,
    request: () => ({ path: 'api/empty-ok' }),
  })
  const wrong = endpoint({
    method: 'GET',
    input: z.object({}),
    output: z.object({ n: z.number() }),
    request: () => ({ path: 'api/wrong-data' }),
  })

  it('sends the request the endpoint builds and parses the answer with its output schema', async () => {
    effects()
    const out = await call(echo, { id: 3, note: 'x' })
    expect(out).toEqual({ url: '/api/echo?id=3', body: '{"note":"x"}' })
  })

  it("refuses a bad input before anything is sent, naming its field in the user's language", async () => {
    const fx = effects({ translate: (key) => (key === 'request.badInput' ? '请求未发送：{0} 不合法' : key) })
    const e = await rejection(call(echo, { id: -1, note: 'x' }))
    expect(seen).toEqual([])
    expect(e.kind).toBe('input')
    expect(e.message).toBe('请求未发送：id 不合法')
    expect(fx.toasts).toEqual([{ message: '请求未发送：id 不合法', timeout: ERROR_TOAST_MS }])
  })

  it('a bad input is not toasted when the caller shows failures itself', async () => {
    const fx = effects()
    const e = await rejection(call(echo, { id: 1, note: 2 } as unknown as { id: number; note: string }, { toast: false }))
    expect(e.message).toBe('The request was not sent: note is not valid')
    expect(fx.toasts).toEqual([])
  })

  it('an answer without data suits an endpoint that expects none; a wrong one is an invalid response', async () => {
    const fx = effects()
    await expect(call(gone, { id: 1 })).resolves.toBeUndefined()
    const e = await rejection(call(wrong, {}))
    expect(e.kind).toBe('invalid')
    expect(fx.toasts).toHaveLength(1)
  })
})

describe('the file name of a Content-Disposition (RFC 6266)', () => {
  it.each([
    [`attachment; filename="a.xlsx"; filename*=UTF-8''%E6%95%B0%E6%8D%AE.xlsx`, '数据.xlsx'],
    [`attachment; filename*=UTF-8''%E6%95%B0%E6%8D%AE.xlsx; filename="a.xlsx"`, '数据.xlsx'],
    [`attachment; FILENAME*=utf-8'zh'%E6%95%B0.csv`, '数.csv'],
    [`attachment; filename*=ISO-8859-1''caf%E9.csv`, 'café.csv'],
    [`attachment; filename="report.csv"`, 'report.csv'],
    [`attachment; filename=report.csv`, 'report.csv'],
    [`attachment; filename="say \\"hi\\".txt"`, 'say "hi".txt'],
    [`attachment; filename="fallback.csv"; filename*=UTF-8''%E6%ZZ`, 'fallback.csv'],
    [`attachment`, null],
    [null, null],
  ])('%j names %j', (header, name) => {
    expect(dispositionFileName(header)).toBe(name)
  })
})
