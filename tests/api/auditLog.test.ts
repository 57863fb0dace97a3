import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import type { AuditEntry, AuditPage } from '../../contract/audit.ts'
import { appendAudit, type AuditEntry as NewRow } from '../../server/db/repositories/audit.ts'
import { testApp, type TestApp } from '../support/testApp.ts'

/**
 * The audit log viewer (issue 8 item 6): filters, keyset paging, bad input, the streamed exports
 * with formula injection neutralised, on the database of this project (SQLite or PostgreSQL).
 * Seeded rows sit in 2031, after every row the test's own calls append, and carry actions of
 * their own ('seed.*', 'bulk.row'), so each filter is checked against rows whose answer is known.
 */

let t: TestApp
let token: string
let adminId: number

/** Rows written straight through the repository, one transaction: 2,500 API calls would only be slower. */
async function seed(rows: readonly (Partial<NewRow> & { at: string })[]) {
  await t.db.kysely.transaction().execute(async (trx) => {
    for (const { at, ...r } of rows) {
      await appendAudit(trx, { userId: null, username: 'seed', ip: '10.0.0.1', action: 'seed.misc', outcome: 'ok', ...r }, at)
    }
  })
}

const at = (minute: number) => new Date(Date.UTC(2031, 0, 1, 0, minute)).toISOString()

beforeAll(async () => {
  t = await testApp()
  adminId = await t.createUser('auditor', 'Auditor2024')
  token = await t.signIn('auditor', 'Auditor2024')
  await seed([
    { at: at(1), username: 'alice', userId: 11, ip: '10.1.2.3', action: 'seed.create', object: { type: 'indicator', id: 5 } },
    { at: at(2), username: 'alicia', userId: 12, ip: '10.1.2.4', action: 'seed.update', object: { type: 'indicator', id: 5 } },
    {
      at: at(3),
      username: 'bob',
      userId: 13,
      ip: '192.168.0.9',
      action: 'seed.update',
      object: { type: 'indicator', id: 6 },
      outcome: 'denied',
    },
    { at: at(4), username: 'bob', userId: 13, ip: '192.168.0.9', action: 'seed.delete', object: { type: 'crf', id: 5 }, outcome: 'error' },
    { at: at(5), username: '=HYPERLINK("x")', ip: '10.9.9.9', action: 'seed.inject', detail: { note: '@SUM(A1)' } },
    { at: at(6), username: '@SUM(A1)', ip: '10.9.9.9', action: 'seed.inject' },
    { at: at(7), username: '+1+1', ip: '10.9.9.9', action: 'seed.inject' },
    { at: at(8), username: '-2-2', ip: '10.9.9.9', action: 'seed.inject' },
  ])
})
afterAll(() => t.close())

type Query = Record<string, string | number>
const qs = (q: Query) => new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString()
const get = (url: string, headers: Record<string, string> = { 'kr-d-token': token }) => t.app.inject({ method: 'GET', url, headers })
const list = (q: Query, headers?: Record<string, string>) => get(`/api/admin/audit/list?${qs(q)}`, headers)
async function page(q: Query): Promise<AuditPage> {
  const res = await list(q)
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as { data: AuditPage }).data
}
const names = (p: AuditPage) => p.rows.map((r) => r.username)
const exportFile = (q: Query, headers?: Record<string, string>) => get(`/api/admin/audit/export?${qs(q)}`, headers)
const auditCount = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

