import { parentPort } from 'node:worker_threads'
import { ServiceError } from '../errors.ts'
import { csvRows } from './csvRows.ts'
import type { Container, SheetBatch } from './model.ts'
import { toBatches, type ReadLimits } from './readRows.ts'
import type { SheetRow } from './model.ts'
import { cellTyper, type SheetTyping } from './typeCells.ts'
import { xlsxSheets } from './xlsxSheets.ts'

/**
 * The worker thread of readUpload: parses the temporary file and posts its batches to the main
 * thread, never more than `inFlight` ahead of what the main thread has taken (it acknowledges each
 * one), so parsing overlaps with checking and writing while memory stays bounded. With `typeCells`
 * it posts each sheet's header alone, waits for the sheet's typing (readUpload's typeWith), and
 * posts its rows with their field cells read and checked (typeCells.ts). It reads one file and is
 * ended by the main thread.
 * Loaded by require (tsx's CommonJS hook): no top-level await, no import.meta here.
 */

export interface ReadJob {
  path: string
  container: Container
  batchRows: number
  inFlight: number
  limits: ReadLimits
  typeCells: boolean
}

/** What the main thread posts after the job: a batch taken, or a sheet's typing. */
export type ToReader = { type: 'taken' } | { type: 'typing'; typing: SheetTyping | null }

/** What crosses to the main thread: plain data (a class does not survive the crossing). */
export type ReadMessage =
  | { type: 'ready' }
  | { type: 'batch'; batch: SheetBatch }
  | { type: 'done' }
  | { type: 'refusal'; refusal: Pick<ServiceError, 'kind' | 'key' | 'params'> }

const port = parentPort!
let ahead = 0
let taken: (() => void) | null = null
let typing: { typing: SheetTyping | null } | null = null
let typed: (() => void) | null = null
let started = false
// The first message is the job (a thread is started ahead of need, see readUpload.ts); every
// later one acknowledges a batch the main thread has taken, or gives a sheet's typing.
port.on('message', (m: ReadJob | ToReader) => {
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
  if ((m as ToReader).type === 'typing') {
    typing = m as { typing: SheetTyping | null }
    typed?.()
    typed = null
    return
  }
  ahead -= 1
  taken?.()
  taken = null
})
port.postMessage({ type: 'ready' } satisfies ReadMessage)

const send = (m: ReadMessage) => port.postMessage(m)

async function post(batch: SheetBatch, inFlight: number): Promise<void> {
  send({ type: 'batch', batch })
  ahead += 1
  while (ahead >= inFlight) await new Promise<void>((resolve) => (taken = resolve))
}

/** The typing the main thread gives a sheet whose header it was sent. */
async function typingGiven(): Promise<SheetTyping | null> {
  while (!typing) await new Promise<void>((resolve) => (typed = resolve))
  const given = typing.typing
  typing = null
  return given
}

async function run(job: ReadJob): Promise<void> {
  const events = job.container === 'xlsx' ? xlsxSheets(job.path, job.limits) : csvRows(job.path, job.limits)
  let typer: ((row: SheetRow) => void) | null = null
  try {
    for await (const batch of toBatches(events, job.limits, job.batchRows)) {
      let rows = batch
      if (job.typeCells && batch.header) {
        await post({ sheet: batch.sheet, header: batch.header, rows: [] }, job.inFlight)
        const given = await typingGiven()
        typer = given && cellTyper(given)
        rows = { sheet: batch.sheet, rows: batch.rows }
        if (rows.rows.length === 0) continue
      }
      if (typer) for (const r of rows.rows) typer(r)
      await post(rows, job.inFlight)
    }
    send({ type: 'done' })
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err
    send({ type: 'refusal', refusal: { kind: err.kind, key: err.key, params: err.params } })
  }
}
