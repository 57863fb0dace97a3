import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { ServiceContext } from './context.ts'

/**
 * Files kept by content: DATA_DIR/files/<sha256>. The same bytes are stored once, a name never
 * comes from the user, and a file is written whole (to a temporary name, then renamed) so no
 * half-written file is ever served.
 */

const dirOf = (ctx: ServiceContext) => path.join(ctx.dataDir, 'files')

const sha256Hex = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex')

/** Stores the bytes and answers their hash. */
export async function storeFile(ctx: ServiceContext, data: Buffer): Promise<string> {
  const hash = sha256Hex(data)
  const dir = dirOf(ctx)
  await fs.mkdir(dir, { recursive: true })
  const target = path.join(dir, hash)
  const tmp = `${target}.${crypto.randomBytes(6).toString('hex')}.tmp`
  await fs.writeFile(tmp, data)
  await fs.rename(tmp, target)
  return hash
}

/** The stored bytes, or undefined; `hash` is checked as 64 hex digits by the route. */
export async function readStoredFile(ctx: ServiceContext, hash: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(path.join(dirOf(ctx), hash))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}
