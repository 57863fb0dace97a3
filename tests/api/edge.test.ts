import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { LightMyRequestResponse } from 'fastify'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { userPaths } from '../../contract/users.ts'
import { multipart } from '../support/multipart.ts'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/**
 * The server's edge: what Fastify and Node refuse themselves answers in the envelope and the
 * caller's language; numbers past the database's range and NUL bytes are bad input (400), on
 * SQLite and PostgreSQL alike; safety headers; no session token in the request log.
 */

let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})
const start = async (opts: Parameters<typeof testApp>[0] = {}) => (t = await testApp(opts))

async function signedIn(opts: Parameters<typeof testApp>[0] = {}) {
  const app = await start(opts)
  await app.createUser('dm', 'abc123')
  const token = await app.signIn('dm', 'abc123')
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, lang?: string) =>
    app.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      headers: { 'kr-d-token': token, ...(lang ? { 'accept-language': lang } : {}) },
    })
  return { app, token, call }
}

function expect400(res: LightMyRequestResponse, msg: string | RegExp) {
  expect(res.statusCode, res.body).toBe(400)
  const b = body(res)
  expect(b.code).toBe(400)
  if (typeof msg === 'string') expect(b.msg).toBe(msg)
  else expect(b.msg).toMatch(msg)
}

/** Raw bytes to a listening server; the whole answer, until the server closes the connection. */
async function rawExchange(app: TestApp, request: string | Buffer): Promise<string> {
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = new URL(address)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request))
    let answer = ''
    socket.on('data', (d) => (answer += d.toString('utf8')))
    socket.on('close', () => resolve(answer))
    socket.on('error', (e) => ((e as { code?: string }).code === 'ECONNRESET' ? resolve(answer) : reject(e)))
  })
}

function parseRaw(answer: string) {
  const [head = '', payload = ''] = answer.split('\r\n\r\n')
  return { status: Number(head.split(' ')[1]), head, json: JSON.parse(payload) as unknown }
}

describe('refusals Node and Fastify answer themselves', () => {
  it('headers over the limit → 431 in the envelope, in the caller’s language', async () => {
    const app = await start()
    const big = 'x'.repeat(20 * 1024)
    const zh = parseRaw(await rawExchange(app, `GET /api/health HTTP/1.1\r\nHost: a\r\nX-Big: ${big}\r\n\r\n`))
    expect(zh.status).toBe(431)
    expect(zh.head).toMatch(/content-type: application\/json/i)
    expect(zh.json).toEqual({ code: 431, msg: '请求头过大' })
    await app.close()
    t = undefined
    const app2 = await start()
    const en = parseRaw(await rawExchange(app2, `GET /api/health HTTP/1.1\r\nHost: a\r\nAccept-Language: en\r\nX-Big: ${big}\r\n\r\n`))
    expect(en).toMatchObject({ status: 431, json: { code: 431, msg: 'The request headers are too large' } })
  })

  it('malformed HTTP → 400 in the envelope', async () => {
    const app = await start()
    const res = parseRaw(await rawExchange(app, 'HELLO\r\n\r\n'))
    expect(res).toMatchObject({ status: 400, json: { code: 400, msg: '请求格式不正确，无法解析' } })
  })

  it('a request line Node cannot parse, with Accept-Language: en → 400 in English', async () => {
    const app = await start()
    const res = parseRaw(await rawExchange(app, 'GET /api/health HTTP/1.1\r\nHost: a\r\nAccept-Language: en\r\nContent-Length: x\r\n\r\n'))
    expect(res).toMatchObject({ status: 400, json: { code: 400, msg: 'The request is malformed and cannot be read' } })
  })

  it('a URL the router cannot decode → 400 in the envelope', async () => {
    const app = await start()
    const zh = await app.app.inject({ method: 'GET', url: '/api/dictionary/indicators/%E0%A4%A?token=secret' })
    expect400(zh, '请求地址不合法：/api/dictionary/indicators/%E0%A4%A')
    const en = await app.app.inject({ method: 'GET', url: '/api/x/%zz', headers: { 'accept-language': 'en' } })
    expect400(en, 'The request address is not valid: /api/x/%zz')
  })

  it('a body over the limit → 413 in the caller’s language, once the session is known', async () => {
    const { app, call } = await signedIn({ bodyLimit: 512 })
    const res = await call('POST', '/api/dictionary/diseases', { name: 'x'.repeat(600) }, 'en')
    expect(res.statusCode).toBe(413)
    expect(body(res)).toEqual({ code: 413, msg: 'The request body is too large; the limit is 512 bytes' })
    // Without a session the body is never read: the refusal is the session's.
    const anonymous = await app.app.inject({ method: 'POST', url: '/api/dictionary/diseases', payload: { name: 'x'.repeat(600) } })
    expect(anonymous.statusCode).toBe(401)
  })

  it('unknown routes and wrong methods → 404 naming the call, in the caller’s language', async () => {
    const { call } = await signedIn()
    const wrongMethod = await call('DELETE', '/api/dictionary/timeline', undefined, 'en')
    expect(wrongMethod.statusCode).toBe(404)
    expect(body(wrongMethod)).toEqual({ code: 404, msg: 'No such interface: DELETE /api/dictionary/timeline' })
    const unknown = await call('GET', '/api/dictionary/nothing')
    expect(body(unknown)).toEqual({ code: 404, msg: '接口不存在：GET /api/dictionary/nothing' })
  })
})

