import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImportResult } from '../../contract/dictionaryExchange.ts'
import { multipart } from '../support/multipart.ts'
import { testApp, type TestApp } from '../support/testApp.ts'
import { xlsxBomb } from '../support/zip.ts'
import { serverArgs } from '../../scripts/server.mjs'

/**
 * Uploads cannot hurt the server (issue 7): a zip bomb is refused while it inflates, a file cut at
 * the size limit is refused whole, nothing is left on disk, and parsing never stops the server
 * answering others.
 */

// exceljs' reader and the tmp package write under os.tmpdir(): a directory of this file's own, set
// before the first import starts the parsing workers (which take the environment with them).
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-test-'))
const savedTmp = process.env.TMPDIR
process.env.TMPDIR = tmp

let t: TestApp
let token: string
beforeAll(async () => {
  t = await testApp()
  await t.createUser('uploader', 'Upload2024')
  token = await t.signIn('uploader', 'Upload2024')
})
afterAll(async () => {
  await t.close()
  process.env.TMPDIR = savedTmp
  fs.rmSync(tmp, { recursive: true, force: true })
})

function importFile(filename: string, data: Buffer, lang: 'zh' | 'en' = 'en') {
  const { payload, contentType } = multipart(filename, data)
  return t.app.inject({
    method: 'POST',
    url: '/api/dictionary/import',
    payload,
    headers: { 'content-type': contentType, 'accept-language': lang, 'kr-d-token': token },
  })
}
const ok = (res: { statusCode: number; body: string; json: () => unknown }) => {
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as { data: ImportResult }).data
}
const indicators = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('indicator')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

/** 48,000 valid rows, about 30 MB: over the 20 MB limit by half. */
function oversizeCsv(): Buffer {
  const lines = ['code,nameZh,nameEn,type,comment']
  const filler = '说明'.repeat(200)
  for (let i = 0; i < 48_000; i++) lines.push(`cut_${i},截断${i},Cut ${i},blank,${filler}`)
  return Buffer.from(lines.join('\n'))
}

describe('a file over the size limit', () => {
  it('is refused whole with 413 and writes nothing, through inject and over a real socket', async () => {
    const data = oversizeCsv()
    expect(data.length).toBeGreaterThan(28 * 1024 * 1024)
    const before = await indicators()
    for (let i = 0; i < 2; i++) {
      const res = await importFile('cut.csv', data)
      expect(res.statusCode, res.body).toBe(413)
      expect((res.json() as { msg: string }).msg).toBe('The file must not exceed 20 MB')
    }
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' })
    for (let i = 0; i < 3; i++) {
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(data)]), 'cut.csv')
      const res = await fetch(`${address}/api/dictionary/import`, {
        method: 'POST',
        body: form,
        headers: { 'kr-d-token': token, 'accept-language': 'en' },
      })
      expect(res.status).toBe(413)
    }
    expect(await indicators()).toBe(before)
  })
})

