import { Worker } from 'node:worker_threads'
import type SQLite from 'better-sqlite3'

/**
 * SQLite's WAL checkpoint, off the event loop. By default the connection that commits copies the
 * WAL back into the database file once it has grown past 1,000 pages: after a 100,000-row upload
 * that held the event loop (and the upload's answer) ~300 ms. Here the main connection never
 * checkpoints; a thread with a connection of its own does, in PASSIVE mode (it waits for no
 * reader and no writer), whenever the WAL holds as much and has frames it has not copied. The
 * WAL file is cut back when a writer starts it over, so its size tells the thread both.
 */

/** SQLite's own auto-checkpoint threshold. */
const walPages = 1000
const everyMs = 200

export interface Checkpointer {
  stop(): Promise<void>
}

export function startCheckpointer(sqlite: SQLite.Database, file: string): Checkpointer {
  const worker = new Worker(new URL('./checkpointWorker.cjs', import.meta.url), {
    workerData: { file, walPages, everyMs },
    // Plain CommonJS: no TypeScript loader in this thread.
    execArgv: [],
  })
  // It must not keep a process alive whose work is done; close() stops it.
  worker.unref()
  sqlite.pragma('journal_size_limit = 0')
  sqlite.pragma('wal_autocheckpoint = 0')
  let stopped = false
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  const fallBack = () => {
    // Without the thread the connection checkpoints for itself again, as SQLite does by default.
    if (!stopped && sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000')
  }
  worker.on('message', (m: { type: string; message?: string }) => {
    if (m.type === 'error') console.warn(`[db] checkpoint failed: ${m.message}`)
  })
  worker.on('error', (err) => {
    console.warn(`[db] the checkpoint thread ended: ${err.message}`)
    fallBack()
  })
  worker.on('exit', fallBack)
  return {
    async stop() {
      stopped = true
      // Held until it has closed its connection: a caller awaiting this keeps the process alive.
      worker.ref()
      worker.postMessage('stop')
      await exited
    },
  }
}
