// A throw-away PostgreSQL cluster from the local server binaries: initdb into a temp dir,
// listen on a free loopback port, and remove it all on stop().
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export function findPgBin() {
  const root = '/usr/lib/postgresql'
  if (!fs.existsSync(root)) return null
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
  versions.sort((a, b) => Number(b) - Number(a))
  return versions[0] ? path.join(root, versions[0], 'bin') : null
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

export async function startThrowawayPostgres(bin) {
  const isRoot = process.getuid?.() === 0
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-pg-'))
  // initdb refuses root: the cluster belongs to the postgres user when we are root.
  const as = (cmd, args) => (isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args])
  if (isRoot) execFileSync('chown', ['postgres', dir])
  const data = path.join(dir, 'data')
  const port = await freePort()
  const run = (cmd, args) => {
    const [c, a] = as(path.join(bin, cmd), args)
    const r = spawnSync(c, a, { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`)
  }
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'app', '--no-sync'])
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${data} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    'start',
  ])
  return {
    url: `postgres://app@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop'])
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/**
 * For a test run: the PostgreSQL of TEST_DATABASE_URL when set, else a throw-away cluster whose
 * URL is put into `env`. Answers the cluster to stop afterwards (null when none was started);
 * without server binaries the run stays on SQLite and says so.
 */
export async function postgresForTests(env) {
  if (env.TEST_DATABASE_URL) return null
  const bin = findPgBin()
  if (!bin) {
    console.log('\nPostgreSQL: no server binaries and no TEST_DATABASE_URL; API tests run on SQLite only')
    return null
  }
  try {
    const pg = await startThrowawayPostgres(bin)
    env.TEST_DATABASE_URL = pg.url
    console.log(`\nPostgreSQL: throw-away cluster at ${pg.url}`)
    return pg
  } catch (e) {
    console.log(`\nPostgreSQL: could not start a throw-away cluster (${e.message}); API tests run on SQLite only`)
    return null
  }
}
