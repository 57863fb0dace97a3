import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { userPaths } from '../../contract/users.ts'
import { isStoredFileNamed } from '../db/repositories/storedFiles.ts'
import type { ServiceContext } from './context.ts'

/**
 * Files kept by content: DATA_DIR/files/<sha256>. The same bytes are stored once, a name never
 * comes from the user, and a file is written whole (to a temporary name, then renamed) so no
 * half-written file is ever served.
 */

const dirOf = (ctx: ServiceContext) => path.join(ctx.dataDir, 'files')

const sha256Hex = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex')

/** Files some call of this process is storing and naming now, by path: never removed under it. */
const inUse = new Map<string, number>()
/** Files created by a call whose write failed while another call still used them: the last one decides. */
const leftOver = new Set<string>()

/** Writes the bytes unless they are stored already; answers whether this call created the file. */
async function writeFile(dir: string, target: string, data: Buffer): Promise<boolean> {
  const exists = await fs.stat(target).then(
    () => true,
    () => false,
  )
  if (exists) return false
  await fs.mkdir(dir, { recursive: true })
  const tmp = `${target}.${crypto.randomBytes(6).toString('hex')}.tmp`
  await fs.writeFile(tmp, data)
  await fs.rename(tmp, target)
  return true
}

/**
 * Stores the bytes, then runs `write`, the database write that names them by their hash. Should it
 * fail, a file this call created is removed again, unless a row names it (the same bytes kept for
 * someone else) or another call is storing it now; then the failure is passed on.
 */
export async function withStoredFile<T>(ctx: ServiceContext, data: Buffer, write: (hash: string) => Promise<T>): Promise<T> {
  const hash = sha256Hex(data)
  const dir = dirOf(ctx)
  const target = path.join(dir, hash)
  inUse.set(target, (inUse.get(target) ?? 0) + 1)
  try {
    const created = await writeFile(dir, target, data)
    try {
      return await write(hash)
    } catch (err) {
      // When the database cannot even answer, the file is kept: a kept file is harmless, a lost one is not.
      const named = await isStoredFileNamed(ctx.db, hash, userPaths.file(hash)).catch(() => true)
      if ((created || leftOver.has(target)) && !named) {
        if (inUse.get(target) === 1) {
          leftOver.delete(target)
          await fs.rm(target, { force: true })
        } else leftOver.add(target)
      }
      throw err
    }
  } finally {
    const n = (inUse.get(target) ?? 1) - 1
    if (n > 0) inUse.set(target, n)
    else {
      inUse.delete(target)
      leftOver.delete(target)
    }
  }
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
