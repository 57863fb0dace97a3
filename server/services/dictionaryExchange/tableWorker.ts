import { ServiceError } from '../errors.ts'
import { readCsv } from './csv.ts'
import type { Container } from './formats.ts'
import type { Table } from './model.ts'
import { readXlsx } from './xlsx.ts'

/** What crosses back from the worker: a table, or a refusal as plain data (classes do not cross threads). */
export type TableOutcome = { table: Table } | { refusal: Pick<ServiceError, 'kind' | 'key' | 'params'> }

/** The piscina task: parse one upload off the main thread. */
export default async function parseTable({ container, data }: { container: Container; data: Uint8Array }): Promise<TableOutcome> {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  try {
    return { table: container === 'xlsx' ? await readXlsx(bytes) : await readCsv(bytes) }
  } catch (err) {
    if (err instanceof ServiceError) return { refusal: { kind: err.kind, key: err.key, params: err.params } }
    throw err
  }
}
