/**
 * The study the data-loading benches share (issue 11, Performance: "100,000 subjects × 20
 * fields"): on a fresh database, a superuser signed in, 20 dictionary fields (integer, decimal,
 * single choice, date, text — four of each), one published CRF holding them, and an active
 * multi-center project (two centers, one queue) pinning it. Fields, CRF and project go through
 * the API; the subjects are the caller's to insert (setup, not measured).
 */
import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { superRoleKey } from '../contract/permissions.ts'
import { buildApp } from '../server/app.ts'
import { connect, type Db } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { findBuiltinRole } from '../server/db/repositories/roles.ts'
import { insertUserWithAccount } from '../server/db/repositories/users.ts'
import { hashPassword } from '../server/services/passwordHash.ts'
import { seedAccessData } from '../server/services/accessSeed.ts'
import { seedReferenceData } from '../server/services/seed.ts'
import { findPgBin, startThrowawayPostgres } from '../scripts/pg.mjs'
import { benchCell, benchFields, type BenchField } from './dataLoad.ts'

export const fieldCount = benchFields.length

/** The dictionary field of each of benchFields (the reader bench's 20: the files it writes fill this CRF). */
function fieldSpec(f: BenchField) {
  const names = { nameZh: `字段${f.code}`, nameEn: f.label }
  switch (f.kind) {
    case 'integer':
    case 'decimal':
      return { code: f.code, ...names, type: 'blank', display: 'input', dataType: f.kind, minimum: f.min ?? null, maximum: f.max ?? null }
    case 'choice':
      return {
        code: f.code,
        ...names,
        type: 'single',
        display: 'radio',
        options: f.options!.map((code) => ({ code, labelZh: `选项${code}`, labelEn: `Option ${code}` })),
      }
    case 'date':
      return { code: f.code, ...names, type: 'date', display: 'input', dateFormat: 'YYYY-MM-DD' }
    default:
      return { code: f.code, ...names, type: 'blank', display: 'input' }
  }
}

export const fieldSpecs = benchFields.map(fieldSpec)

/** The value of field j for subject i as stored (a date as Y-M-D), the same cell the reader bench's files hold. */
export function valueOf(i: number, j: number): string {
  const c = benchCell(i, j)
  return c instanceof Date ? c.toISOString().slice(0, 10) : String(c)
}

/** Whether field j's cells are numbers. */
export const isNumberField = (j: number) => benchFields[j]!.kind === 'integer' || benchFields[j]!.kind === 'decimal'

export const subjectNo = (i: number) => `S${String(i).padStart(6, '0')}`

export interface Api {
  app: FastifyInstance
  token: string
}

