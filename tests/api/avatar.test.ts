import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findUserById } from '../../server/db/repositories/users.ts'
import { listAudit } from '../../server/db/repositories/audit.ts'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/**
 * The picture field as a user's avatar (SPEC §2, §5 Image upload, §9): jpeg/jpg/png/bmp checked
 * by content, the declared name and type agreeing with it, 5 MB enforced while streaming, files
 * stored by SHA-256 under DATA_DIR/files and served to signed-in callers only.
 */

let t: TestApp
let dataDir: string
let token: string
let adminId: number

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(64)])
/** A 1×1 24-bit BMP: file header, info header, one padded pixel row. */
function bmp(): Buffer {
  const b = Buffer.alloc(58)
  b.write('BM', 0, 'ascii')
  b.writeUInt32LE(58, 2)
  b.writeUInt32LE(54, 10)
  b.writeUInt32LE(40, 14)
  b.writeInt32LE(1, 18)
  b.writeInt32LE(1, 22)
  b.writeUInt16LE(1, 26)
  b.writeUInt16LE(24, 28)
  b.writeUInt32LE(4, 34)
  return b
}

function form(filename: string, data: Buffer, type: string) {
  const boundary = '----avatar' + crypto.randomBytes(8).toString('hex')
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  )
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

const upload = (userId: number, filename: string, data: Buffer, type: string, as = token, lang = 'zh') => {
  const { payload, contentType } = form(filename, data, type)
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/picture/upload?type=3&objectId=${userId}`,
    payload,
    headers: { 'content-type': contentType, 'kr-d-token': as, 'accept-language': lang },
  })
}

const stored = () => (fs.existsSync(path.join(dataDir, 'files')) ? fs.readdirSync(path.join(dataDir, 'files')) : [])

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'avatar-'))
  t = await testApp({ dataDir })
  adminId = await t.createUser('pic', 'Picture2024')
  token = await t.signIn('pic', 'Picture2024')
})
afterAll(async () => {
  await t.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('upload', () => {
  it('stores png, jpeg (.jpg and .jpeg) and bmp by content and answers data.path', async () => {
    for (const [name, data, type] of [
      ['a.png', png, 'image/png'],
      ['b.jpg', jpeg, 'image/jpeg'],
      ['c.JPEG', jpeg, 'image/jpeg'],
      ['d.bmp', bmp(), 'image/bmp'],
    ] as const) {
      const res = await upload(adminId, name, data, type)
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200)
      expect(body(res).msg).toBe('保存成功！')
      const hash = crypto.createHash('sha256').update(data).digest('hex')
      expect(body(res).data).toEqual({ path: `api/admin/files/${hash}` })
      expect((await findUserById(t.db.kysely, adminId))!.image).toBe(`api/admin/files/${hash}`)
      expect(stored()).toContain(hash)
    }
    const rows = await listAudit(t.db.kysely, { action: 'user.avatar.upload' })
    expect(rows.at(-1)).toMatchObject({ outcome: 'ok', object_type: 'user', object_id: adminId })
  })

  it('serves the stored file to a signed-in caller only', async () => {
    const res = await upload(adminId, 'a.png', png, 'image/png')
    const p = (body(res).data as { path: string }).path
    const file = await t.app.inject({ method: 'GET', url: `/${p}`, headers: { 'kr-d-token': token } })
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('image/png')
    expect(file.rawPayload.equals(png)).toBe(true)
    expect((await t.app.inject({ method: 'GET', url: `/${p}?token=${token}` })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: `/${p}` })).statusCode).toBe(401)
    const missing = await t.app.inject({ method: 'GET', url: `/api/admin/files/${'0'.repeat(64)}`, headers: { 'kr-d-token': token } })
    expect(missing.statusCode).toBe(404)
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/files/..%2F..%2Fetc', headers: { 'kr-d-token': token } })).statusCode,
    ).toBe(400)
  })

  it('refuses a renamed non-image, a png named .jpg and a declared type that differs, with the SPEC message', async () => {
    const before = stored()
    const image = (await findUserById(t.db.kysely, adminId))!.image
    for (const [name, data, type] of [
      ['notes.png', Buffer.from('just some text, not a picture at all'), 'image/png'],
      ['photo.jpg', png, 'image/jpeg'],
      ['photo.png', png, 'image/jpeg'],
      ['photo.gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'image/gif'],
      ['noext', png, 'image/png'],
    ] as const) {
      for (const [lang, msg] of [
        ['zh', '上传文件只能是图片格式!'],
        ['en', 'Only image files (jpeg, jpg, png, bmp) can be uploaded!'],
      ] as const) {
        const res = await upload(adminId, name, data, type, token, lang)
        expect(res.statusCode, name).toBe(400)
        expect(body(res).msg).toBe(msg)
      }
    }
    expect(stored()).toEqual(before)
    expect((await findUserById(t.db.kysely, adminId))!.image).toBe(image)
  })

  it('refuses a 6 MB image while it streams with the SPEC message, leaving nothing on disk', async () => {
    const before = stored()
    const big = Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024)])
    const res = await upload(adminId, 'big.png', big, 'image/png')
    expect(res.statusCode).toBe(413)
    expect(body(res).msg).toBe('上传文件大小不能超过 5MB!')
    expect(stored()).toEqual(before)
    expect(fs.readdirSync(path.join(dataDir, 'files')).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('refuses another type than 3, a missing file, and a disabled person', async () => {
    const { payload, contentType } = form('a.png', png, 'image/png')
    const wrongType = await t.app.inject({
      method: 'POST',
      url: `/api/admin/picture/upload?type=4&objectId=${adminId}`,
      payload,
      headers: { 'content-type': contentType, 'kr-d-token': token },
    })
    expect(wrongType.statusCode).toBe(400)
    const noFile = await t.app.inject({
      method: 'POST',
      url: `/api/admin/picture/upload?type=3&objectId=${adminId}`,
      payload: {},
      headers: { 'kr-d-token': token },
    })
    expect(noFile.statusCode).toBe(400)
    const off = await t.createUser('off', 'Offline2024', { status: 0 })
    expect((await upload(off, 'a.png', png, 'image/png')).statusCode).toBe(409)
    expect((await upload(999999, 'a.png', png, 'image/png')).statusCode).toBe(404)
  })

  it('a user without user.edit changes their own avatar, and not the avatar of another', async () => {
    const entryId = await t.createUser('entry', 'Entry2024', { roles: ['dataEntry'] })
    const entry = await t.signIn('entry', 'Entry2024')
    const res = await upload(adminId, 'a.png', png, 'image/png', entry)
    expect(res.statusCode).toBe(403)
    const own = await upload(entryId, 'me.png', png, 'image/png', entry)
    expect(own.statusCode, own.body).toBe(200)
    expect((await findUserById(t.db.kysely, entryId))!.image).not.toBe('')
    const del = (objectId: number) =>
      t.app.inject({ method: 'POST', url: '/api/admin/picture/delete', payload: { type: 3, objectId }, headers: { 'kr-d-token': entry } })
    expect((await del(adminId)).statusCode).toBe(403)
    expect((await del(entryId)).statusCode).toBe(200)
    expect((await findUserById(t.db.kysely, entryId))!.image).toBe('')
  })
})

describe('delete', () => {
  it('clears the field with the SPEC message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/picture/delete',
      payload: { type: 3, objectId: adminId },
      headers: { 'kr-d-token': token },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(body(res)).toMatchObject({ msg: '删除成功！', boolResult: true })
    expect((await findUserById(t.db.kysely, adminId))!.image).toBe('')
  })
})