describe('temporary files', () => {
  it('an xlsx import leaves nothing behind, imported or refused', async () => {
    // exceljs writes the sheet before the shared strings, as Excel does: the order that made
    // exceljs' own reader park the sheet in a temporary file.
    const wb = new ExcelJS.Workbook()
    const ws = wb.addWorksheet('dictionary')
    ws.addRow(['code', 'nameZh', 'type'])
    ws.addRow(['tmp_a', '临时甲', 'blank'])
    ws.addRow(['tmp_b', '临时乙', 'blank'])
    const workbook = Buffer.from(await wb.xlsx.writeBuffer())
    const bomb = await xlsxBomb(800, 10, 30_000)
    // tsx, which runs the TypeScript workers, keeps its compile cache there: not an upload.
    const listing = () => fs.readdirSync(tmp).filter((f) => !f.startsWith('tsx-'))
    const before = listing()
    const ok = await importFile('dictionary.xlsx', workbook)
    expect(ok.statusCode, ok.body).toBe(200)
    const refused = await importFile('bomb.xlsx', bomb)
    expect(refused.statusCode).toBe(413)
    expect((refused.json() as { msg: string }).msg).toBe('The xlsx must not exceed 200 MB once unpacked')
    // One part unpacking to a giant text: no cell could be that long, the file expands too far.
    const giant = await xlsxBomb(1, 1, 5_000_000)
    const count = await indicators()
    for (const [lang, msg] of [
      ['zh', 'xlsx 解压后超出允许的大小：其中有一段连续文本超过 193 KB，比任何单元格都长（单元格最多 32767 个字符）'],
      [
        'en',
        'The xlsx expands past the allowed size once unpacked: it holds an unbroken text of more than 193 KB, longer than any cell may be (at most 32767 characters)',
      ],
    ] as const) {
      const res = await importFile('giant.xlsx', giant, lang)
      expect([res.statusCode, (res.json() as { msg: string }).msg]).toEqual([413, msg])
    }
    expect(await indicators()).toBe(count)
    expect(listing()).toEqual(before)
  })
})

describe('parsing does not stop the server', () => {
  it('a 20 MB one-line CSV leaves the event loop free', async () => {
    const line = Buffer.from('code,nameZh,type' + ',x'.repeat(10 * 1024 * 1024 - 10))
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const pending = importFile('one-line.csv', line)
    let answered = 0
    let done = false
    void pending.finally(() => (done = true))
    while (!done) {
      const health = await t.app.inject({ method: 'GET', url: '/api/health' })
      expect(health.statusCode).toBe(200)
      answered += 1
      await new Promise((r) => setTimeout(r, 50))
    }
    const res = await pending
    delay.disable()
    expect(res.statusCode, res.body).toBe(413)
    expect((res.json() as { msg: string }).msg).toBe('A row must not exceed 1000000 characters')
    // The server kept answering while the file was read and parsed.
    expect(answered).toBeGreaterThan(1)
    expect(delay.max / 1e6).toBeLessThan(1000)
  })
})

describe('formula injection', () => {
  it('exports neutralise text a spreadsheet would run, keep numbers, and import back as written', async () => {
    const csv = [
      'code,nameZh,nameEn,comment,type,display,dataType,minimum,maximum',
      'f_eq,=1+1,@SUM(A1),"-2+3",blank,input,integer,-5,+7',
      'f_at,plain,+cmd|calc,@note,blank,input,text,,',
    ].join('\n')
    expect(ok(await importFile('formulas.csv', Buffer.from(csv)))).toMatchObject({ indicators: 2 })

    const exp = (format: string) =>
      t.app.inject({ method: 'GET', url: `/api/dictionary/export?format=${format}&q=f_`, headers: { 'kr-d-token': token } })
    const own = (await exp('csv')).body
    expect(own).toContain(`\r\nf_eq,'=1+1,'@SUM(A1),'-2+3,blank,input,integer,,,,,,-5,7,`)
    expect(own).toContain(`\r\nf_at,plain,'+cmd|calc,'@note,`)
    const redcap = (await exp('redcap')).body
    expect(redcap).toContain(`\nf_eq,dictionary,,text,'@SUM(A1),,'-2+3,integer,-5,7,`)
    expect(redcap).not.toMatch(/(^|,)[=+@]/m)

    const xlsx = (await exp('xlsx')).rawPayload
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(xlsx as unknown as ArrayBuffer)
    const cells = wb.worksheets[0]!.getSheetValues()
      .flat()
      .filter((v): v is string => typeof v === 'string')
    expect(cells).toEqual(expect.arrayContaining(["'=1+1", "'@SUM(A1)", "'-2+3", "'@note", "'+cmd|calc"]))
    expect(cells.some((c) => /^[=+@]/.test(c))).toBe(false)

    // Each export imports into a fresh database as the very text that was exported.
    for (const [name, file] of [
      ['f.csv', Buffer.from(own)],
      ['f.xlsx', xlsx],
    ] as const) {
      const fresh = await testApp()
      try {
        await fresh.createUser('other', 'Other2024')
        const tok = await fresh.signIn('other', 'Other2024')
        const { payload, contentType } = multipart(name, file)
        const res = await fresh.app.inject({
          method: 'POST',
          url: '/api/dictionary/import',
          payload,
          headers: { 'content-type': contentType, 'kr-d-token': tok },
        })
        expect(res.statusCode, res.body).toBe(200)
        const rows = await fresh.db.kysely
          .selectFrom('indicator')
          .select(['code', 'name_zh', 'name_en', 'comment', 'minimum', 'maximum'])
          .where('code', 'in', ['f_at', 'f_eq'])
          .orderBy('code')
          .execute()
        expect(rows).toEqual([
          { code: 'f_at', name_zh: 'plain', name_en: '+cmd|calc', comment: '@note', minimum: null, maximum: null },
          { code: 'f_eq', name_zh: '=1+1', name_en: '@SUM(A1)', comment: '-2+3', minimum: -5, maximum: 7 },
        ])
      } finally {
        await fresh.close()
      }
    }
  })
})

