import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/**
 * Route by route, from the OpenAPI document: a signed-in account whose roles do not grant a
 * route's action gets 403 with a message from every non-public operation, whatever its input,
 * and nothing it sent is read. Only one's own account (info, permission list, logout, password)
 * needs no grant.
 */

type Operation = { method: string; path: string }

const publicOperations = ['POST /api/auth/jwt/token', 'GET /api/health']
const ownAccountOperations = [
  'GET /api/admin/user/front/info',
  'GET /api/admin/user/front/permissions',
  'POST /api/auth/jwt/logout',
  'POST /api/admin/user/changePwd',
  // Stored pictures (avatars, shown wherever a person is) by their content hash: any signed-in user.
  'GET /api/admin/files/{hash}',
]
/** One's own avatar needs no grant; anyone else's needs user.edit (tested below). */
const ownRecordOperations = ['POST /api/admin/picture/upload', 'POST /api/admin/picture/delete']

let t: TestApp
let operations: Operation[]
let adminId: number
const tokens = { none: '', dataEntry: '', monitor: '', admin: '' }

beforeAll(async () => {
  t = await testApp()
  await t.createUser('nobody', 'abc123', { roles: [] })
  await t.createUser('entry', 'abc123', { roles: ['dataEntry'] })
  await t.createUser('monitor', 'abc123', { roles: ['monitor'] })
  adminId = await t.createUser('admin2', 'abc123')
  tokens.none = await t.signIn('nobody', 'abc123')
  tokens.dataEntry = await t.signIn('entry', 'abc123')
  tokens.monitor = await t.signIn('monitor', 'abc123')
  tokens.admin = await t.signIn('admin2', 'abc123')
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> }
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })),
  )
})
afterAll(() => t?.close())

const key = (op: Operation) => `${op.method} ${op.path}`
const guarded = () => operations.filter((op) => ![...publicOperations, ...ownAccountOperations, ...ownRecordOperations].includes(key(op)))

/** Input a validator would refuse: the 403 must come first. */
function request(op: Operation, token: string): InjectOptions {
  return {
    method: op.method as InjectOptions['method'],
    url: op.path.replace(/\{[^}]+\}/g, '1') + '?id=1&limit=0&format=nope',
    headers: { 'content-type': 'application/json', 'kr-d-token': token },
    ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: JSON.stringify({ bogus: true }) }),
  }
}

async function expectForbidden(op: Operation, token: string) {
  const res = await t.app.inject(request(op, token))
  expect(res.statusCode, `${key(op)}: ${res.body}`).toBe(403)
  expect(body(res), key(op)).toEqual({ code: 403, msg: '没有权限执行此操作', boolResult: false })
}

