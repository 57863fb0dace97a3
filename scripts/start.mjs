// `npm start`: build the client when it is missing or older than its sources, then serve API + app.
import { spawnSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { serverArgs } from './server.mjs'

const sources = ['src', 'contract', 'commands', 'index.html', 'vite.config.ts', 'package.json']

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0
  const st = fs.statSync(p)
  if (!st.isDirectory()) return st.mtimeMs
  let newest = st.mtimeMs
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)))
  return newest
}

const built = fs.existsSync('dist/index.html') ? fs.statSync('dist/index.html').mtimeMs : 0
if (built < Math.max(...sources.map(newestMtime))) {
  console.log('Building the client…')
  const r = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

const server = spawn(process.execPath, serverArgs(), { stdio: 'inherit' })
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))
