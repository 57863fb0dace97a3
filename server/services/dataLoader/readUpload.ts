import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { ServiceError } from '../errors.ts'
import type { ReceivedFile, SheetBatch } from './model.ts'
import { readLimits, type ReadLimits } from './readRows.ts'
import type { ReadJob, ReadMessage } from './readWorker.ts'

export interface ReadOptions {
  /** Rows per batch (default: batchRowsOf the file's container). */
  batchRows?: number
  /** Batches the worker may run ahead of the consumer. */
  inFlight?: number
  limits?: Partial<ReadLimits>
  /** The worker's heap (MB): a file that still exhausts it ends that worker, not the server. */
  heapMb?: number
}

/**
 * Rows per batch by container: small enough that a batch is checked and written before the main
 * thread's young generation turns over (at 2,000 rows its rows and plan lived through scavenges
 * and were promoted: ~120 MB more at the peak of a 100,000-row upload), large enough that the
 * per-batch reads and statements cost little. An xlsx parses at about half the pace the main
 * thread checks and writes, so its batches can be small: at 125 rows the bench's xlsx upload took
 * 1.12-1.16× the bare parse in five runs of seven, against 1.27-1.30× at 500 (the peak the same;
 * either size had runs past 1.3× on a busy machine). A CSV parses three times faster than the
 * main thread works, which then sets the time: 125-row batches made it ~10% slower on
 * SQLite and ~30% on PostgreSQL (more round trips), so it keeps 500.
 */
const batchRowsOf = (container: ReceivedFile['container']) => (container === 'xlsx' ? 125 : 500)

const defaultHeapMb = 1024
/**
 * The reader's young generation. V8 makes each semi-space a third of it rounded to a power of
 * two: 96 MB gives 32 MB semi-spaces. Measured on the bench's 100,000-row xlsx, alone: 48 MB
 * (16 MB semi-spaces) parsed in 1.8× the time, as the cells' garbage is collected too often;
 * 128 MB (64 MB semi-spaces) parsed no faster than 96 MB and held ~65 MB more at the peak.
 */
const youngMb = 96

// The worker is TypeScript whatever runs the server (tsx, a test runner): see readWorkerBoot.cjs.
const bootFile = new URL('./readWorkerBoot.cjs', import.meta.url)
const workerFile = fileURLToPath(new URL('./readWorker.ts', import.meta.url))

function startWorker(heapMb: number): Worker {
  return new Worker(bootFile, {
    workerData: { file: workerFile },
    execArgv: ['--import', 'tsx'],
    // Once any limit is given the young generation is sized from it: set it too (see youngMb).
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(youngMb, Math.floor(heapMb / 4)) },
  })
}

/**
 * A thread started ahead of need: loading the worker's modules through tsx (exceljs above all)
 * takes a second or more, which an upload should not wait for. It holds no file and does not keep
 * the process alive; it is replaced after each read, and dropped should it die idle.
 */
let spare: { worker: Worker; ready: Promise<void> } | null = null

/** Starts the spare reader thread unless one is there; resolves once it can take a file. */
export function warmReader(): Promise<void> {
  if (!spare) {
    const worker = startWorker(defaultHeapMb)
    worker.unref()
    const ready = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve())
      worker.once('error', reject)
    })
    const mine = { worker, ready }
    worker.once('exit', () => {
      if (spare === mine) spare = null
    })
    // An idle spare that failed is simply gone; the next read starts its own.
    ready.catch(() => {})
    spare = mine
  }
  return spare.ready
}

let running = 0
/** Reader threads reading a file now (a stopped read leaves none behind). */
export const runningReaders = () => running

/**
 * Reader threads at once: each may grow to its heap, so uploads arriving together (PostgreSQL
 * runs their transactions side by side) would add up without bound; with two cores a third
 * parse gains nothing anyway. A read past this waits for one to end.
 */
export const maxReaders = 2
const waiting: (() => void)[] = []

function takeReader(): Promise<void> {
  if (running < maxReaders) {
    running += 1
    return Promise.resolve()
  }
  return new Promise((resolve) => waiting.push(resolve))
}

/** The ended reader's place goes to the next waiting read, if any. */
function releaseReader(): void {
  const next = waiting.shift()
  if (next) next()
  else running -= 1
}

/**
 * The rows of a received file, sheet by sheet in batches: every worksheet of a workbook in its
 * order (`_layout` first), or the one sheet '' of a CSV. Parsing runs in a worker thread that stays
 * a few batches ahead, so the caller's checks and writes overlap with it on another core; the
 * worker ends when the caller stops early (return or throw), on a refusal (rethrown here as a
 * ServiceError) and on any failure.
 */
export async function* readUpload(file: ReceivedFile, opts: ReadOptions = {}): AsyncGenerator<SheetBatch> {
  const job: ReadJob = {
    path: file.path,
    container: file.container,
    batchRows: opts.batchRows ?? batchRowsOf(file.container),
    inFlight: opts.inFlight ?? 4,
    limits: { ...readLimits, ...opts.limits },
  }
  const heapMb = opts.heapMb ?? defaultHeapMb
  await takeReader()
  let worker: Worker
  if (spare && heapMb === defaultHeapMb) {
    worker = spare.worker
    spare = null
    worker.ref()
  } else {
    worker = startWorker(heapMb)
  }
  const inbox: ReadMessage[] = []
  let failure: Error | null = null
  let exited = false
  let wake: (() => void) | null = null
  const poke = () => {
    wake?.()
    wake = null
  }
  worker.on('message', (m: ReadMessage) => {
    inbox.push(m)
    poke()
  })
  worker.on('error', (err) => {
    failure = err
    poke()
  })
  worker.once('exit', () => {
    releaseReader()
    exited = true
    poke()
  })
  worker.postMessage(job)
  try {
    for (;;) {
      while (inbox.length === 0 && !failure && !exited) await new Promise<void>((resolve) => (wake = resolve))
      const m = inbox.shift()
      if (!m) {
        if ((failure as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY')
          throw new ServiceError('tooLarge', 'dataLoad.outOfMemory')
        throw failure ?? new Error('the upload reader ended without finishing')
      }
      // A fresh thread says it is ready; the job was posted to it already.
      if (m.type === 'ready') continue
      if (m.type === 'done') return
      if (m.type === 'refusal') throw new ServiceError(m.refusal.kind, m.refusal.key, m.refusal.params)
      worker.postMessage(1)
      yield m.batch
    }
  } finally {
    await worker.terminate()
    // The next upload finds a thread ready, started now that this one's parsing is over.
    void warmReader().catch(() => {})
  }
}
