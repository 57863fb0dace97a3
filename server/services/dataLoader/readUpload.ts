import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { ServiceError } from '../errors.ts'
import type { ReceivedFile, SheetBatch } from './model.ts'
import { readLimits, type ReadLimits } from './readRows.ts'
import type { ReadJob, ReadMessage } from './readWorker.ts'

export interface ReadOptions {
  /** Rows per batch: large enough that crossing threads costs little, small enough to start early. */
  batchRows?: number
  /** Batches the worker may run ahead of the consumer. */
  inFlight?: number
  limits?: Partial<ReadLimits>
  /** The worker's heap: a file that still exhausts it ends that worker, not the server. */
  heapMb?: number
}

// The worker is TypeScript whatever runs the server (tsx, a test runner): see readWorkerBoot.cjs.
const workerFile = fileURLToPath(new URL('./readWorker.ts', import.meta.url))
const bootFile = new URL('./readWorkerBoot.cjs', import.meta.url)

let running = 0
/** Reader threads alive now (a stopped read leaves none behind). */
export const runningReaders = () => running

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
    batchRows: opts.batchRows ?? 2000,
    inFlight: opts.inFlight ?? 4,
    limits: { ...readLimits, ...opts.limits },
  }
  const worker = new Worker(bootFile, {
    workerData: { ...job, file: workerFile },
    execArgv: ['--import', 'tsx'],
    resourceLimits: { maxOldGenerationSizeMb: opts.heapMb ?? 1024 },
  })
  running += 1
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
    running -= 1
    exited = true
    poke()
  })
  try {
    for (;;) {
      while (inbox.length === 0 && !failure && !exited) await new Promise<void>((resolve) => (wake = resolve))
      const m = inbox.shift()
      if (!m) {
        if ((failure as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') throw new ServiceError('tooLarge', 'dataLoad.outOfMemory')
        throw failure ?? new Error('the upload reader ended without finishing')
      }
      if (m.type === 'done') return
      if (m.type === 'refusal') throw new ServiceError(m.refusal.kind, m.refusal.key, m.refusal.params)
      worker.postMessage(1)
      yield m.batch
    }
  } finally {
    await worker.terminate()
  }
}
