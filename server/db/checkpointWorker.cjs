// The SQLite checkpointer's thread (server/db/checkpointer.ts). Plain CommonJS on purpose: it
// needs nothing but better-sqlite3, so it starts without the TypeScript loader (a thread and
// tens of MB less) — see readWorkerBoot.cjs for the files that do need it.
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose, see above */
const fs = require('node:fs')
const { parentPort, workerData } = require('node:worker_threads')
const SQLite = require('better-sqlite3')

const { file, walPages, everyMs } = workerData
const db = new SQLite(file)
db.pragma('busy_timeout = 5000')
const walBytes = walPages * db.pragma('page_size', { simple: true })

const walSize = () => {
  try {
    return fs.statSync(`${file}-wal`).size
  } catch {
    return 0
  }
}

// As SQLite's own auto-checkpoint, once the WAL holds 1,000 pages: the WAL file is cut back when a
// writer starts it over, and a writer does so only once every frame was copied; past that size,
// any frame the last complete checkpoint did not see is worth another.
let copied = 0
const timer = setInterval(() => {
  const size = walSize()
  if (size < walBytes || size === copied) return
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)')
    if (r && r.busy === 0 && r.log === r.checkpointed) copied = size
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: String(err && err.message) })
  }
}, everyMs)

parentPort.on('message', (m) => {
  if (m !== 'stop') return
  clearInterval(timer)
  db.close()
  parentPort.close()
})
