import fs from 'node:fs'
import { buildApp } from './app.ts'
import { configFromEnv } from './config.ts'
import { connect } from './db/connect.ts'
import { migrateToLatest } from './db/migrate.ts'
import { adminCreatedLine, ensureAdmin } from './services/bootstrap.ts'
import { clearTmpBeforeStart } from './services/dataLoader/loadFiles.ts'
import { seedReferenceData } from './services/seed.ts'
import { seedAccessData } from './services/accessSeed.ts'
import { defaultAuthPolicy } from './app.ts'
import { startRetention } from './services/dataLoader/retention.ts'

const config = configFromEnv()
fs.mkdirSync(config.dataDir, { recursive: true })
await clearTmpBeforeStart(config.dataDir)
const db = connect(config.databaseUrl)
await migrateToLatest(db)
await seedReferenceData(db.kysely, new Date())
await seedAccessData(db.kysely, new Date())

const app = await buildApp({
  db,
  staticRoot: config.staticRoot,
  dataDir: config.dataDir,
  retentionDays: config.retentionDays,
  timeZone: config.timeZone,
  logger: true,
  auth: { ...defaultAuthPolicy, tokenTtlMs: config.tokenTtlMinutes * 60_000 },
  loginRateLimit: { max: config.loginRatePerMinute, windowMs: 60_000 },
})

// Data loading's kept files: leftovers and files past the retention period now, then once a day.
const stopRetention = startRetention(app.ctx, app.log)

const adminLine = adminCreatedLine(await ensureAdmin(app.ctx, config.adminPassword))
if (adminLine) console.log(adminLine)

let closing = false
async function shutdown(signal: string) {
  if (closing) return
  closing = true
  app.log.info(`${signal}: closing`)
  stopRetention()
  await app.close()
  await db.close()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))

await app.listen({ port: config.port, host: config.host })
