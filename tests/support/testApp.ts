import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildApp, type AppOptions } from '../../server/app.ts'
import { insertUser } from '../../server/db/repositories/users.ts'
import { hashPassword } from '../../server/services/passwordHash.ts'
import { freshDb } from './testDb.ts'
import { seedReferenceData } from '../../server/services/seed.ts'

export interface TestApp {
  app: FastifyInstance
  db: Awaited<ReturnType<typeof freshDb>>
  /** Moves the server's clock; tokens and locks read it. */
  advance(ms: number): void
  createUser(username: string, password: string, extra?: { name?: string; status?: number }): Promise<number>
  /** Signs in and answers the token, failing the test when sign-in fails. */
  signIn(username: string, password: string): Promise<string>
  close(): Promise<void>
}

export type Body = { code: number; msg: string; data?: Record<string, unknown>; boolResult?: boolean }
export const body = (res: LightMyRequestResponse) => res.json() as Body

export async function testApp(opts: Partial<Omit<AppOptions, 'db' | 'now'>> = {}): Promise<TestApp> {
  const db = await freshDb()
  await seedReferenceData(db.kysely, new Date())
  let offset = 0
  const app = await buildApp({ db, now: () => new Date(Date.now() + offset), ...opts })
  await app.ready()
  return {
    app,
    db,
    advance: (ms) => {
      offset += ms
    },
    async createUser(username, password, extra = {}) {
      const now = new Date().toISOString()
      return insertUser(db.kysely, {
        username,
        name: extra.name ?? username,
        password_hash: await hashPassword(password),
        status: extra.status ?? 1,
        created_at: now,
        updated_at: now,
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
    },
  }
}
