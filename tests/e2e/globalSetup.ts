import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    adminPassword: string
  }
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

/** Starts the real server (built client, fresh SQLite) the way `npm start` does. */
export default async function setup(project: TestProject) {
  if (!fs.existsSync('dist/index.html')) throw new Error('dist/ is missing: run `npm run build` first (npm test does)')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crw-e2e-'))
  const port = await freePort()
  const adminPassword = 'Admin12345'
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: adminPassword, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (d) => (output += String(d)))
  child.stderr?.on('data', (d) => (output += String(d)))
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    try {
      const res = await fetch(`${baseUrl}/api/health`)
      if (res.ok) break
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  project.provide('baseUrl', baseUrl)
  project.provide('adminPassword', adminPassword)
  return async () => {
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