export async function call<T>(api: Api, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<T> {
  const res = await api.app.inject({
    method,
    url: `/${url}`,
    headers: { 'kr-d-token': api.token },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
  const body = res.json() as { code: number; data?: T }
  if (res.statusCode !== 200 || body.code !== 0) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
  return body.data as T
}

/** The study's signed-in user: a superuser. */
export const dataStudyLogin = { username: 'databench', password: 'DataBench2026' }

export interface DataStudy {
  db: Db
  app: FastifyInstance
  api: Api
  projectId: number
  queueId: number
  queueKey: string
  /** Two centers: the first for a tenth of the subjects, the second for the rest (as the benches fill them). */
  centers: { id: number; code: string }[]
  templateId: number
  versionId: number
  /** Dictionary ids of fieldSpecs, in order. */
  fieldIds: number[]
  close(): Promise<void>
}

/** The study on a fresh database at `url` (sqlite:FILE or postgres://…), files under `dataDir`. */
export async function openDataStudy(url: string, dataDir: string, plannedSubjects: number): Promise<DataStudy> {
  const db = connect(url)
  await migrateToLatest(db)
  await seedReferenceData(db.kysely, new Date())
  await seedAccessData(db.kysely, new Date())
  const app = await buildApp({ db, staticRoot: null, dataDir })
  try {
    await insertUserWithAccount(db.kysely, {
      name: 'Data bench',
      username: dataStudyLogin.username,
      passwordHash: await hashPassword(dataStudyLogin.password),
      roleIds: [(await findBuiltinRole(db.kysely, superRoleKey))!.id],
      now: new Date().toISOString(),
    })
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { ...dataStudyLogin, platform: 'bench' },
    })
    const token = (signIn.json() as { data?: { token?: string } }).data?.token
    if (!token) throw new Error(`sign-in failed: ${signIn.body}`)
    const api: Api = { app, token }
    const fieldIds: number[] = []
    for (const s of fieldSpecs) fieldIds.push((await call<{ id: number }>(api, 'POST', 'api/dictionary/indicators', s)).id)
    const crf = await call<{ id: number }>(api, 'POST', 'api/templates', { kind: 'crf', name: 'Data bench', collectType: 'object' })
    await call(api, 'PUT', `api/templates/${crf.id}/layout`, {
      sections: [{ key: 's1', title: '', repeating: false, items: fieldIds.map((indicatorId) => ({ indicatorId, required: false })) }],
    })
    await call(api, 'POST', `api/scientific/form/saveCrfFormGenerateToDb?id=${crf.id}`)
    const versionId = (await call<{ id: number }>(api, 'GET', `api/templates/${crf.id}/versions/1`)).id
    const at = new Date().toISOString()
    const centers: { id: number; code: string }[] = []
    for (const code of ['EX1', 'EX2']) {
      const c = await db.kysely
        .insertInto('center')
        .values({ code, name_zh: `中心${code}`, name_en: `Center ${code}`, region: '', created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
      centers.push({ id: c.id, code })
    }
    const project = await call<{ id: number; queues: { id: number }[] }>(api, 'POST', 'api/projects', {
      scope: 'multi',
      base: {
        type: 'prospective',
        name: '数据基准',
        number: 'EX-1',
        groupType: 'group',
        plannedQuantity: plannedSubjects,
        plannedGroups: 2,
      },
      queues: [{ name: '队列', key: 'A' }],
      forms: [{ templateId: crf.id, versionId }],
      centerIds: centers.map((c) => c.id),
    })
    await db.kysely.updateTable('project').set({ status: 'active' }).where('id', '=', project.id).execute()
    return {
      db,
      app,
      api,
      projectId: project.id,
      queueId: project.queues[0]!.id,
      queueKey: 'A',
      centers,
      templateId: crf.id,
      versionId,
      fieldIds,
      async close() {
        await app.close()
        await db.close()
      },
    }
  } catch (err) {
    await app.close()
    await db.close()
    throw err
  }
}

/** A postgres:// URL from BENCH_DATABASE_URL or TEST_DATABASE_URL, or null. */
function givenPostgres(): string | null {
  for (const v of [process.env.BENCH_DATABASE_URL, process.env.TEST_DATABASE_URL]) {
    if (v && /^postgres(ql)?:\/\//.test(v)) return v
  }
  return null
}

/**
 * A database of the bench's own on the server the environment names, or on a throw-away cluster
 * from the local server binaries; `drop` removes it. A string says why there is none.
 */
export async function ownPostgres(label: string, log: (line: string) => void): Promise<{ url: string; drop(): Promise<void> } | string> {
  const given = givenPostgres()
  if (given) {
    const name = `bench_${label}_${process.pid}_${crypto.randomBytes(3).toString('hex')}`
    const admin = new pg.Client({ connectionString: given })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    const url = new URL(given)
    url.pathname = `/${name}`
    log(`${label}: PostgreSQL database ${name} on ${url.host}`)
    return {
      url: url.toString(),
      async drop() {
        const c = new pg.Client({ connectionString: given })
        await c.connect()
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        await c.end()
      },
    }
  }
  const bin = findPgBin()
  if (!bin) return 'no PostgreSQL server binaries and no BENCH_DATABASE_URL / TEST_DATABASE_URL'
  const cluster = await startThrowawayPostgres(bin)
  log(`${label}: throw-away PostgreSQL cluster at ${cluster.url}`)
  // An interrupted run (Ctrl+C, bench/run.ts's time limit) still stops the cluster: stop() is synchronous.
  let stopped = false
  const stop = () => {
    if (stopped) return
    stopped = true
    cluster.stop()
  }
  process.once('exit', stop)
  return {
    url: cluster.url,
    drop: async () => {
      process.off('exit', stop)
      stop()
    },
  }
}