describe('every non-public route of the OpenAPI document', () => {
  it('covers the back office and the dictionary', () => {
    expect(guarded().length).toBeGreaterThanOrEqual(58)
    for (const own of ownAccountOperations) expect(operations.map(key)).toContain(own)
  })

  it('answers 403 with a message to an account without any role', async () => {
    for (const op of guarded()) await expectForbidden(op, tokens.none)
  })

  it('answers 403 to a data-entry account on every route but those its project and subject grants open', async () => {
    // project.view lists the projects one is a member of, those open to apply to, one's own
    // applications, and the center directory (projects are set up from it).
    const granted = [
      'GET /api/scientific/studyObject/studyObjectButtonAuthority',
      'GET /api/projects',
      'GET /api/projects/open',
      'GET /api/centers',
      'GET /api/projects/applications/mine',
    ]
    // Past the guard, these refuse the bogus input sent here: a project's own calls check the
    // input before the membership.
    const grantedBadInput = [
      'GET /api/projects/{id}/randomization/list',
      'GET /api/scientific/studyObject/getStudyGroupList',
      'GET /api/scientific/studyObject/centerList',
      'POST /api/projects/{id}/applications',
      'POST /api/projects/{id}/subjects',
      'GET /api/scientific/studyObject/getHeaderList',
      'GET /api/scientific/studyObject/pageList',
      'GET /api/scientific/form/getDisplayFieldList',
      'GET /api/scientific/studyObject/getDisplayFieldInfo',
      'POST /api/scientific/form/saveDisplayFieldInfo',
      'GET /api/projects/{id}/subjects/{subjectId}/neighbours',
      'GET /api/scientific/form/getDisplayFormInfo',
      'POST /api/scientific/form/saveDisplayFormInfo',
      'GET /api/scientific/form/getOneFormInfoTree',
      'GET /api/scientific/form/getOneFormInfoList',
      'GET /api/scientific/form/getOneFormInfo',
      'GET /api/scientific/form/viewOneFormInfo',
      'POST /api/scientific/form/saveOneFormInfo',
      'POST /api/scientific/form/saveOneRowInfo',
      'POST /api/scientific/form/deleteOneRowInfo',
      'GET /api/projects/{id}/subjects/{subjectId}/history',
      'GET /api/scientific/studyObject/getViewInfo',
      'GET /api/projects/{id}/follow-up',
      'GET /api/projects/{id}/samples',
      'POST /api/projects/{id}/samples',
      'PUT /api/projects/{id}/samples/{sampleId}',
      'PUT /api/projects/{id}/samples/{sampleId}/status',
      'POST /api/public/attachment/saveAttachmentToDetail',
      'POST /api/public/attachment/deleteAttachmentToDetail',
      // Data loading: templates and records (dataLoad.import); each names its project in studyId.
      'GET /api/scientific/dataloader/getCrfByStudyId',
      'GET /api/scientific/dataloader/downloadTemplate',
      'GET /api/scientific/dataloader/getUploadRecord',
      'GET /api/scientific/dataloader/getDownloadRecord',
      'GET /api/scientific/dataloader/uploads/{id}/file',
      'GET /api/scientific/dataloader/uploads/{id}/report',
      'GET /api/scientific/dataloader/downloads/{id}/file',
      'POST /api/scientific/dataloader/uploadFile',
    ]
    for (const op of guarded()) {
      if (granted.includes(key(op))) expect((await t.app.inject(request(op, tokens.dataEntry))).statusCode, key(op)).not.toBe(403)
      else if (grantedBadInput.includes(key(op))) expect((await t.app.inject(request(op, tokens.dataEntry))).statusCode, key(op)).toBe(400)
      else await expectForbidden(op, tokens.dataEntry)
    }
  })

  it('answers 403 to the monitor (read-only) on every route that changes something', async () => {
    // Applying to join a project is open to whoever views projects; so are choosing which forms one's own subject detail shows and the subject list's columns (a reader's own choice).
    const mayWrite = [
      'POST /api/projects/{id}/applications',
      'POST /api/scientific/form/saveDisplayFormInfo',
      'POST /api/scientific/form/saveDisplayFieldInfo',
    ]
    const writes = guarded().filter((op) => op.method !== 'GET' && !mayWrite.includes(key(op)))
    expect(writes.length).toBeGreaterThanOrEqual(34)
    for (const op of writes) await expectForbidden(op, tokens.monitor)
  })

  it('lets an account without roles read and change only its own account', async () => {
    const info = await t.app.inject({ method: 'GET', url: '/api/admin/user/front/info', headers: { 'kr-d-token': tokens.none } })
    expect(body(info)).toMatchObject({ code: 0, data: { username: 'nobody', roles: [] } })
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/user/front/permissions', headers: { 'kr-d-token': tokens.none } })
    expect(body(list).data).toMatchObject({ screens: ['dashboard'], permissions: [] })
  })

  it('answers 403 to every account without user.edit for another person’s avatar', async () => {
    for (const token of [tokens.none, tokens.dataEntry, tokens.monitor]) {
      const upload = await t.app.inject({
        method: 'POST',
        url: `/api/admin/picture/upload?type=3&objectId=${adminId}`,
        headers: { 'content-type': 'multipart/form-data; boundary=x', 'kr-d-token': token },
        payload: '--x--\r\n',
      })
      expect(upload.statusCode, upload.body).toBe(403)
      const remove = await t.app.inject({
        method: 'POST',
        url: '/api/admin/picture/delete',
        headers: { 'kr-d-token': token },
        payload: { type: 3, objectId: adminId },
      })
      expect(remove.statusCode, remove.body).toBe(403)
    }
  })

  it('the refusals were about grants: an administrator gets past the guard on the same requests', async () => {
    for (const op of guarded()) {
      const res = await t.app.inject(request(op, tokens.admin))
      expect(res.statusCode, `${key(op)}: ${res.body}`).not.toBe(403)
    }
  })
})
