import fs from 'node:fs'
import { passwordProblem } from '../../contract/password.ts'
import { buildApp } from '../app.ts'
import { configFromEnv } from '../config.ts'
import { connect } from '../db/connect.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { seedAccessData } from '../services/accessSeed.ts'
import { adminCreatedLine, ensureAdmin } from '../services/bootstrap.ts'
import { randomPassword } from '../services/passwordHash.ts'
import { seedReferenceData } from '../services/seed.ts'
import { createDemoStudy, demoNumber, demoUsername } from './study.ts'

/**
 * `npm run demo`: the demo study (./study.ts) in the database `npm start` uses (DATABASE_URL,
 * DATA_DIR). Runs once: when the project DEMO-2026 exists it says so and changes nothing. The demo
 * login's password is DEMO_PASSWORD, or generated and printed once. On a new database it makes
 * the account `admin` first, as `npm start` would (ADMIN_PASSWORD, or printed once).
 */
const given = process.env.DEMO_PASSWORD || undefined
// The rule of every password here (SPEC §5): one the sign-in rule refuses could never be changed to itself.
if (given !== undefined && passwordProblem(given) !== null) {
  console.error('DEMO_PASSWORD must be at least 6 letters and digits with at least one of each (SPEC §5): nothing was changed.')
  process.exit(1)
}
const config = configFromEnv()
fs.mkdirSync(config.dataDir, { recursive: true })
const db = connect(config.databaseUrl)
let clock: Date | null = null
try {
  await migrateToLatest(db)
  await seedReferenceData(db.kysely, new Date())
  await seedAccessData(db.kysely, new Date())
  const app = await buildApp({ db, dataDir: config.dataDir, timeZone: config.timeZone, staticRoot: null, now: () => clock ?? new Date() })
  await app.ready()
  // The demo's account would otherwise be the first, and the first start would make no `admin`.
  const adminLine = adminCreatedLine(await ensureAdmin(app.ctx, config.adminPassword))
  if (adminLine) console.log(adminLine)
  const password = given ?? randomPassword()
  const started = Date.now()
  const result = await createDemoStudy(app, db.kysely, {
    password,
    clock: { set: (at) => (clock = at) },
    log: (line) => console.log(line),
  })
  await app.close()
  if (!result) {
    console.log(`The demo study (${demoNumber}) is already in this database: nothing changed.`)
  } else {
    console.log(
      `Demo study ${demoNumber} (fictional data) created in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
        `${result.subjects} subjects, ${result.records} form records, ${result.rows} sub-form rows.`,
    )
    console.log(`Sign in as "${demoUsername}"${given ? ' with DEMO_PASSWORD' : ` with password  ${password}`}`)
  }
} finally {
  await db.close()
}