describe('filters', () => {
  it('newest first, each row as the contract says, detail parsed', async () => {
    const p = await page({ action: 'seed.*' })
    expect(p.total).toBe(8)
    expect(p.next).toBeNull()
    expect(names(p)).toEqual(['-2-2', '+1+1', '@SUM(A1)', '=HYPERLINK("x")', 'bob', 'bob', 'alicia', 'alice'])
    expect(p.rows[3]).toMatchObject({ at: at(5), action: 'seed.inject', detail: { note: '@SUM(A1)' }, objectType: null, objectId: null })
    expect(p.rows[7]).toMatchObject<Partial<AuditEntry>>({
      at: at(1),
      userId: 11,
      username: 'alice',
      ip: '10.1.2.3',
      action: 'seed.create',
      outcome: 'ok',
      objectType: 'indicator',
      objectId: 5,
      detail: {},
    })
  })

  it('by username, exact or by prefix', async () => {
    expect(names(await page({ username: 'alice' }))).toEqual(['alice'])
    expect(names(await page({ username: 'ali*' }))).toEqual(['alicia', 'alice'])
  })

  it('by user id', async () => {
    expect(names(await page({ userId: 13 }))).toEqual(['bob', 'bob'])
  })

  it('by action, exact or by prefix (a trailing dot or star)', async () => {
    expect((await page({ action: 'seed.update' })).total).toBe(2)
    expect((await page({ action: 'seed.' })).total).toBe(8)
    expect((await page({ action: 'seed.inj*' })).total).toBe(4)
    expect((await page({ action: 'seed' })).total).toBe(0)
  })

  it("by object: a record's own history", async () => {
    const p = await page({ objectType: 'indicator', objectId: 5 })
    expect(names(p)).toEqual(['alicia', 'alice'])
    expect(names(await page({ objectType: 'crf', objectId: 5 }))).toEqual(['bob'])
    expect((await page({ objectType: 'indicator', action: 'seed.*' })).total).toBe(3)
  })

  it('by address, exact or by prefix', async () => {
    expect(names(await page({ ip: '192.168.0.9' }))).toEqual(['bob', 'bob'])
    expect(names(await page({ ip: '10.1.*' }))).toEqual(['alicia', 'alice'])
  })

  it('by time range, both ends included, any zone offset', async () => {
    expect(names(await page({ action: 'seed.*', from: at(2), to: at(3) }))).toEqual(['bob', 'alicia'])
    // 08:07 at +08:00 is 00:07 UTC.
    expect(names(await page({ action: 'seed.*', from: '2031-01-01T08:07:00+08:00' }))).toEqual(['-2-2', '+1+1'])
  })

  it('by outcome', async () => {
    expect(names(await page({ action: 'seed.*', outcome: 'denied' }))).toEqual(['bob'])
    expect((await page({ action: 'seed.*', outcome: 'error' })).rows[0]?.action).toBe('seed.delete')
  })

  it('the calls of the app name the record they change', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dictionary/diseases',
      headers: { 'kr-d-token': token },
      payload: { name: '审计病种' },
    })
    expect(res.statusCode, res.body).toBe(200)
    const id = (res.json() as { data: { id: number } }).data.id
    const p = await page({ objectType: 'disease', objectId: id })
    expect(p.rows).toHaveLength(1)
    expect(p.rows[0]).toMatchObject({ action: 'disease.create', userId: adminId, username: 'auditor', detail: { id, name: '审计病种' } })
  })
})

describe('keyset paging', () => {
  it('2,500 rows by 1,000: every row once, in (at desc, id desc) order, the total on every page', async () => {
    // Five rows share each instant, so the id breaks ties across page boundaries.
    await seed(Array.from({ length: 2500 }, (_, i) => ({ at: at(100 + Math.floor(i / 5)), action: 'bulk.row', detail: { i } })))
    const seen: AuditEntry[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const p: AuditPage = await page({ action: 'bulk.row', limit: 1000, ...(cursor ? { cursor } : {}) })
      expect(p.total).toBe(2500)
      seen.push(...p.rows)
      cursor = p.next
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toHaveLength(2500)
    expect(new Set(seen.map((r) => r.id)).size).toBe(2500)
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!, seen[i]!]
      expect(a.at > b.at || (a.at === b.at && a.id > b.id), `${a.at}#${a.id} before ${b.at}#${b.id}`).toBe(true)
    }
    expect(seen.map((r) => r.detail.i)).toEqual(Array.from({ length: 2500 }, (_, i) => 2499 - i))
  })

  it('the default page is 50 rows', async () => {
    const p = await page({ action: 'bulk.row' })
    expect(p.rows).toHaveLength(50)
    expect(p.next).not.toBeNull()
  })
})

describe('bad input: 400 naming the field, in the caller language, nothing written', () => {
  const cases: [string, Query, RegExp, RegExp][] = [
    ['a date that is none', { from: 'yesterday' }, /from/, /from/],
    ['a date without a zone', { to: '2031-01-01T00:00:00' }, /to/, /to/],
    [
      'from after to',
      { from: at(5), to: at(1) },
      /开始时间（from）不能晚于结束时间（to）/,
      /start \(from\) must not be later than the end \(to\)/,
    ],
    ['an unknown outcome', { outcome: 'maybe' }, /outcome/, /outcome/],
    ['limit 0', { limit: 0 }, /每页条数 不能小于 1/, /page size must be at least 1/],
    ['limit 1001', { limit: 1001 }, /每页条数 不能大于 1000/, /page size must be at most 1000/],
    ['a forged cursor', { cursor: 'bm90IG91cnM' }, /cursor 的值不合法/, /cursor/],
    ['a bad user id', { userId: 'x' }, /userId/, /userId/],
  ]
  it.each(cases)('%s', async (_, q, zh, en) => {
    const before = await auditCount()
    for (const [lang, pattern] of [
      ['zh', zh],
      ['en', en],
    ] as const) {
      const res = await list(q, { 'kr-d-token': token, 'accept-language': lang })
      expect(res.statusCode, res.body).toBe(400)
      expect((res.json() as { msg: string }).msg).toMatch(pattern)
      // The export has no limit or cursor; every other bad filter is refused there too.
      if ('limit' in q || 'cursor' in q) continue
      const exp = await exportFile({ ...q, format: 'csv' }, { 'kr-d-token': token, 'accept-language': lang })
      expect(exp.statusCode, exp.body).toBe(400)
      expect((exp.json() as { msg: string }).msg).toMatch(pattern)
    }
    expect(await auditCount()).toBe(before)
  })

  it('an unknown export format', async () => {
    const before = await auditCount()
    const res = await exportFile({ format: 'pdf' }, { 'kr-d-token': token, 'accept-language': 'en' })
    expect(res.statusCode).toBe(400)
    expect((res.json() as { msg: string }).msg).toMatch(/format/)
    expect(await auditCount()).toBe(before)
  })

  it('no session: 401, nothing written', async () => {
    const before = await auditCount()
    expect((await list({}, {})).statusCode).toBe(401)
    expect((await exportFile({ format: 'csv' }, {})).statusCode).toBe(401)
    expect(await auditCount()).toBe(before)
  })
})

