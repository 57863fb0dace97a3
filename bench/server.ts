/**
 * The server under load for `npm run bench`, run as its own process by bench/run.ts
 * (`node --import tsx bench/server.ts`) so the load generator does not share its event loop.
 *
 * Input (environment): BENCH_DATABASE_URL, BENCH_USERNAME, BENCH_PASSWORD, and BENCH_TMPDIR,
 * the parent's temp dir, which this process removes only if the parent vanished without cleaning up.
 * Output: one stdout line `BENCH_SERVER {"port":N,"userId":N}` once it listens.
 * It stops on SIGTERM/SIGINT or when its stdin closes (the parent died), whichever comes first.
 */
import fs from 'node:fs'
import { buildApp } from '../server/app.ts'
import { connect } from '../server/db/connect.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { insertUserWithAccount } from '../server/db/repositories/users.ts'
import { findBuiltinRole } from '../server/db/repositories/roles.ts'
import { superRoleKey } from '../contract/permissions.ts'
import { hashPassword } from '../server/services/passwordHash.ts'

function required(name: string): string {
  const v = process.env[name]
  if (!v) throw new Error(`bench/server.ts: ${name} is not set (this script is started by bench/run.ts)`)
  return v
}

const databaseUrl = required('BENCH_DATABASE_URL')
const username = required('BENCH_USERNAME')
const password = required('BENCH_PASSWORD')

const db = connect(databaseUrl)
let closing = false
let app: Awaited<ReturnType<typeof buildApp>> | undefined

async function shutdown(code: number, orphaned = false): Promise<void> {
  if (closing) return
  closing = true
  try {
    await app?.close()
    await db.close()
  } finally {
    const tmp = process.env.BENCH_TMPDIR
    if (orphaned && tmp) fs.rmSync(tmp, { recursive: true, force: true })
    process.exit(code)
  }
}
process.on('SIGTERM', () => void shutdown(0))
process.on('SIGINT', () => void shutdown(0))
// The parent holds our stdin open; if it dies without signalling us (SIGKILL), stdin ends and we
// go too, taking the temp dir the parent could not remove.
process.stdin.on('end', () => void shutdown(0, true))
process.stdin.on('error', () => void shutdown(0, true))
process.stdin.resume()

try {
  await migrateToLatest(db)
  app = await buildApp({
    db,
    staticRoot: null,
    // The bench floods sign-in from one address on purpose: neither guard may refuse it.
    loginRateLimit: { max: 1e9, windowMs: 60_000 },
    auth: { maxFailures: 1e9 },
  })
  const { userId } = await insertUserWithAccount(db.kysely, {
    name: 'Bench User',
    username: username,
    passwordHash: await hashPassword(password),
    roleIds: [(await findBuiltinRole(db.kysely, superRoleKey))!.id],
    now: new Date().toISOString(),
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error(`unexpected listen address ${String(address)}`)
  process.stdout.write(`BENCH_SERVER ${JSON.stringify({ port: address.port, userId, pid: process.pid })}\n`)
} catch (err) {
  console.error('bench server failed to start:', err)
  await shutdown(1)
}
