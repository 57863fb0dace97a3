import { createReadStream } from 'node:fs'
import fs from 'node:fs/promises'
import { createInflateRaw } from 'node:zlib'
import { ServiceError } from '../errors.ts'
import type { InflateBudget } from '../inflateBudget.ts'

/**
 * The entries of a zip on disk, read from its central directory so the caller picks the order,
 * each streamed from its byte range and inflated under an InflateBudget (../inflateBudget.ts), as
 * the dictionary import does (dictionaryExchange/zip.ts) on a file instead of a buffer, so the
 * upload is never held.
 */

export interface ZipEntry {
  name: string
  method: number
  /** Offset of the entry's local header. */
  local: number
  compressedSize: number
}

/** A workbook has a few dozen entries; thousands are no workbook we read. */
const maxEntries = 10_000
/** The central directory of maxEntries entries with long names stays well within this. */
const maxDirectoryBytes = 8 * 1024 * 1024

const notZip = () => new ServiceError('badRequest', 'dataLoad.notXlsx')

async function readAt(fd: fs.FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length)
  const { bytesRead } = await fd.read(buf, 0, length, position)
  return buf.subarray(0, bytesRead)
}

/** The central directory; zip64 and encrypted entries are no workbook we read. */
export async function zipEntries(fd: fs.FileHandle): Promise<Map<string, ZipEntry>> {
  const { size } = await fd.stat()
  if (size < 22) throw notZip()
  const tailStart = Math.max(0, size - 22 - 0xffff)
  const tail = await readAt(fd, tailStart, size - tailStart)
  let eocd = -1
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i
      break
    }
  }
  if (eocd < 0) throw notZip()
  const count = tail.readUInt16LE(eocd + 10)
  const dirSize = tail.readUInt32LE(eocd + 12)
  const dirStart = tail.readUInt32LE(eocd + 16)
  if (count === 0xffff || dirStart === 0xffffffff || count > maxEntries || dirSize > maxDirectoryBytes) throw notZip()
  if (dirStart + dirSize > size) throw notZip()
  const dir = await readAt(fd, dirStart, dirSize)
  const out = new Map<string, ZipEntry>()
  let p = 0
  for (let n = 0; n < count; n++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== 0x02014b50) throw notZip()
    const flags = dir.readUInt16LE(p + 8)
    const method = dir.readUInt16LE(p + 10)
    const compressedSize = dir.readUInt32LE(p + 20)
    const nameLength = dir.readUInt16LE(p + 28)
    const local = dir.readUInt32LE(p + 42)
    const name = dir.toString('utf8', p + 46, p + 46 + nameLength)
    p += 46 + nameLength + dir.readUInt16LE(p + 30) + dir.readUInt16LE(p + 32)
    if (flags & 1 || (method !== 0 && method !== 8)) throw notZip()
    if (local + 30 + compressedSize > size) throw notZip()
    out.set(name, { name, method, local, compressedSize })
  }
  return out
}

/**
 * One entry as UTF-8 text chunks (decoded across chunk boundaries, invalid bytes refused), read
 * and inflated with back-pressure: nothing runs ahead of the consumer.
 */
export async function* entryText(path: string, fd: fs.FileHandle, entry: ZipEntry, budget: InflateBudget): AsyncGenerator<string> {
  const head = await readAt(fd, entry.local, 30)
  if (head.length < 30 || head.readUInt32LE(0) !== 0x04034b50) throw notZip()
  const start = entry.local + 30 + head.readUInt16LE(26) + head.readUInt16LE(28)
  const decoder = new TextDecoder('utf-8', { fatal: true })
  if (entry.compressedSize === 0) return
  const raw = createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: 64 * 1024 })
  const source = entry.method === 0 ? raw : raw.pipe(createInflateRaw({ chunkSize: 64 * 1024 }))
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      budget.take(chunk)
      yield decoder.decode(chunk, { stream: true })
    }
    yield decoder.decode()
  } finally {
    raw.destroy()
    if (source !== raw) source.destroy()
  }
}
