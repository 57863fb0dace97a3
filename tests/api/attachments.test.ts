import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { indicatorInput } from '../../contract/dictionary.ts'
import { projectAuthorities } from '../../contract/projects.ts'
import { insertIndicator } from '../../server/db/repositories/indicators.ts'
import { insertCenter, insertProject, insertSubject, type RowProject } from '../support/memberProjects.ts'
import { addProjectMember } from '../support/projectMembers.ts'
import { body, testApp, type TestApp } from '../support/testApp.ts'

/**
 * Attachments of research objects (SPEC §2 picture field, §7 api/public/attachment): pictures
 * checked by content, 5 MB enforced while streaming, nothing stored for a refused upload, one
 * picture per field, every call scoped to the caller's centers (another center's subject and its
 * pictures are not found), the download only through the project, and the trail rows in
 * data_audit; on the database of this run (api-sqlite or api-postgres).
 */

let t: TestApp
let dataDir: string
let p: RowProject
let closed: RowProject
const tokens: Record<string, string> = {}
let subjectA: number
let subjectB: number
let closedSubject: number
let recordA: number
let photoField: number
let otherField: number
let raceField: number
let versionId: number

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(64)])

function form(filename: string, data: Buffer, type: string) {
  const boundary = '----attach' + crypto.randomBytes(8).toString('hex')
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  )
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

type Where = { studyId?: number; objectId: number; recordId?: number; indicatorId?: number }
function upload(where: Where, file: { name: string; data: Buffer; type: string }, as = 'entry', lang = 'zh') {
  const { payload, contentType } = form(file.name, file.data, file.type)
  const q = new URLSearchParams({ type: '3', studyId: String(where.studyId ?? p.id), objectId: String(where.objectId) })
  if (where.recordId) q.set('recordId', String(where.recordId))
  if (where.indicatorId) q.set('indicatorId', String(where.indicatorId))
  return t.app.inject({
    method: 'POST',
    url: `/api/public/attachment/saveAttachmentToDetail?${q.toString()}`,
    payload,
    headers: { 'content-type': contentType, 'kr-d-token': tokens[as]!, 'accept-language': lang },
  })
}
const remove = (b: Record<string, unknown>, as = 'entry', lang = 'zh') =>
  t.app.inject({
    method: 'POST',
    url: '/api/public/attachment/deleteAttachmentToDetail',
    payload: { type: 3, studyId: p.id, reason: '拍错了', ...b },
    headers: { 'kr-d-token': tokens[as]!, 'accept-language': lang },
  })
const get = (url: string, as = 'entry') => t.app.inject({ method: 'GET', url, headers: { 'kr-d-token': tokens[as]! } })

