/**
 * The real server as a child process, the way `npm start` runs it (built client, SQLite in a
 * temp data dir). The global setup starts the shared one; a test that needs the server to go
 * away and come back (the offline save queue) starts its own: `stop()` ends the process and
 * `start()` brings it back on the same port and data, as after an outage.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { serverArgs } from '../../scripts/server.mjs'

export interface ServerProcess {
  baseUrl: string
  adminPassword: string
  /** Ends the process (the data stays). */
  stop(): Promise<void>
  /** Starts it again on the same port and data; resolves when it answers. */
  start(): Promise<void>
  /** Stops it and removes its data. */
  dispose(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

export async function startServer(): Promise<ServerProcess> {
  if (!fs.existsSync('dist/index.html')) throw new Error('dist/ is missing: run `npm run build` first (npm test does)')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-e2e-'))
  const port = await freePort()
  const adminPassword = 'Admin12345'
  const baseUrl = `http://127.0.0.1:${port}`
  let child: ChildProcess | null = null

  const start = async () => {
    const c = spawn(process.execPath, serverArgs(), {
      // TIME_ZONE: the tests compute the follow-up days they expect in UTC.
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: adminPassword,
        DATABASE_URL: '',
        TIME_ZONE: 'UTC',
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
        const res = await fetch(`${baseUrl}/api/health`)
        if (res.ok) return
      } catch {
        // not listening yet
      }
      if (c.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${output}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  const stop = async () => {
    const c = child
    child = null
    if (!c || c.exitCode !== null) return
    const exited = new Promise((r) => c.once('exit', r))
    c.kill('SIGTERM')
    await exited
  }

  await start()
  return {
    baseUrl,
    adminPassword,
    start,
    stop,
    dispose: async () => {
      await stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