describe('numbers past the database’s range', () => {
  it('an id of 2147483648 in a path, query or body → 400 naming it; 2147483647 → 404', async () => {
    const { call } = await signedIn()
    expect400(await call('GET', '/api/dictionary/indicators/2147483648'), 'id 不能大于 2147483647')
    expect400(await call('GET', '/api/dictionary/diseases/2147483648', undefined, 'en'), 'id must be at most 2147483647')
    expect400(await call('GET', '/api/templates/1/versions/2147483648'), 'version 不能大于 2147483647')
    expect400(await call('GET', '/api/dictionary/indicators?diseaseId=2147483648'), 'diseaseId 不能大于 2147483647')
    expect400(await call('GET', '/api/scientific/form/checkHasCrfFormGenerateToDb?id=99999999999'), 'id 不能大于 2147483647')
    expect400(await call('DELETE', '/api/templates/0'), 'id 不能小于 1')
    const indicator = { code: 'A1', nameZh: '甲', type: 'blank', display: 'input', diseaseId: 2147483648 }
    expect400(await call('POST', '/api/dictionary/indicators', indicator), 'diseaseId 不能大于 2147483647')
    expect400(await call('POST', '/api/templates', { name: 'T', preposeIds: [2147483648] }), 'preposeIds.0 不能大于 2147483647')
    const found = await call('GET', '/api/dictionary/indicators/2147483647')
    expect(found.statusCode).toBe(404)
  })
})

describe('ids spelled otherwise than in plain decimal digits', () => {
  it('are refused 400 as not an integer, in a path, a query and an id list, in zh and en, and change nothing', async () => {
    const { app, call } = await signedIn()
    const created = body(await call('POST', '/api/dictionary/diseases', { name: '边界病种' })).data as { id: number }
    const id = created.id
    const diseases = () => app.db.kysely.selectFrom('disease').select(['id', 'name']).orderBy('id').execute()
    const before = await diseases()
    for (const spelling of [`${id}e0`, `0x${id.toString(16)}`, `%20${id}`, `${id}%20`, `%2B${id}`, `${id}.0`, `${id}.`, `${id},`]) {
      // Each was read as the disease's id: the delete went through.
      expect400(await call('DELETE', `/api/dictionary/diseases/${spelling}`), 'id 的类型不正确，应为整数')
      expect400(await call('DELETE', `/api/dictionary/diseases/${spelling}`, undefined, 'en'), 'id has the wrong type; expected an integer')
      expect400(await call('GET', `/api/dictionary/indicators?diseaseId=${spelling}`), 'diseaseId 的类型不正确，应为整数')
      expect400(
        await call('GET', `/api/dictionary/indicators?diseaseId=${spelling}`, undefined, 'en'),
        'diseaseId has the wrong type; expected an integer',
      )
    }
    expect(await diseases()).toEqual(before)
    // A list of ids in a query string holds plain digits too.
    expect400(
      await call('GET', `/api/scientific/dataloader/downloadTemplate?studyId=1&templateIds=1,1e1`, undefined, 'en'),
      'form ids (item 2) has the wrong type; expected an integer',
    )
    // Plain digits still read, leading zeros and all.
    expect((await call('GET', `/api/dictionary/diseases/${id}`)).statusCode).toBe(200)
    expect((await call('GET', `/api/dictionary/diseases/00${id}`)).statusCode).toBe(200)
    expect((await call('DELETE', `/api/dictionary/diseases/${id}`)).statusCode).toBe(200)
    expect(await diseases()).toEqual(before.filter((d) => d.id !== id))
  })
})

