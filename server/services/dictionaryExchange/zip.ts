import { createInflateRaw } from 'node:zlib'
import { importLimits } from '../../../contract/dictionaryExchange.ts'
import { ServiceError } from '../errors.ts'
import type { InflateBudget } from '../inflateBudget.ts'

/**
 * The entries of a zip held in memory (an upload is at most importLimits.maxBytes), read from its
 * central directory so the caller picks the order, and inflated as a stream under an
 * InflateBudget (../inflateBudget.ts).
 */

export interface ZipEntry {
  name: string
  method: number
  start: number
  compressedSize: number
}

const notZip = () => new ServiceError('badRequest', 'import.notXlsx')

/** The central directory; zip64 and encrypted entries are no workbook we read. */
export function zipEntries(data: Buffer): Map<string, ZipEntry> {
  const lowest = Math.max(0, data.length - 22 - 0xffff)
  let eocd = -1
  for (let i = data.length - 22; i >= lowest; i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i
      break
    }
  }
  if (eocd < 0) throw notZip()
  const count = data.readUInt16LE(eocd + 10)
  let p = data.readUInt32LE(eocd + 16)
  if (count === 0xffff || p === 0xffffffff || count > importLimits.maxZipEntries) throw notZip()
  const out = new Map<string, ZipEntry>()
  for (let n = 0; n < count; n++) {
    if (p + 46 > data.length || data.readUInt32LE(p) !== 0x02014b50) throw notZip()
    const flags = data.readUInt16LE(p + 8)
    const method = data.readUInt16LE(p + 10)
    const compressedSize = data.readUInt32LE(p + 20)
    const nameLength = data.readUInt16LE(p + 28)
    const local = data.readUInt32LE(p + 42)
    const name = data.toString('utf8', p + 46, p + 46 + nameLength)
    p += 46 + nameLength + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32)
    if (flags & 1 || (method !== 0 && method !== 8)) throw notZip()
    if (local + 30 > data.length || data.readUInt32LE(local) !== 0x04034b50) throw notZip()
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28)
    if (start + compressedSize > data.length) throw notZip()
    out.set(name, { name, method, start, compressedSize })
  }
  return out
}

/**
 * One entry as UTF-8 text chunks (decoded across chunk boundaries, invalid bytes refused),
 * inflated with back-pressure: nothing runs ahead of the consumer.
 */
export async function* entryText(data: Buffer, entry: ZipEntry, budget: InflateBudget): AsyncGenerator<string> {
  const raw = data.subarray(entry.start, entry.start + entry.compressedSize)
  const decoder = new TextDecoder('utf-8', { fatal: true })
  if (entry.method === 0) {
    budget.take(raw)
    yield decoder.decode(raw)
    return
  }
  const inflate = createInflateRaw({ chunkSize: 64 * 1024 })
  inflate.end(raw)
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      budget.take(chunk)
      yield decoder.decode(chunk, { stream: true })
    }
    yield decoder.decode()
  } finally {
    inflate.destroy()
  }
}
