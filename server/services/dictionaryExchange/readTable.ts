import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'
import { ServiceError } from '../errors.ts'
import type { Container } from './formats.ts'
import type { Table } from './model.ts'
import type { TableOutcome } from './tableWorker.ts'

/**
 * Parsing runs in worker threads: a 20 MB one-line CSV or a slow workbook costs seconds of CPU
 * that must not stop the server answering everyone else. The worker's own heap limit is a second
 * wall behind the streaming limits: should a file still exhaust it, that worker dies, not the server.
 */
let pool: Piscina | null = null

function workers(): Piscina {
  pool ??= new Piscina({
    filename: fileURLToPath(new URL('./tableWorker.ts', import.meta.url)),
    minThreads: 0,
    maxThreads: 2,
    idleTimeout: 30_000,
    // The worker is TypeScript, whatever runs the server (tsx, a test runner); V8 flags such as
    // --max-old-space-size are refused in a worker's execArgv, its heap is set by resourceLimits.
    execArgv: ['--import', 'tsx'],
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  })
  return pool
}

export async function readTable(container: Container, data: Buffer): Promise<Table> {
  let outcome: TableOutcome
  try {
    outcome = (await workers().run({ container, data })) as TableOutcome
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new ServiceError('tooLarge', 'import.outOfMemory')
    }
    throw err
  }
  if ('refusal' in outcome) throw new ServiceError(outcome.refusal.kind, outcome.refusal.key, outcome.refusal.params)
  return outcome.table
}
