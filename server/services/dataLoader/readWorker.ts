import { parentPort } from 'node:worker_threads'
import { ServiceError } from '../errors.ts'
import { csvRows } from './csvRows.ts'
import type { Container, SheetBatch } from './model.ts'
import { toBatches, type ReadLimits } from './readRows.ts'
import { xlsxSheets } from './xlsxSheets.ts'

/**
 * The worker thread of readUpload: parses the temporary file and posts its batches to the main
 * thread, never more than `inFlight` ahead of what the main thread has taken (it acknowledges each
 * one), so parsing overlaps with checking and writing while memory stays bounded. It reads one
 * file and is ended by the main thread.
 * Loaded by require (tsx's CommonJS hook): no top-level await, no import.meta here.
 */

export interface ReadJob {
  path: string
  container: Container
  batchRows: number
  inFlight: number
  limits: ReadLimits
}

/** What crosses to the main thread: plain data (a class does not survive the crossing). */
export type ReadMessage =
  | { type: 'ready' }
  | { type: 'batch'; batch: SheetBatch }
  | { type: 'done' }
  | { type: 'refusal'; refusal: Pick<ServiceError, 'kind' | 'key' | 'params'> }

const port = parentPort!
let ahead = 0
let taken: (() => void) | null = null
let started = false
// The first message is the job (a thread is started ahead of need, see readUpload.ts); every
// later one acknowledges a batch the main thread has taken.
port.on('message', (m: ReadJob | number) => {
  if (!started) {
    started = true
    run(m as ReadJob).catch((err: unknown) => {
      // An unexpected failure reaches the main thread as the worker's 'error' event.
      setImmediate(() => {
        throw err
      })
    })
    return
  }
  ahead -= 1
  taken?.()
  taken = null
})
port.postMessage({ type: 'ready' } satisfies ReadMessage)

const send = (m: ReadMessage) => port.postMessage(m)

async function run(job: ReadJob): Promise<void> {
  const events = job.container === 'xlsx' ? xlsxSheets(job.path, job.limits) : csvRows(job.path, job.limits)
  try {
    for await (const batch of toBatches(events, job.limits, job.batchRows)) {
      send({ type: 'batch', batch })
      ahead += 1
      while (ahead >= job.inFlight) await new Promise<void>((resolve) => (taken = resolve))
    }
    send({ type: 'done' })
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err
    send({ type: 'refusal', refusal: { kind: err.kind, key: err.key, params: err.params } })
  }
}
