import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keepBytes, keptPath, tmpDir } from '../../server/services/dataLoader/loadFiles.ts'
import { pruneLoads, startRetention, sweepTmp } from '../../server/services/dataLoader/retention.ts'
import { body } from '../support/testApp.ts'
import { studyFixture, type StudyFixture } from '../support/studyFixture.ts'

/**
 * getUploadRecord / getDownloadRecord and the kept files fetched again, on records written
 * straight into data_upload / data_download with their files kept as the upload and download
 * write them (content-addressed in DATA_DIR/loads).
 */

let s: StudyFixture
let dataDir: string
let otherProject: number
let demoId: number
const base = '/api/scientific/dataloader'
const dayMs = 24 * 60 * 60 * 1000
const daysAgo = (n: number) => new Date(Date.now() - n * dayMs).toISOString()
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex')

beforeAll(async () => {
  s = await studyFixture({ subjects: 4 })
  // Each test file keeps its files apart from the working copy's data/ directory.
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'records-'))
  s.t.app.ctx.dataDir = dataDir
  const db = s.t.db.kysely
  demoId = (await db.selectFrom('account').select('user_id as id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id
  const p = await db.selectFrom('project').selectAll().where('id', '=', s.projectId).executeTakeFirstOrThrow()
  const { id: _id, ...copy } = p
  otherProject = (
    await db
      .insertInto('project')
      .values({ ...copy, number: 'OTHER-1' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id
}, 120_000)
afterAll(async () => {
  await s.close()
  await fs.rm(dataDir, { recursive: true, force: true })
})

interface Who {
  id: number
  username: string
}

async function addUpload(o: { at: string; data: Buffer; who?: Who; project?: number; fileName?: string; report?: Buffer }) {
  const who = o.who ?? { id: demoId, username: 'demo' }
  const fileSha = await keepBytes(s.t.app.ctx, o.data)
  const reportSha = o.report ? await keepBytes(s.t.app.ctx, o.report) : null
  const row = await s.t.db.kysely
    .insertInto('data_upload')
    .values({
      project_id: o.project ?? s.projectId,
      user_id: who.id,
      username: who.username,
      at: o.at,
      file_name: o.fileName ?? 'data.xlsx',
      size: o.data.length,
      sha256: fileSha,
      container: 'xlsx',
      format: 'auto',
      rows: 12,
      errors_total: reportSha ? 3 : 0,
      outcome: reportSha ? 'refused' : 'loaded',
      duration_ms: 345,
      report_sha256: reportSha,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, sha256: fileSha }
}

async function addDownload(o: { at: string; data: Buffer; scope: unknown; who?: Who; fileName?: string }) {
  const who = o.who ?? { id: demoId, username: 'demo' }
  const fileSha = await keepBytes(s.t.app.ctx, o.data)
  const row = await s.t.db.kysely
    .insertInto('data_download')
    .values({
      project_id: s.projectId,
      user_id: who.id,
      username: who.username,
      at: o.at,
      file_name: o.fileName ?? 'export.csv',
      format: 'csv',
      scope: JSON.stringify(o.scope),
      size: o.data.length,
      sha256: fileSha,
      rows: 4,
      duration_ms: 20,
      holds_groups: 0,
      holds_identifiers: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, sha256: fileSha }
}

const get = (url: string, token = s.tokens.demo!, lang = 'en') =>
  s.t.app.inject({ method: 'GET', url: `${base}/${url}`, headers: { 'kr-d-token': token, 'accept-language': lang } })

type Page = { rows: Record<string, unknown>[]; next: string | null; total: number }
async function page(url: string, token?: string): Promise<Page> {
  const res = await get(url, token)
  expect(res.statusCode, res.body).toBe(200)
  return body(res).data as unknown as Page
}

describe('upload records', () => {
  let ids: number[] = []
  let otherId: number

  beforeAll(async () => {
    ids = []
    for (let i = 1; i <= 5; i++)
      ids.push((await addUpload({ at: daysAgo(10 - i), data: Buffer.from(`upload ${i}`), fileName: `第${i}批.xlsx` })).id)
    otherId = (await addUpload({ at: daysAgo(1), data: Buffer.from('other project'), project: otherProject })).id
  })

  it('pages newest first, only this project, with what the record says', async () => {
    const first = await page(`getUploadRecord?studyId=${s.projectId}&limit=2`)
    expect(first.rows.map((r) => r.id)).toEqual([ids[4], ids[3]])
    const second = await page(`getUploadRecord?studyId=${s.projectId}&limit=2&after=${first.next}`)
    expect(second.rows.map((r) => r.id)).toEqual([ids[2], ids[1]])
    const last = await page(`getUploadRecord?studyId=${s.projectId}&limit=2&after=${second.next}`)
    expect(last.rows.map((r) => r.id)).toEqual([ids[0]])
    expect(last.next).toBeNull()
    // Every page counts the whole list, the other project's record not in it.
    expect([first.total, second.total, last.total]).toEqual([5, 5, 5])
    expect(first.rows[0]).toEqual({
      id: ids[4],
      projectId: s.projectId,
      userName: 'demo',
      at: expect.any(String) as string,
      fileName: '第5批.xlsx',
      size: Buffer.from('upload 5').length,
      sha256: sha(Buffer.from('upload 5')),
      rows: 12,
      durationMs: 345,
      available: true,
      outcome: 'loaded',
      errorsTotal: 0,
      hasReport: false,
      message: '',
      // A record from before CRFs were kept (migration 0035) names none.
      forms: '',
    })
    const bad = await get(`getUploadRecord?studyId=${s.projectId}&after=forged`)
    expect(bad.statusCode).toBe(400)
  })

  it('answers the kept file again, the same bytes under the original name', async () => {
    const res = await get(`uploads/${ids[2]}/file?studyId=${s.projectId}`)
    expect(res.statusCode, res.body).toBe(200)
    expect(sha(res.rawPayload)).toBe(sha(Buffer.from('upload 3')))
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(decodeURIComponent(String(res.headers['content-disposition']).split("UTF-8''")[1]!)).toBe('第3批.xlsx')
  })

  it('answers a refused upload’s error report, and says when there is none', async () => {
    const report = Buffer.from('report bytes')
    const r = await addUpload({ at: daysAgo(0.5), data: Buffer.from('refused upload'), fileName: 'bad.xlsx', report })
    const listed = (await page(`getUploadRecord?studyId=${s.projectId}&limit=1`)).rows[0]!
    expect(listed).toMatchObject({ id: r.id, outcome: 'refused', errorsTotal: 3, hasReport: true })
    const res = await get(`uploads/${r.id}/report?studyId=${s.projectId}`)
    expect(res.statusCode, res.body).toBe(200)
    expect(sha(res.rawPayload)).toBe(sha(report))
    expect(decodeURIComponent(String(res.headers['content-disposition']).split("UTF-8''")[1]!)).toBe('bad-errors.xlsx')
    const none = await get(`uploads/${ids[0]}/report?studyId=${s.projectId}`)
    expect(none.statusCode).toBe(404)
    expect(body(none).msg).toBe('This upload has no error report')
  })

  it("refuses another project's record like an unknown one", async () => {
    for (const id of [otherId, 999_999]) {
      const res = await get(`uploads/${id}/file?studyId=${s.projectId}`)
      expect(res.statusCode).toBe(404)
      expect(body(res).msg).toBe(`Record ${id} does not exist`)
    }
    // Naming the other project instead: the demo login is no member of it.
    expect((await get(`uploads/${otherId}/file?studyId=${otherProject}`)).statusCode).toBe(403)
  })
})

describe('download records', () => {
  it('pages newest first with the scope in words, and answers the file again', async () => {
    const crfs = (await page(`getCrfByStudyId?studyId=${s.projectId}`)) as unknown as { templateId: number; name: string }[]
    const visit = await s.t.db.kysely
      .selectFrom('visit')
      .select(['id', 'name'])
      .where('project_id', '=', s.projectId)
      .orderBy('id')
      .executeTakeFirstOrThrow()
    const data = Buffer.from('subject_id,demo_sex\n1,1\n')
    const older = await addDownload({ at: daysAgo(2), data: Buffer.from('older'), scope: { templateIds: [crfs[0]!.templateId] } })
    const d = await addDownload({
      at: daysAgo(1),
      data,
      fileName: '示范导出.csv',
      scope: {
        templateIds: [crfs[0]!.templateId, crfs[2]!.templateId],
        fieldIds: [1, 2],
        centerIds: [s.centerIds[0]],
        visitIds: [visit.id],
      },
    })
    const p = await page(`getDownloadRecord?studyId=${s.projectId}`)
    expect(p.rows.map((r) => r.id)).toEqual([d.id, older.id])
    expect(p.total).toBe(2)
    expect(p.rows[0]).toMatchObject({
      fileName: '示范导出.csv',
      format: 'csv',
      size: data.length,
      sha256: sha(data),
      rows: 4,
      available: true,
      scope: `CRFs: ${crfs[0]!.name}, ${crfs[2]!.name}; 2 fields; Centers: DBJ; Visits: ${visit.name}`,
    })
    const zh = body(await get(`getDownloadRecord?studyId=${s.projectId}`, s.tokens.demo!, 'zh')).data as unknown as Page
    expect(zh.rows[1]!.scope).toBe(`CRF：${crfs[0]!.name}`)
    const res = await get(`downloads/${d.id}/file?studyId=${s.projectId}`)
    expect(res.statusCode, res.body).toBe(200)
    expect(sha(res.rawPayload)).toBe(d.sha256)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    // Study data leaving again is logged, as each kept file fetched again is: who, which record, which file.
    const fetches = await s.t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'username', 'detail', 'outcome'])
      .where('action', 'like', 'dataLoad.fetch%')
      .orderBy('id')
      .execute()
    expect(fetches.map((a) => [a.action, a.username, a.outcome, JSON.parse(String(a.detail)) as unknown])).toEqual(
      expect.arrayContaining([
        ['dataLoad.fetchUpload', 'demo', 'ok', expect.objectContaining({ fileName: '第3批.xlsx' })],
        ['dataLoad.fetchReport', 'demo', 'ok', expect.objectContaining({ fileName: 'bad-errors.xlsx' })],
        ['dataLoad.fetchDownload', 'demo', 'ok', { recordId: d.id, fileName: '示范导出.csv' }],
      ]),
    )
  })
})

describe('who sees which records', () => {
  it('lets importers see uploads and exporters downloads, nobody else', async () => {
    const entry = await s.member('recEntry', ['enterData'], { systemRole: 'dataEntry' })
    const exporter = await s.member('recExporter', ['export'], { systemRole: 'researcher' })
    const noAuthority = await s.member('recNoEnter', ['export'])
    expect((await get(`getUploadRecord?studyId=${s.projectId}`, entry)).statusCode).toBe(200)
    expect((await get(`getDownloadRecord?studyId=${s.projectId}`, entry)).statusCode).toBe(403)
    expect((await get(`getDownloadRecord?studyId=${s.projectId}`, exporter)).statusCode).toBe(200)
    const refused = await get(`getUploadRecord?studyId=${s.projectId}`, exporter, 'zh')
    expect(refused.statusCode).toBe(403)
    expect(body(refused).msg).toBe('没有权限执行此操作')
    expect((await get(`getUploadRecord?studyId=${s.projectId}`, noAuthority)).statusCode).toBe(403)
    const outsider = await s.t.createUser('recOutsider', 'Research1', { roles: ['researchAdmin'] })
    expect(outsider).toBeGreaterThan(0)
    expect((await get(`getUploadRecord?studyId=${s.projectId}`, await s.t.signIn('recOutsider', 'Research1'))).statusCode).toBe(403)
  })

  it('shows a data manager every record of the project, a center-bound member only their own', async () => {
    const all = (await page(`getUploadRecord?studyId=${s.projectId}&limit=100`)).rows.length
    const token = await s.member('recCenter', ['enterData'], { centers: [s.centerIds[0]!] })
    const me = await s.t.db.kysely
      .selectFrom('account')
      .select('user_id as id')
      .where('username', '=', 'recCenter')
      .executeTakeFirstOrThrow()
    const mine = await addUpload({ at: daysAgo(0.1), data: Buffer.from('mine'), who: { id: me.id, username: 'recCenter' } })
    const own = await page(`getUploadRecord?studyId=${s.projectId}&limit=100`, token)
    expect(own.rows.map((r) => r.id)).toEqual([mine.id])
    expect(own.total).toBe(1)
    const every = await page(`getUploadRecord?studyId=${s.projectId}&limit=1`)
    expect(every.total).toBe(all + 1)
    const demoRecord = (await page(`getUploadRecord?studyId=${s.projectId}&limit=2`)).rows[1]!.id as number
    expect((await get(`uploads/${demoRecord}/file?studyId=${s.projectId}`, token)).statusCode).toBe(404)
    expect((await get(`uploads/${mine.id}/file?studyId=${s.projectId}`, token)).statusCode).toBe(200)
  })
})

describe('retention', () => {
  const ageFile = async (hash: string, days: number) => {
    const p = (await keptPath(s.t.app.ctx, hash))!
    const t = new Date(Date.now() - days * dayMs)
    await fs.utimes(p, t, t)
  }

  it('answers 410 past the retention period, and the prune keeps a file a newer record still names', async () => {
    const ctx = s.t.app.ctx
    const oldOnly = await addUpload({ at: daysAgo(100), data: Buffer.from('old only'), fileName: 'old.xlsx' })
    const shared = Buffer.from('uploaded twice')
    const sharedOld = await addUpload({ at: daysAgo(95), data: shared })
    const sharedNew = await addUpload({ at: daysAgo(3), data: shared })
    await ageFile(oldOnly.sha256, 100)
    await ageFile(sharedOld.sha256, 95)

    const rows = (await page(`getUploadRecord?studyId=${s.projectId}&limit=5`)).rows
    const avail = new Map(rows.map((r) => [r.id, r.available]))
    expect([avail.get(oldOnly.id), avail.get(sharedOld.id), avail.get(sharedNew.id)]).toEqual([false, false, true])
    for (const [lang, text] of [
      ['en', 'The file is past its 90-day retention period or was removed; it can no longer be downloaded'],
      ['zh', '该文件已超过 90 天的保留期或已被清理，不能再下载'],
    ] as const) {
      const res = await get(`uploads/${oldOnly.id}/file?studyId=${s.projectId}`, s.tokens.demo!, lang)
      expect(res.statusCode).toBe(410)
      expect(body(res)).toMatchObject({ code: 410, msg: text })
    }
    expect((await get(`uploads/${sharedOld.id}/file?studyId=${s.projectId}`)).statusCode).toBe(410)

    const removed = await pruneLoads(ctx)
    expect(removed).toBe(1)
    expect(await keptPath(ctx, oldOnly.sha256)).toBeUndefined()
    expect(await keptPath(ctx, sharedNew.sha256)).toBeDefined()
    const again = await get(`uploads/${sharedNew.id}/file?studyId=${s.projectId}`)
    expect(again.statusCode).toBe(200)
    expect(sha(again.rawPayload)).toBe(sha(shared))
    // Files of records inside the period stay, however old the file itself is.
    const recent = (await page(`getUploadRecord?studyId=${s.projectId}&limit=100`)).rows.filter((r) => r.available)
    expect(recent.length).toBeGreaterThan(5)
  })

  it('a file gone from the store answers 410 inside the period too', async () => {
    const r = await addUpload({ at: daysAgo(1), data: Buffer.from('removed by hand') })
    await fs.unlink((await keptPath(s.t.app.ctx, r.sha256))!)
    const listed = (await page(`getUploadRecord?studyId=${s.projectId}&limit=1`)).rows[0]!
    expect(listed).toMatchObject({ id: r.id, available: false })
    expect((await get(`uploads/${r.id}/file?studyId=${s.projectId}`)).statusCode).toBe(410)
  })

  it('a shorter retention period ends availability sooner', async () => {
    const ctx = s.t.app.ctx
    const r = await addUpload({ at: daysAgo(8), data: Buffer.from('eight days old') })
    expect((await get(`uploads/${r.id}/file?studyId=${s.projectId}`)).statusCode).toBe(200)
    ctx.retentionDays = 7
    try {
      const res = await get(`uploads/${r.id}/file?studyId=${s.projectId}`)
      expect(res.statusCode).toBe(410)
      expect(body(res).msg).toContain('7-day')
    } finally {
      ctx.retentionDays = 90
    }
  })

  it('sweeps temporary files older than an hour, and leaves fresh ones to the upload writing them', async () => {
    const ctx = s.t.app.ctx
    await fs.mkdir(tmpDir(ctx), { recursive: true })
    const stale = path.join(tmpDir(ctx), 'stale.part')
    const fresh = path.join(tmpDir(ctx), 'fresh.part')
    await fs.writeFile(stale, 'x')
    await fs.writeFile(fresh, 'y')
    const t = new Date(Date.now() - 2 * 60 * 60 * 1000)
    await fs.utimes(stale, t, t)
    expect(await sweepTmp(ctx)).toBe(1)
    expect(await fs.readdir(tmpDir(ctx))).toEqual(['fresh.part'])
  })

  it('at server start sweeps the leftovers and prunes, and says so in the log', async () => {
    const ctx = s.t.app.ctx
    const stale = path.join(tmpDir(ctx), 'killed-upload.part')
    await fs.writeFile(stale, 'x')
    const t = new Date(Date.now() - 3 * 60 * 60 * 1000)
    await fs.utimes(stale, t, t)
    const old = await addUpload({ at: daysAgo(200), data: Buffer.from('very old') })
    await ageFile(old.sha256, 200)
    const lines: string[] = []
    const log = { info: (_: object, msg: string) => void lines.push(msg), error: (_: object, msg: string) => void lines.push(msg) }
    const stop = startRetention(ctx, log)
    stop()
    await expect.poll(() => lines.length).toBe(2)
    expect(lines).toEqual(['data loading: temporary files left over removed', 'data loading: kept files past retention removed'])
    expect(await keptPath(ctx, old.sha256)).toBeUndefined()
    expect(await fs.readdir(tmpDir(ctx))).toEqual(['fresh.part'])
  })
})
