import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import multipartPlugin from '@fastify/multipart'
import ExcelJS from 'exceljs'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { dataLoadLimits } from '../../../contract/dataLoader.ts'
import type { ServiceContext } from '../../../server/services/context.ts'
import { tmpDir } from '../../../server/services/dataLoader/loadFiles.ts'
import { receiveUpload, uploadMultipart } from '../../../server/services/dataLoader/receiveUpload.ts'
import { readUpload } from '../../../server/services/dataLoader/readUpload.ts'
import { ServiceError } from '../../../server/services/errors.ts'
import { cutFileRequest, multipart } from '../../support/multipart.ts'
import { deflated, zip } from '../../support/zip.ts'

// A read starts a worker thread that loads its TypeScript through tsx: seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 })

/** The receiver on a bare Fastify app: what it answers, and that a refusal leaves no file behind. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'receive-'))
const ctx = { dataDir } as ServiceContext
let app: FastifyInstance

beforeAll(async () => {
  app = Fastify()
  await app.register(multipartPlugin, uploadMultipart)
  app.post('/up', async (req, reply) => {
    try {
      const file = await receiveUpload(ctx, req, reply)
      // The whole path: a zip that passed the sniffing is still no workbook until it reads as one.
      let rows = 0
      try {
        for await (const b of readUpload(file)) rows += b.rows.length
      } finally {
        fs.rmSync(file.path, { force: true })
      }
      return { container: file.container, size: file.size, sha256: file.sha256, rows }
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err
      return reply.code(err.status).send({ key: err.key, params: err.params })
    }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
})
afterAll(async () => {
  await app.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const leftovers = () => (fs.existsSync(tmpDir(ctx)) ? fs.readdirSync(tmpDir(ctx)) : [])

async function post(filename: string, data: Buffer) {
  const { payload, contentType } = multipart(filename, data)
  const res = await app.inject({ method: 'POST', url: '/up', payload, headers: { 'content-type': contentType } })
  return { status: res.statusCode, body: res.json() as { key?: string; params?: unknown[]; container?: string; rows?: number } }
}

const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'), Buffer.alloc(64)])
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')

describe('receiveUpload', () => {
  it('takes a workbook and a CSV by their content, hashed', async () => {
    const wb = new ExcelJS.Workbook()
    wb.addWorksheet('S').addRows([['subject_id'], ['S1']])
    const x = await post('data.bin', Buffer.from(await wb.xlsx.writeBuffer()))
    expect(x.body).toMatchObject({ container: 'xlsx', rows: 1 })
    const c = await post('data.xlsx.csv', Buffer.from('subject_id\r\nS1\r\nS2\r\n'))
    expect(c.body).toMatchObject({ container: 'csv', rows: 2 })
    expect(leftovers()).toEqual([])
  })

  it('refuses a renamed PNG or PDF, an empty file, a zip that is no workbook', async () => {
    expect((await post('data.xlsx', png)).body.key).toBe('dataLoad.notXlsx')
    expect((await post('data.csv', png)).body).toEqual({ key: 'dataLoad.badFile', params: ['png'] })
    expect((await post('data.xlsx', pdf)).body.key).toBe('dataLoad.notXlsx')
    expect((await post('data.csv', pdf)).body).toEqual({ key: 'dataLoad.badFile', params: ['pdf'] })
    expect((await post('data.csv', Buffer.alloc(0))).body.key).toBe('dataLoad.empty')
    expect((await post('data.xlsx', zip([deflated('notes.txt', 'hello')]))).body.key).toBe('dataLoad.notXlsx')
    expect(leftovers()).toEqual([])
  })

  it('refuses a 200 MB body while it streams: nothing buffered, the connection closed, no file left', async () => {
    const { port } = app.server.address() as AddressInfo
    const boundary = '----big'
    const rss0 = process.memoryUsage().rss
    const answer = await new Promise<{ status: number; body: string; connection?: string; sent: number }>((resolve, reject) => {
      let sent = 0
      const req = http.request({
        port,
        method: 'POST',
        path: '/up',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': 200 * 1024 * 1024 + 200 },
      })
      req.on('response', (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString()))
        res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection, sent }))
      })
      req.on('error', reject)
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n\r\n`)
      const chunk = Buffer.alloc(1024 * 1024, 'a,b,c\r\n')
      const pump = () => {
        while (sent < 200 && !req.destroyed) {
          sent += 1
          if (!req.write(chunk)) return void req.once('drain', pump)
        }
      }
      pump()
    })
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toEqual({ key: 'dataLoad.tooLarge', params: [dataLoadLimits.maxBytes / 1024 / 1024] })
    expect(answer.connection).toBe('close')
    // Refused at the limit, not after the whole body.
    expect(answer.sent).toBeLessThan(200)
    expect(process.memoryUsage().rss - rss0).toBeLessThan(150 * 1024 * 1024)
    expect(leftovers()).toEqual([])
  })

  it('refuses a file cut at the limit when the reader kept up with the sender: at the cut, not at the end of the body', async () => {
    expect(await cutFileRequest((req) => receiveUpload(ctx, req), dataLoadLimits.maxBytes)).toBe('dataLoad.tooLarge')
    expect(leftovers()).toEqual([])
  })
})
