import { parentPort, workerData } from 'node:worker_threads'
import { ServiceError } from '../errors.ts'
import { csvRows } from './csvRows.ts'
import type { Container, SheetBatch } from './model.ts'
import { toBatches, type ReadLimits } from './readRows.ts'
import { xlsxSheets } from './xlsxSheets.ts'

/**
 * The worker thread of readUpload: parses the temporary file and posts its batches to the main
 * thread, never more than `inFlight` ahead of what the main thread has taken (it acknowledges each
 * one), so parsing overlaps with checking and writing while memory stays bounded.
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
  | { type: 'batch'; batch: SheetBatch }
  | { type: 'done' }
  | { type: 'refusal'; refusal: Pick<ServiceError, 'kind' | 'key' | 'params'> }

const port = parentPort!
const job = workerData as ReadJob
let ahead = 0
let taken: (() => void) | null = null
port.on('message', () => {
  ahead -= 1
  taken?.()
  taken = null
})

const send = (m: ReadMessage) => port.postMessage(m)

async function run(): Promise<void> {
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
  // Nothing more to wait for: the thread ends once its messages are out.
  port.unref()
}

void run().catch((err: unknown) => {
  // An unexpected failure reaches the main thread as the worker's 'error' event.
  setImmediate(() => {
    throw err
  })
})
