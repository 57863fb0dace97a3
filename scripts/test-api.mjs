// `npm run test:api [vitest filters…]`: the API tests on SQLite, then on PostgreSQL
// (TEST_DATABASE_URL, else a throw-away cluster from scripts/pg.mjs, removed afterwards).
import { spawnSync } from 'node:child_process'
import { postgresForTests } from './pg.mjs'

const env = { ...process.env }
const pg = await postgresForTests(env)
try {
  const projects = ['api-sqlite', ...(env.TEST_DATABASE_URL ? ['api-postgres'] : [])]
  const args = ['node_modules/vitest/vitest.mjs', 'run', ...projects.flatMap((p) => ['--project', p]), ...process.argv.slice(2)]
  const r = spawnSync(process.execPath, args, { stdio: 'inherit', env })
  process.exitCode = r.status ?? 1
} finally {
  pg?.stop()
}
