import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildApp, type AppOptions } from '../../server/app.ts'
import { insertUserWithAccount } from '../../server/db/repositories/users.ts'
import { findBuiltinRole } from '../../server/db/repositories/roles.ts'
import { seedAccessData } from '../../server/services/accessSeed.ts'
import type { BuiltinRoleKey } from '../../contract/permissions.ts'
import { hashPassword } from '../../server/services/passwordHash.ts'
import { freshDb } from './testDb.ts'
import { seedReferenceData } from '../../server/services/seed.ts'

export interface TestApp {
  app: FastifyInstance
  db: Awaited<ReturnType<typeof freshDb>>
  /** Moves the server's clock; tokens and locks read it. */
  advance(ms: number): void
  /**
   * A person with one account; a system administrator unless `roles` names other built-in roles
   * (tests written before roles existed act as the administrator every user then was).
   */
  createUser(
    username: string,
    password: string,
    extra?: { name?: string; status?: number; roles?: readonly BuiltinRoleKey[] },
  ): Promise<number>
  /** Signs in and answers the token, failing the test when sign-in fails. */
  signIn(username: string, password: string): Promise<string>
  close(): Promise<void>
}

export type Body = { code: number; msg: string; data?: Record<string, unknown>; boolResult?: boolean }
export const body = (res: LightMyRequestResponse) => res.json() as Body

export async function testApp(opts: Partial<Omit<AppOptions, 'db' | 'now'>> = {}): Promise<TestApp> {
  const db = await freshDb()
  await seedReferenceData(db.kysely, new Date())
  await seedAccessData(db.kysely, new Date())
  let offset = 0
  // A data directory of its own unless the test names one: test files run side by side, and
  // what one stores or leaves in the temporary folder must not be another's (nor the repository's ./data).
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'app-data-'))
  // UTC unless a test names a zone: tests compute the calendar days they expect in UTC.
  const app = await buildApp({ db, now: () => new Date(Date.now() + offset), timeZone: 'UTC', ...opts, dataDir })
  await app.ready()
  return {
    app,
    db,
    advance: (ms) => {
      offset += ms
    },
    async createUser(username, password, extra = {}) {
      const now = new Date().toISOString()
      const passwordHash = await hashPassword(password)
      return db.kysely.transaction().execute(async (trx) => {
        const roleIds = []
        for (const key of extra.roles ?? ['sysAdmin']) roleIds.push((await findBuiltinRole(trx, key))!.id)
        const { userId } = await insertUserWithAccount(trx, {
          name: extra.name ?? username,
          username,
          passwordHash,
          roleIds,
          status: extra.status,
          now,
        })
        return userId
      })
    },
    async signIn(username, password) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username, password, platform: 'web' } })
      const b = body(res)
      if (res.statusCode !== 200 || !b.boolResult) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`)
      return String(b.data?.token)
    },
    async close() {
      await app.close()
      await db.drop()
      if (opts.dataDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