describe('export', () => {
  const lastExport = async () => {
    const row = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'audit.export')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    return { ...row, detail: JSON.parse(row.detail) as Record<string, unknown> }
  }

  it('CSV: UTF-8 with BOM, translated headers, the filtered rows, formulas neutralised, the export audited', async () => {
    const res = await exportFile({ format: 'csv', action: 'seed.*', lang: 'en' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="(audit-log-\d{8}-\d{6}\.csv)"; filename\*=UTF-8''\1$/)
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
    const rows = parse(res.rawPayload.subarray(3).toString('utf8')) as string[][]
    expect(rows[0]).toEqual(['ID', 'Time', 'User ID', 'Username', 'Address', 'Action', 'Outcome', 'Object type', 'Object ID', 'Detail'])
    expect(rows).toHaveLength(9)
    expect(rows.slice(1, 5).map((r) => r[3])).toEqual(["'-2-2", "'+1+1", "'@SUM(A1)", `'=HYPERLINK("x")`])
    expect(rows[4]![9]).toBe('{"note":"@SUM(A1)"}')
    expect(rows[8]).toEqual([expect.stringMatching(/^\d+$/), at(1), '11', 'alice', '10.1.2.3', 'seed.create', 'ok', 'indicator', '5', '{}'])

    const audited = await lastExport()
    expect(audited).toMatchObject({ user_id: adminId, username: 'auditor', outcome: 'ok' })
    expect(audited.detail).toEqual({ format: 'csv', filters: { action: 'seed.*' }, rows: 8 })
  })

  it('headers follow Accept-Language when no lang is given; a token in the query is not written', async () => {
    const res = await exportFile({ format: 'csv', action: 'seed.create', token }, { 'accept-language': 'zh-CN' })
    const rows = parse(res.rawPayload.subarray(3).toString('utf8')) as string[][]
    expect(rows[0]).toEqual(['编号', '时间', '用户编号', '用户名', '地址', '操作', '结果', '对象类型', '对象编号', '详情'])
    expect(rows).toHaveLength(2)
    expect((await lastExport()).detail).toEqual({ format: 'csv', filters: { action: 'seed.create' }, rows: 1 })
  })

  it('xlsx: header row, every row, formulas as text', async () => {
    const res = await exportFile({ format: 'xlsx', action: 'seed.inject', lang: 'en' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="(audit-log-\d{8}-\d{6}\.xlsx)"; filename\*=UTF-8''\1$/)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    const ws = wb.worksheets[0]!
    expect(ws.name).toBe('Audit log')
    expect(ws.getRow(1).values).toEqual([
      undefined,
      'ID',
      'Time',
      'User ID',
      'Username',
      'Address',
      'Action',
      'Outcome',
      'Object type',
      'Object ID',
      'Detail',
    ])
    expect(ws.actualRowCount).toBe(5)
    const usernames = [2, 3, 4, 5].map((n) => ws.getRow(n).getCell(4).value)
    expect(usernames).toEqual(["'-2-2", "'+1+1", "'@SUM(A1)", `'=HYPERLINK("x")`])
    for (let n = 2; n <= 5; n++) for (let c = 1; c <= 10; c++) expect(ws.getRow(n).getCell(c).formula).toBeFalsy()
    expect(ws.getRow(5).getCell(1).value).toEqual(expect.any(Number))
    expect((await lastExport()).detail).toEqual({ format: 'xlsx', filters: { action: 'seed.inject' }, rows: 4 })
  })

  it('a large export streams every row in order, and not the row of its own audit', async () => {
    const before = await auditCount()
    const res = await exportFile({ format: 'csv' })
    expect(res.statusCode).toBe(200)
    const rows = (parse(res.rawPayload.subarray(3).toString('utf8')) as string[][]).slice(1)
    expect(rows).toHaveLength(before)
    expect(new Set(rows.map((r) => r[0])).size).toBe(before)
    expect(rows.some((r) => r[5] === 'audit.export' && Number(r[0]) > 0)).toBe(true)
    expect((await lastExport()).detail).toEqual({ format: 'csv', filters: {}, rows: before })
    expect(await auditCount()).toBe(before + 1)
  })
})
