import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { connect } from '../../server/db/connect.ts'
import { migrateToLatest } from '../../server/db/migrate.ts'
import { createDemoStudy, demoUsername } from '../../server/demo/study.ts'
import { seedAccessData } from '../../server/services/accessSeed.ts'
import { seedReferenceData } from '../../server/services/seed.ts'
import { serverArgs } from '../../scripts/server.mjs'

/**
 * The real server as a child process, killed with SIGKILL in the middle of a 100,000-row upload
 * (the body sent, the server checking or writing it): after a restart no row of that upload is
 * there, nothing of it is half written, and its temporary file is gone. And while it writes such
 * an upload, the server still answers other users' reads.
 *
 * SQLite only: the child is the server exactly as `npm start` runs it, on its own database file;
 * the all-or-nothing write is the same code on PostgreSQL, whose rollback of a dead connection's
 * transaction is the server's own business.
 */

const password = 'Demo-2026-kill'
const rows = 100_000
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-kill-'))
const databaseUrl = `sqlite:${path.join(dataDir, 'clinical.db')}`
let port = 0
let child: ChildProcess | null = null
let projectId = 0
let templateId = 0

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as net.AddressInfo
      s.close(() => resolve(p))
    })
    s.on('error', reject)
  })
}

async function startChild(): Promise<void> {
  const c = spawn(process.execPath, serverArgs(), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      ADMIN_PASSWORD: 'Admin12345',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child = c
  let output = ''
  c.stdout?.on('data', (d) => (output += String(d)))
  c.stderr?.on('data', (d) => (output += String(d)))
  const deadline = Date.now() + 60_000
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return
    } catch {
      // not listening yet
    }
    if (c.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

async function stopChild(signal: NodeJS.Signals): Promise<void> {
  const c = child
  child = null
  if (!c || c.exitCode !== null || c.signalCode !== null) return
  const exited = new Promise((r) => c.once('exit', r))
  c.kill(signal)
  await exited
}

/** The study, and 100,000 subjects without a baseline, written before the server starts. */
beforeAll(async () => {
  const db = connect(databaseUrl)
  await migrateToLatest(db)
  await seedReferenceData(db.kysely, new Date())
  await seedAccessData(db.kysely, new Date())
  const app = await buildApp({ db, dataDir })
  await app.ready()
  const demo = await createDemoStudy(app, db.kysely, { password, clock: { set: () => undefined }, subjects: 6 })
  projectId = demo!.projectId
  const k = db.kysely
  templateId = (
    await k
      .selectFrom('project_form as pf')
      .innerJoin('template as t', 't.id', 'pf.template_id')
      .select('t.id')
      .where('pf.project_id', '=', projectId)
      .where('t.name', 'like', '%baseline%')
      .executeTakeFirstOrThrow()
  ).id
  const one = await k.selectFrom('subject').select(['queue_id', 'center_id']).where('project_id', '=', projectId).executeTakeFirstOrThrow()
  const at = new Date().toISOString()
  await k.transaction().execute(async (tx) => {
    for (let i = 0; i < rows; i += 2000) {
      const part = Array.from({ length: 2000 }, (_, j) => ({
        project_id: projectId,
        queue_id: one.queue_id,
        center_id: one.center_id,
        subject_no: `K-${String(i + j).padStart(6, '0')}`,
        created_at: at,
        updated_at: at,
      }))
      for (let p = 0; p < part.length; p += 500)
        await tx
          .insertInto('subject')
          .values(part.slice(p, p + 500))
          .execute()
    }
  })
  await app.close()
  await db.close()
  port = await freePort()
  await startChild()
}, 180_000)

afterAll(async () => {
  await stopChild('SIGTERM')
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const walSize = () => {
  try {
    return fs.statSync(path.join(dataDir, 'clinical.db-wal')).size
  } catch {
    return 0
  }
}

const tmpFiles = () => {
  try {
    return fs.readdirSync(path.join(dataDir, 'loads', 'tmp'))
  } catch {
    return []
  }
}

const base = () => `http://127.0.0.1:${port}/api`

async function signIn(): Promise<string> {
  const res = await fetch(`${base()}/auth/jwt/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en' },
    body: JSON.stringify({ username: demoUsername, password, platform: 'web' }),
  })
  return String(((await res.json()) as { data: { token: string } }).data.token)
}

/** A baseline row for each of the 100,000 subjects; `age` may replace one subject's age. */
function bigCsv(age: (i: number) => string = (i) => String(18 + (i % 70))): Buffer<ArrayBuffer> {
  const lines = ['subject_id,demo_sex,demo_age,demo_height,demo_weight']
  for (let i = 0; i < rows; i++) lines.push(`K-${String(i).padStart(6, '0')},${1 + (i % 2)},${age(i)},${150 + (i % 40)},${50 + (i % 60)}`)
  return Buffer.from(lines.join('\n') + '\n')
}

describe('100,000 rows', () => {
  it('one bad cell among them changes nothing, and the answer and the report name it', async () => {
    const token = await signIn()
    const form = new FormData()
    form.append('file', new Blob([bigCsv((i) => (i === 77_777 ? '300' : String(18 + (i % 70))))]), 'one-bad.csv')
    const res = await fetch(`${base()}/scientific/dataloader/uploadFile?studyId=${projectId}&templateId=${templateId}`, {
      method: 'POST',
      headers: { 'kr-d-token': token, 'accept-language': 'en' },
      body: form,
    })
    const body = (await res.json()) as {
      msg: string
      data: { rows: number; errorsTotal: number; errors: { row: number; column: string; value: string }[] }
    }
    expect(res.status, body.msg).toBe(400)
    expect(body.data.rows).toBe(rows)
    expect(body.data.errorsTotal).toBe(1)
    // The header is line 1: subject 77,777 is on line 77,779.
    expect(body.data.errors[0]).toMatchObject({ row: 77_779, column: 'demo_age', value: '300' })
    const db = connect(databaseUrl)
    try {
      const n = await db.kysely
        .selectFrom('form_record')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('template_id', '=', templateId)
        .where('upload_id', 'is not', null)
        .executeTakeFirstOrThrow()
      expect(Number(n.n)).toBe(0)
    } finally {
      await db.close()
    }
  }, 240_000)
})

describe('a server killed mid-upload', () => {
  it('leaves no row of the upload after a restart, and no temporary file', async () => {
    const base = `http://127.0.0.1:${port}/api`
    const token = await signIn()
    const csv = bigCsv()
    const form = new FormData()
    form.append('file', new Blob([csv]), 'big.csv')
    const answer = fetch(`${base}/scientific/dataloader/uploadFile?studyId=${projectId}&templateId=${templateId}`, {
      method: 'POST',
      headers: { 'kr-d-token': token },
      body: form,
    }).then(
      (r) => `answered ${r.status}`,
      () => 'cut',
    )

    // The body is in once the temporary file holds all of it; then the check runs and the write
    // transaction grows the WAL. The kill lands in the write when it can, else in the check.
    const deadline = Date.now() + 60_000
    let received = 0
    while (Date.now() < deadline) {
      const full = tmpFiles().some((f) => fs.statSync(path.join(dataDir, 'loads', 'tmp', f)).size === csv.length)
      if (full) {
        received = Date.now()
        break
      }
      await new Promise((r) => setTimeout(r, 5))
    }
    expect(received, 'the upload body never arrived whole').toBeGreaterThan(0)
    const wal0 = walSize()
    while (Date.now() - received < 20_000 && walSize() - wal0 < 8 * 1024 * 1024) await new Promise((r) => setTimeout(r, 2))
    const grown = walSize() - wal0
    await stopChild('SIGKILL')
    expect(await answer).toBe('cut')
    console.log(`killed ${Date.now() - received} ms after the body arrived; WAL grew ${(grown / 1024 / 1024).toFixed(1)} MB`)
    // Killed while checking, the upload is still in the temporary directory; while writing, it
    // was already kept (moved out) and the write transaction had grown the WAL.
    expect(tmpFiles().length > 0 || grown > 0).toBe(true)

    await startChild()
    expect(tmpFiles()).toEqual([])
    const db = connect(databaseUrl)
    try {
      const k = db.kysely
      const count = async (q: Promise<{ n: string | number | bigint }>) => Number((await q).n)
      expect(
        await count(
          k
            .selectFrom('form_record')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('upload_id', 'is not', null)
            .executeTakeFirstOrThrow(),
        ),
      ).toBe(0)
      expect(
        await count(
          k
            .selectFrom('form_record')
            .innerJoin('subject', 'subject.id', 'form_record.subject_id')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('subject.subject_no', 'like', 'K-%')
            .executeTakeFirstOrThrow(),
        ),
      ).toBe(0)
      expect(
        await count(
          k
            .selectFrom('data_upload')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('file_name', '=', 'big.csv')
            .executeTakeFirstOrThrow(),
        ),
      ).toBe(0)
      expect(
        await count(
          k
            .selectFrom('data_audit')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('upload_id', 'is not', null)
            .executeTakeFirstOrThrow(),
        ),
      ).toBe(0)
    } finally {
      await db.close()
    }

    // The server restarted takes the same file whole.
    const again = await fetch(`${base}/scientific/dataloader/uploadFile?studyId=${projectId}&templateId=${templateId}`, {
      method: 'POST',
      headers: { 'kr-d-token': token },
      body: form,
    })
    const body = (await again.json()) as { data: { created: number } }
    expect(again.status, JSON.stringify(body).slice(0, 300)).toBe(200)
    expect(body.data.created).toBe(rows)
  }, 240_000)
})

describe('the server writing a 100,000-row upload', () => {
  it("answers another user's subject list meanwhile, from what was committed", async () => {
    const token = await signIn()
    const form = new FormData()
    // Every age one year on: 100,000 records changed, each with its audit row.
    form.append('file', new Blob([bigCsv((i) => String(19 + (i % 70)))]), 'a-year-on.csv')
    const answer = fetch(`${base()}/scientific/dataloader/uploadFile?studyId=${projectId}&templateId=${templateId}`, {
      method: 'POST',
      headers: { 'kr-d-token': token },
      body: form,
    })
    // Whether a write transaction is open on the database: another connection cannot start one then.
    const writing = () => {
      const probe = new SQLite(path.join(dataDir, 'clinical.db'), { timeout: 0 })
      try {
        probe.exec('BEGIN IMMEDIATE')
        probe.exec('ROLLBACK')
        return false
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err
        return true
      } finally {
        probe.close()
      }
    }
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline && !writing()) await new Promise((r) => setTimeout(r, 2))
    expect(writing(), 'the upload never began its write transaction').toBe(true)

    const page = await fetch(`${base()}/scientific/studyObject/pageList?studyId=${projectId}&limit=20`, {
      headers: { 'kr-d-token': token },
    })
    const list = (await page.json()) as { data: { rows: unknown[] } }
    expect(page.status).toBe(200)
    expect(list.data.rows).toHaveLength(20)
    // Answered inside the upload's transaction: on one shared connection it waited for the commit.
    expect(writing()).toBe(true)
    const look = new SQLite(path.join(dataDir, 'clinical.db'), { readonly: true })
    try {
      expect(look.prepare('SELECT count(*) FROM data_upload WHERE file_name = ?').pluck().get('a-year-on.csv')).toBe(0)
    } finally {
      look.close()
    }

    const res = await answer
    const body = (await res.json()) as { data: { updated: number } }
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200)
    expect(body.data.updated).toBe(rows)
  }, 240_000)
})