/** A port nobody listens on now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })

describe('zip bombs against the real server', () => {
  let child: ChildProcess | null = null
  afterAll(() => {
    child?.kill('SIGKILL')
  })

  // 512 MB: the inflate budget refuses both. 128 MB: too small even for what the budget lets
  // through, so the parsing worker runs out of heap and dies; the server does not.
  it.each([
    [512, 'The xlsx must not exceed 200 MB once unpacked'],
    [128, 'The file holds more than an import may take into memory'],
  ])(
    'two bombs at once, with a %i MB heap: both 413, the server still answers',
    async (heap, refusal) => {
      const dir = fs.mkdtempSync(path.join(tmp, 'server-'))
      const port = await freePort()
      const password = 'BombProof2024'
      child = spawn(process.execPath, serverArgs([`--max-old-space-size=${heap}`]), {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dir,
          DATABASE_URL: `sqlite:${path.join(dir, 'bomb.db')}`,
          ADMIN_PASSWORD: password,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let exited: number | null = null
      child.on('exit', (code, signal) => (exited = code ?? (signal ? -1 : 0)))
      let output = ''
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()))
      await new Promise<void>((resolve, reject) => {
        child!.stdout!.on('data', (c: Buffer) => {
          output += c.toString()
          if (output.includes('Server listening')) resolve()
        })
        child!.on('exit', () => reject(new Error(`server ended: ${output}`)))
      })
      const base = `http://127.0.0.1:${port}/api`
      const signIn = await fetch(`${base}/auth/jwt/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password, platform: 'web' }),
      })
      const auth = String(((await signIn.json()) as { data: { token: string } }).data.token)

      // 1,000 rows of ten 30,000-letter cells: 300 MB of sheet in under a megabyte.
      const bomb = await xlsxBomb(1000, 10, 30_000)
      const send = () => {
        const form = new FormData()
        form.append('file', new Blob([new Uint8Array(bomb)]), 'bomb.xlsx')
        return fetch(`${base}/dictionary/import`, { method: 'POST', body: form, headers: { 'kr-d-token': auth, 'accept-language': 'en' } })
      }
      const answers = await Promise.all([send(), send()])
      for (const res of answers) {
        expect(res.status).toBe(413)
        expect(((await res.json()) as { msg: string }).msg).toBe(refusal)
      }
      // Memory stayed bounded: the peak resident size of the whole server, its workers included
      // (measured here: about 900 MB with the 512 MB heap, 450 MB with 128 MB), for 600 MB of cells.
      const peakMb = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024
      expect(peakMb).toBeLessThan(1200)
      const health = await fetch(`${base}/health`)
      expect(health.status).toBe(200)
      expect(exited).toBeNull()
      expect(output).not.toMatch(/heap out of memory/i)
      child.kill('SIGKILL')
    },
    120_000,
  )
})