const stored = () => (fs.existsSync(path.join(dataDir, 'files')) ? fs.readdirSync(path.join(dataDir, 'files')).sort() : [])
const count = async (table: 'attachment' | 'data_audit') =>
  Number(
    (
      await t.db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )
/** What an upload or delete writes: a refusal leaves all of it as it was. */
const snapshot = async () => ({ files: stored(), attachments: await count('attachment'), audit: await count('data_audit') })

const subject = (project: RowProject, centerId: number, subjectNo: string) =>
  insertSubject(t, { projectId: project.id, queueId: project.queueIds[0]!, centerId, subjectNo })

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attach-'))
  t = await testApp({ dataDir })
  const admin = await t.createUser('admin1', 'Research1')
  const entry = await t.createUser('entry', 'Research1', { roles: ['dataEntry'] })
  const reader = await t.createUser('reader', 'Research1', { roles: ['dataEntry'] })
  const enterOnly = await t.createUser('enterOnly', 'Research1', { roles: ['dataEntry'] })
  for (const u of ['admin1', 'entry', 'reader', 'enterOnly']) tokens[u] = await t.signIn(u, 'Research1')
  const [a, b] = [await insertCenter(t, 'AT01'), await insertCenter(t, 'AT02')]
  p = await insertProject(t, { creatorId: admin, status: 'active', centerIds: [a, b] })
  closed = await insertProject(t, { creatorId: admin, status: 'closed', centerIds: [a] })
  await addProjectMember(t, p.id, entry, { authorities: projectAuthorities, centers: [a] })
  await addProjectMember(t, closed.id, entry, { authorities: projectAuthorities, centers: [a] })
  await addProjectMember(t, p.id, reader, { authorities: [], centers: [a] })
  await addProjectMember(t, p.id, enterOnly, { authorities: ['enterData'], centers: [a] })
  subjectA = await subject(p, a, 'AT01-0001')
  subjectB = await subject(p, b, 'AT02-0001')
  closedSubject = await subject(closed, a, 'AT01-0001')

  const now = new Date().toISOString()
  const field = (code: string) =>
    insertIndicator(t.db.kysely, indicatorInput.parse({ code, nameZh: code, type: 'blank', display: 'input' }), now)
  photoField = await field('photo')
  otherField = await field('other')
  raceField = await field('race')
  const tpl = await t.db.kysely
    .insertInto('template')
    .values({ kind: 'crf', name: 'Photos', description: '', collect_type: 'object', status: 1, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  const version = await t.db.kysely
    .insertInto('template_version')
    .values({
      template_id: tpl.id,
      version: 1,
      state: 'published',
      sections: JSON.stringify([{ key: 's1', title: 'S', repeating: false }]),
      created_at: now,
      published_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await t.db.kysely
    .insertInto('template_item')
    .values([
      { version_id: version.id, section_key: 's1', position: 0, indicator_id: photoField, required: 0 },
      { version_id: version.id, section_key: 's1', position: 1, indicator_id: raceField, required: 0 },
    ])
    .execute()
  const record = await t.db.kysely
    .insertInto('form_record')
    .values({
      project_id: p.id,
      subject_id: subjectA,
      center_id: a,
      queue_id: p.queueIds[0]!,
      template_id: tpl.id,
      version_id: version.id,
      visit_id: null,
      sample_id: null,
      data: '{}',
      created_by: null,
      created_at: now,
      updated_by: null,
      updated_at: now,
      signed_by: null,
      signed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  recordA = record.id
  versionId = version.id
})
afterAll(async () => {
  await t.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('upload', () => {
  it('stores a picture of the subject, answers data.path, and the trail names it', async () => {
    const res = await upload({ objectId: subjectA }, { name: 'C:\\scans\\x-ray.png', data: png, type: 'image/png' })
    expect(res.statusCode, res.body).toBe(200)
    expect(body(res).msg).toBe('保存成功！')
    const a = body(res).data as { id: number; path: string; name: string; mime: string; size: number }
    expect(a).toMatchObject({ name: 'x-ray.png', mime: 'image/png', size: png.length, path: `api/projects/${p.id}/attachments/${a.id}` })
    expect(stored()).toContain(crypto.createHash('sha256').update(png).digest('hex'))
    const trail = await t.db.kysely
      .selectFrom('data_audit')
      .selectAll()
      .where('subject_id', '=', subjectA)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(trail).toMatchObject({
      action: 'update',
      field: '',
      new_value: JSON.stringify('x-ray.png'),
      old_value: null,
      username: 'entry',
      record_id: null,
    })

    const file = await get(`/${a.path}`)
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('image/png')
    expect(file.rawPayload.equals(png)).toBe(true)
    const list = await get(`/api/projects/${p.id}/subjects/${subjectA}/attachments`)
    expect((body(list).data as { rows: { id: number }[] }).rows.map((r) => r.id)).toContain(a.id)
  })

  it('refuses a file that is not an image, and a renamed one, with the SPEC message and nothing stored', async () => {
    const before = await snapshot()
    for (const [name, data, type] of [
      ['notes.png', Buffer.from('just some text, not a picture at all'), 'image/png'],
      ['photo.jpg', png, 'image/jpeg'],
      ['photo.png', jpeg, 'image/png'],
      ['photo.gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'image/gif'],
      // The magic bytes of a picture before a page: no image header follows them.
      ['bm.bmp', Buffer.from('BM<html><script>alert(document.cookie)</script></html>'), 'image/bmp'],
      ['page.png', Buffer.concat([png.subarray(0, 8), Buffer.from('<html><script>alert(1)</script></html>')]), 'image/png'],
    ] as const) {
      for (const [lang, msg] of [
        ['zh', '上传文件只能是图片格式!'],
        ['en', 'Only image files (jpeg, jpg, png, bmp) can be uploaded!'],
      ] as const) {
        const res = await upload({ objectId: subjectA }, { name, data, type }, 'entry', lang)
        expect(res.statusCode, name).toBe(400)
        expect(body(res).msg).toBe(msg)
      }
    }
    expect(await snapshot()).toEqual(before)
  })

  it('refuses a file over 5 MB while it streams, with the SPEC message and nothing stored', async () => {
    const before = await snapshot()
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)])
    const res = await upload({ objectId: subjectA }, { name: 'big.png', data: big, type: 'image/png' })
    expect(res.statusCode).toBe(413)
    expect(body(res).msg).toBe('上传文件大小不能超过 5MB!')
    const exact = await upload(
      { objectId: subjectA },
      { name: 'big.png', data: big.subarray(0, 5 * 1024 * 1024), type: 'image/png' },
      'entry',
      'en',
    )
    // Exactly 5 MB passes the limit (and is then a png with trailing bytes, which is still a png).
    expect(exact.statusCode, exact.body).toBe(200)
    await remove({ objectId: subjectA, attachmentId: (body(exact).data as { id: number }).id })
    const after = await snapshot()
    expect(after.files.filter((f) => !before.files.includes(f))).toHaveLength(1)
    expect(after.attachments).toBe(before.attachments + 1)
  })

  it("refuses another center's subject, and an unknown one, alike, with nothing stored", async () => {
    const before = await snapshot()
    for (const objectId of [subjectB, 999999]) {
      const res = await upload({ objectId }, { name: 'a.png', data: png, type: 'image/png' }, 'entry', 'en')
      expect(res.statusCode).toBe(404)
      expect(body(res).msg).toBe(`Research object ${objectId} does not exist or is outside the centers and queues you may see`)
    }
    // A subject of another project named with this project's id is not found either.
    expect((await upload({ objectId: closedSubject }, { name: 'a.png', data: png, type: 'image/png' })).statusCode).toBe(404)
    expect(await snapshot()).toEqual(before)
  })

  it('refuses a member without enterData, and a closed project, with nothing stored', async () => {
    const before = await snapshot()
    expect((await upload({ objectId: subjectA }, { name: 'a.png', data: png, type: 'image/png' }, 'reader')).statusCode).toBe(403)
    const res = await upload({ studyId: closed.id, objectId: closedSubject }, { name: 'a.png', data: png, type: 'image/png' })
    expect(res.statusCode).toBe(409)
    expect(body(res).msg).toBe('项目已结束或未处于进行中状态，数据不能再修改')
    expect(await snapshot()).toEqual(before)
  })

  it('keeps one picture per field of a record, on that record’s version only', async () => {
    const before = await snapshot()
    const noRecord = await upload(
      { objectId: subjectA, indicatorId: photoField },
      { name: 'a.png', data: png, type: 'image/png' },
      'entry',
      'en',
    )
    expect(noRecord.statusCode).toBe(400)
    expect(body(noRecord).msg).toBe("A field's picture must name its form record (recordId)")
    const offForm = await upload(
      { objectId: subjectA, recordId: recordA, indicatorId: otherField },
      { name: 'a.png', data: png, type: 'image/png' },
      'entry',
      'en',
    )
    expect(offForm.statusCode).toBe(400)
    expect(body(offForm).msg).toBe(`Field ${otherField} is not on the form record's version`)
    const notHers = await upload({ objectId: subjectB, recordId: recordA }, { name: 'a.png', data: png, type: 'image/png' }, 'admin1', 'en')
    expect(notHers.statusCode).toBe(404)
    expect(body(notHers).msg).toBe(`Form record ${recordA} does not belong to this research object`)
    expect(await snapshot()).toEqual(before)

    const first = await upload(
      { objectId: subjectA, recordId: recordA, indicatorId: photoField },
      { name: 'face.jpg', data: jpeg, type: 'image/jpeg' },
    )
    expect(first.statusCode, first.body).toBe(200)
    const second = await upload(
      { objectId: subjectA, recordId: recordA, indicatorId: photoField },
      { name: 'face.png', data: png, type: 'image/png' },
      'entry',
      'en',
    )
    expect(second.statusCode).toBe(409)
    expect(body(second).msg).toBe('This field already has a picture: delete it first')
    const list = await get(`/api/projects/${p.id}/subjects/${subjectA}/attachments?recordId=${recordA}&indicatorId=${photoField}`)
    expect((body(list).data as { rows: { name: string }[] }).rows.map((r) => r.name)).toEqual(['face.jpg'])
    const trail = await t.db.kysely.selectFrom('data_audit').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
    expect(trail).toMatchObject({ action: 'update', field: String(photoField), record_id: recordA, new_value: JSON.stringify('face.jpg') })
  })
})

describe('one picture per field', () => {
  it('two uploads racing for one empty field: one is saved, the other told; after a delete the field takes a new one', async () => {
    const where = { objectId: subjectA, recordId: recordA, indicatorId: raceField }
    const answers = await Promise.all([
      upload(where, { name: 'one.png', data: png, type: 'image/png' }),
      upload(where, { name: 'two.jpg', data: jpeg, type: 'image/jpeg' }),
    ])
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409])
    const list = async () =>
      (
        body(await get(`/api/projects/${p.id}/subjects/${subjectA}/attachments?recordId=${recordA}&indicatorId=${raceField}`)).data as {
          rows: { id: number }[]
        }
      ).rows
    const [kept] = await list()
    expect(await list()).toHaveLength(1)
    expect((await remove({ objectId: subjectA, attachmentId: kept!.id })).statusCode).toBe(200)
    expect((await upload(where, { name: 'three.png', data: png, type: 'image/png' })).statusCode).toBe(200)
    expect(await list()).toHaveLength(1)
  })
})

describe('a database write that fails after the bytes were stored', () => {
  /** Every insert into attachment fails, as a lost connection or a full disk would make it. */
  async function failingInserts<T>(work: () => Promise<T>): Promise<T> {
    const k = t.db.kysely
    if (t.db.dialect === 'sqlite') {
      await sql`CREATE TRIGGER forced_failure BEFORE INSERT ON attachment BEGIN SELECT RAISE(ABORT, 'forced failure'); END`.execute(k)
    } else {
      await sql`CREATE FUNCTION forced_failure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'forced failure'; END $$`.execute(
        k,
      )
      await sql`CREATE TRIGGER forced_failure BEFORE INSERT ON attachment FOR EACH ROW EXECUTE FUNCTION forced_failure()`.execute(k)
    }
    try {
      return await work()
    } finally {
      if (t.db.dialect === 'sqlite') await sql`DROP TRIGGER forced_failure`.execute(k)
      else await sql`DROP FUNCTION forced_failure() CASCADE`.execute(k)
    }
  }

  it('leaves no file behind, and keeps a file whose bytes a saved row names', async () => {
    const fresh = Buffer.concat([png, Buffer.from('never saved')])
    const before = await snapshot()
    const answers = await failingInserts(async () => [
      await upload({ objectId: subjectA }, { name: 'fresh.png', data: fresh, type: 'image/png' }),
      await upload({ objectId: subjectA }, { name: 'again.png', data: png, type: 'image/png' }),
    ])
    expect(answers.map((r) => r.statusCode)).toEqual([500, 500])
    // The png was saved by an earlier upload: its file stays, and nothing else was added.
    expect(before.files).toContain(crypto.createHash('sha256').update(png).digest('hex'))
    expect(await snapshot()).toEqual(before)
    expect((await upload({ objectId: subjectA }, { name: 'fresh.png', data: fresh, type: 'image/png' })).statusCode).toBe(200)
  })
})

describe('read and delete', () => {
  let id: number
  let filePath: string
  beforeAll(async () => {
    const res = await upload({ objectId: subjectA }, { name: 'scan.jpeg', data: jpeg, type: 'image/jpeg' })
    ;({ id, path: filePath } = body(res).data as { id: number; path: string })
  })

  it("serves the file only through its project to a caller who may read the subject; another center's picture is not found", async () => {
    expect((await get(`/${filePath}`, 'reader')).statusCode).toBe(200)
    expect((await get(`/api/projects/${closed.id}/attachments/${id}`, 'admin1')).statusCode).toBe(404)
    const other = await upload({ objectId: subjectB }, { name: 'b.png', data: png, type: 'image/png' }, 'admin1')
    const otherPath = (body(other).data as { path: string }).path
    expect((await get(`/${otherPath}`, 'admin1')).statusCode).toBe(200)
    const hidden = await t.app.inject({
      method: 'GET',
      url: `/${otherPath}`,
      headers: { 'kr-d-token': tokens.entry!, 'accept-language': 'en' },
    })
    expect(hidden.statusCode).toBe(404)
    expect(body(hidden).msg).toMatch(/^Attachment \d+ does not exist$/)
    expect((await get(`/api/projects/${p.id}/subjects/${subjectB}/attachments`)).statusCode).toBe(404)
    const otherId = (body(other).data as { id: number }).id
    const before = await snapshot()
    expect((await remove({ objectId: subjectB, attachmentId: otherId })).statusCode).toBe(404)
    // Named with one's own subject, another subject's picture is not found either.
    expect((await remove({ objectId: subjectA, attachmentId: otherId })).statusCode).toBe(404)
    expect(await snapshot()).toEqual(before)
  })

  it('deletes: the picture is gone from lists and downloads, the trail keeps its name, a second delete is not found', async () => {
    const res = await remove({ objectId: subjectA, attachmentId: id })
    expect(res.statusCode, res.body).toBe(200)
    expect(body(res)).toMatchObject({ msg: '删除成功！', boolResult: true })
    expect((await get(`/${filePath}`)).statusCode).toBe(404)
    const list = await get(`/api/projects/${p.id}/subjects/${subjectA}/attachments`)
    expect((body(list).data as { rows: { id: number }[] }).rows.map((r) => r.id)).not.toContain(id)
    const trail = await t.db.kysely.selectFrom('data_audit').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
    expect(trail).toMatchObject({
      action: 'clear',
      field: '',
      old_value: JSON.stringify('scan.jpeg'),
      new_value: null,
      subject_id: subjectA,
      reason: '拍错了',
    })
    expect((await remove({ objectId: subjectA, attachmentId: id })).statusCode).toBe(404)
    expect((await remove({ objectId: subjectA, attachmentId: id }, 'reader')).statusCode).toBe(403)
  })

  it('a saved picture goes only with a reason, by a member who may change saved data, and never from a signed form', async () => {
    const where = { objectId: subjectA, recordId: recordA, indicatorId: otherField }
    await t.db.kysely
      .insertInto('template_item')
      .values({ version_id: versionId, section_key: 's1', position: 2, indicator_id: otherField, required: 0 })
      .execute()
    const saved = body(await upload(where, { name: 'kept.png', data: png, type: 'image/png' }))
    const kept = (saved.data as { id: number }).id
    const before = await snapshot()
    for (const [lang, msg] of [
      ['zh', '修改或删除已保存的数据时必须填写原因'],
      ['en', 'A reason is required to change or delete saved data'],
    ] as const) {
      const res = await remove({ objectId: subjectA, attachmentId: kept, reason: ' ' }, 'entry', lang)
      expect([res.statusCode, body(res).msg]).toEqual([400, msg])
    }
    expect((await remove({ objectId: subjectA, attachmentId: kept }, 'enterOnly')).statusCode).toBe(403)
    expect(await snapshot()).toEqual(before)

    await t.db.kysely.updateTable('form_record').set({ status: 'signed' }).where('id', '=', recordA).execute()
    try {
      for (const [lang, msg] of [
        ['zh', '表单已签名，不能添加或删除其图片'],
        ['en', 'The form is signed: its pictures cannot be added or deleted'],
      ] as const) {
        const del = await remove({ objectId: subjectA, attachmentId: kept }, 'entry', lang)
        expect([del.statusCode, body(del).msg]).toEqual([409, msg])
        const add = await upload(
          { objectId: subjectA, recordId: recordA },
          { name: 'late.png', data: png, type: 'image/png' },
          'entry',
          lang,
        )
        expect([add.statusCode, body(add).msg]).toEqual([409, msg])
      }
      expect(await snapshot()).toEqual(before)
    } finally {
      await t.db.kysely.updateTable('form_record').set({ status: 'saved' }).where('id', '=', recordA).execute()
    }
    expect((await remove({ objectId: subjectA, attachmentId: kept })).statusCode).toBe(200)
  })

  it('refuses bad input before any work', async () => {
    expect((await remove({ objectId: subjectA, attachmentId: 'x' })).statusCode).toBe(400)
    expect((await remove({ type: 2, objectId: subjectA, attachmentId: id })).statusCode).toBe(400)
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/public/attachment/saveAttachmentToDetail?type=3&studyId=${p.id}&objectId=${subjectA}`,
      payload: { no: 'file' },
      headers: { 'kr-d-token': tokens.entry! },
    })
    expect(res.statusCode).toBe(400)
    expect(body(res).msg).toBe('请选择要上传的图片')
  })
})