describe('page sizes, statuses and picture types spelled otherwise than in plain decimal digits', () => {
  it('are refused 400 as not an integer in a query, in zh and en, and change nothing', async () => {
    const { app, call, token } = await signedIn()
    const dataDir = (app.app.ctx.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-')))
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }))
    const userId = (await app.db.kysely.selectFrom('account').select('user_id').where('username', '=', 'dm').executeTakeFirstOrThrow())
      .user_id
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
    const upload = (type: string, lang: string) => {
      const { payload, contentType } = multipart('me.png', png)
      return app.app.inject({
        method: 'POST',
        url: `/${userPaths.pictureUpload}?type=${type}&objectId=${userId}`,
        payload,
        headers: { 'content-type': contentType, 'kr-d-token': token, 'accept-language': lang },
      })
    }
    const person = () => app.db.kysely.selectFrom('app_user').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
    const before = await person()
    // Each was read as 10 (or 1, or 3): a page of ten, the active people, the avatar stored.
    for (const [ten, one, three] of [
      ['1e1', '1e0', '3e0'],
      ['0x0a', '0x1', '0x3'],
      ['%2010', '%201', '%203'],
      ['10%20', '1%20', '3%20'],
      ['%2B10', '%2B1', '%2B3'],
      ['10.0', '1.0', '3.0'],
    ]) {
      expect400(await call('GET', `/api/dictionary/indicators?limit=${ten}`), '每页条数 的类型不正确，应为整数')
      expect400(
        await call('GET', `/api/dictionary/indicators?limit=${ten}`, undefined, 'en'),
        'page size has the wrong type; expected an integer',
      )
      expect400(await call('GET', `/${userPaths.users}?status=${one}`), '状态 的类型不正确，应为整数')
      expect400(await call('GET', `/${userPaths.users}?status=${one}`, undefined, 'en'), 'status has the wrong type; expected an integer')
      expect400(await upload(three!, 'zh'), '类型 的类型不正确，应为整数')
      expect400(await upload(three!, 'en'), 'type has the wrong type; expected an integer')
    }
    expect(await person()).toEqual(before)
    // Plain digits still read, leading zeros and all.
    expect((await call('GET', '/api/dictionary/indicators?limit=010')).statusCode).toBe(200)
    expect((await call('GET', `/${userPaths.users}?status=1`)).statusCode).toBe(200)
    expect((await upload('3', 'en')).statusCode).toBe(200)
  })
})

describe('a forged list cursor', () => {
  it('with an id past the range or a NUL byte → 400 naming after', async () => {
    const { call } = await signedIn()
    const cursor = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64url')
    for (const forged of [
      ['A', 2147483648],
      ['A\u0000', 1],
      ['A', 0],
      ['A', 1.5],
    ]) {
      expect400(await call('GET', `/api/dictionary/indicators?after=${cursor(forged)}`), '分页位置 的值不合法')
    }
    expect((await call('GET', `/api/dictionary/indicators?after=${cursor(['A', 2147483647])}`)).statusCode).toBe(200)
  })
})

describe('NUL bytes', () => {
  it('a disease named "a\\u0000b" → 400 naming the field, nothing written', async () => {
    const { app, call } = await signedIn()
    const before = await app.db.kysely.selectFrom('disease').select('id').execute()
    expect400(await call('POST', '/api/dictionary/diseases', { name: 'a\u0000b' }), 'name 含有不允许的空字符（U+0000）')
    expect400(
      await call('POST', '/api/dictionary/diseases', { name: 'a\u0000b' }, 'en'),
      'name contains a NUL character (U+0000), which is not allowed',
    )
    expect(await app.db.kysely.selectFrom('disease').select('id').execute()).toEqual(before)
  })

  it('in a nested body value, a key, a query or a path → 400', async () => {
    const { call } = await signedIn()
    const indicator = { code: 'A1', nameZh: '甲', type: 'single', display: 'radio', options: ['一', 'b\u0000'] }
    expect400(await call('POST', '/api/dictionary/indicators', indicator), 'options.1 含有不允许的空字符（U+0000）')
    expect400(await call('POST', '/api/dictionary/diseases', { name: 'a', ['x\u0000']: 1 }), /^x\u0000 含有不允许的空字符/)
    expect400(await call('GET', '/api/dictionary/indicators?q=a%00b'), 'q 含有不允许的空字符（U+0000）')
    expect400(await call('GET', '/api/dictionary/indicators/1%00'), 'id 含有不允许的空字符（U+0000）')
  })
})

