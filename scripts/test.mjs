// `npm test`: everything CI runs. Type check, lint, client build, then vitest (unit, API on
// SQLite and PostgreSQL, e2e in Chromium). Ends with one line: `N passed, N failed`.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { postgresForTests } from './pg.mjs'

let passed = 0
let failed = 0

function step(name, cmd, args, env = process.env) {
  console.log(`\n▶ ${name}`)
  const r = spawnSync(cmd, args, { stdio: 'inherit', env })
  if (r.status === 0) passed += 1
  else {
    failed += 1
    console.log(`✗ ${name} failed`)
  }
  return r.status === 0
}

const node = process.execPath
step('type check', node, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit'])
step('lint', node, ['node_modules/eslint/bin/eslint.js', '.'])
step('format', node, ['node_modules/prettier/bin/prettier.cjs', '--check', '.'])
step('client build', node, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'])

const env = { ...process.env }
const pg = await postgresForTests(env)

fs.mkdirSync('.tmp', { recursive: true })

/** One vitest run; its JSON report adds to the totals (a file that fails to load counts as a failure). */
function vitest(label, projects, extra = []) {
  const report = `.tmp/vitest-${label}.json`
  fs.rmSync(report, { force: true })
  console.log(`\n▶ vitest: ${projects.join(', ')}`)
  const args = ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]
  for (const p of projects) args.push('--project', p)
  args.push(...extra)
  spawnSync(node, args, { stdio: 'inherit', env })
  if (!fs.existsSync(report)) {
    failed += 1
    console.log(`✗ vitest (${label}) wrote no report`)
    return
  }
  const r = JSON.parse(fs.readFileSync(report, 'utf8'))
  passed += r.numPassedTests
  failed += r.numFailedTests
  failed += r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length
}

try {
  // Two files at once: vitest's default on two cores is one, and these tests wait on the database
  // as much as they compute (14 minutes one by one, 9 two by two here; three by three gains little more).
  vitest('unit-api', ['unit', 'api-sqlite', ...(env.TEST_DATABASE_URL ? ['api-postgres'] : [])], ['--maxWorkers=2'])
} finally {
  pg?.stop()
}
// The browser tests run alone: on two cores, scrypt-heavy API tests beside them starve Chromium.
vitest('e2e', ['e2e'])
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