describe('a body the schema refuses', () => {
  it('reads as a sentence in zh and en: Chinese type words, English counts; nothing written', async () => {
    const { app, call } = await signedIn()
    const templates = () => app.db.kysely.selectFrom('template').select('id').execute()
    const before = await templates()
    const cases: [unknown, string, string][] = [
      [{ name: 5 }, 'name 的类型不正确，应为文本', 'name has the wrong type; expected text'],
      [{ name: 'T', preposeIds: 'x' }, 'preposeIds 的类型不正确，应为列表', 'preposeIds has the wrong type; expected a list'],
      [{ name: 'T', preposeIds: [1.5] }, 'preposeIds.0 的类型不正确，应为整数', 'preposeIds.0 has the wrong type; expected an integer'],
      [{ name: 'T', preposeIds: Array(51).fill(1) }, 'preposeIds 不能超过 50 项', 'preposeIds must have at most 50 items'],
      [{ name: 'x'.repeat(101) }, 'name 长度不能超过 100 个字符', 'name must be at most 100 characters'],
      [{ name: 'T', status: 2 }, '状态 的值不合法，应为以下之一：0、1', 'status must be one of: 0, 1'],
      [
        { name: 'T', collectType: 'daily' },
        'collectType 的值不合法，应为以下之一：all、object、followUp、interview、biomaterial、other',
        'collectType must be one of: all, object, followUp, interview, biomaterial, other',
      ],
      [[], '请求体 的类型不正确，应为对象', 'request body has the wrong type; expected an object'],
    ]
    for (const [payload, zh, en] of cases) {
      expect400(await call('POST', '/api/templates', payload), zh)
      expect400(await call('POST', '/api/templates', payload, 'en'), en)
    }
    expect(await templates()).toEqual(before)
  })

  it('a query string of the wrong types, by the labels of its fields', async () => {
    const { call } = await signedIn()
    const refused: [string, string, string][] = [
      ['limit=x', '每页条数 的类型不正确，应为整数', 'page size has the wrong type; expected an integer'],
      ['limit=1.5', '每页条数 的类型不正确，应为整数', 'page size has the wrong type; expected an integer'],
      ['diseaseId=abc', 'diseaseId 的类型不正确，应为整数', 'diseaseId has the wrong type; expected an integer'],
    ]
    for (const [query, zh, en] of refused) {
      expect400(await call('GET', `/api/dictionary/indicators?${query}`), zh)
      expect400(await call('GET', `/api/dictionary/indicators?${query}`, undefined, 'en'), en)
    }
  })
})

describe('safety headers', () => {
  const expectSafetyHeaders = (res: LightMyRequestResponse) => {
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("style-src 'self' 'unsafe-inline'")
    expect(csp).not.toContain('upgrade-insecure-requests')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['x-frame-options']).toBe('DENY')
  }

  it('on the API, its refusals and the HTML of the app', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-static-'))
    try {
      fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>app</title>')
      const app = await start({ staticRoot: root })
      expectSafetyHeaders(await app.app.inject({ method: 'GET', url: '/api/health' }))
      expectSafetyHeaders(await app.app.inject({ method: 'GET', url: '/api/dictionary/diseases' }))
      expectSafetyHeaders(await app.app.inject({ method: 'GET', url: '/api/nope' }))
      const html = await app.app.inject({ method: 'GET', url: '/project/multi-list' })
      expect(html.headers['content-type']).toMatch(/^text\/html/)
      expectSafetyHeaders(html)
      expectSafetyHeaders(await app.app.inject({ method: 'GET', url: '/index.html' }))
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })
})

describe('the built client', () => {
  it("serves deep links as the app's page, but a missing build file as 404, not as that page", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-static-'))
    try {
      fs.mkdirSync(path.join(root, 'assets'))
      fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>app</title>')
      fs.writeFileSync(path.join(root, 'assets', 'index-new.js'), 'export {}')
      const app = await start({ staticRoot: root })
      const page = await app.app.inject({ method: 'GET', url: '/project/patientDetail?studyId=1&id=2' })
      expect([page.statusCode, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8'])
      const current = await app.app.inject({ method: 'GET', url: '/assets/index-new.js' })
      expect(current.statusCode).toBe(200)
      // A screen of the build before an update, asked for by a tab opened before it.
      const old = await app.app.inject({ method: 'GET', url: '/assets/ProgressPage-old.js' })
      expect(old.statusCode).toBe(404)
      expect(old.headers['content-type']).not.toMatch(/text\/html/)
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })
})

describe('the request log', () => {
  it('never holds a session token sent as ?token=', async () => {
    const lines: string[] = []
    const { app, token } = await signedIn({ logger: { write: (line: string) => void lines.push(line) } })
    const res = await app.app.inject({ method: 'GET', url: `/api/admin/user/front/info?token=${token}&x=1` })
    expect(res.statusCode).toBe(200)
    await app.app.inject({ method: 'GET', url: `/api/admin/user/front/info?%74oken=${token}` })
    await app.app.inject({ method: 'GET', url: `/api/dictionary/%zz?token=${token}` })
    const log = lines.join('')
    expect(log).toContain('/api/admin/user/front/info?token=[redacted]&x=1')
    expect(log).toContain('/api/admin/user/front/info?%74oken=[redacted]')
    expect(log).not.toContain(token)
  })
})
