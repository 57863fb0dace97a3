import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { ServiceContext } from '../context.ts'

/**
 * The files of data loading, kept for the retention period: DATA_DIR/loads/<sha256>. A file is
 * moved or written in whole (a temporary name, then a rename), so a half-written one is never
 * served; temporary files live in DATA_DIR/loads/tmp and are removed by whoever made them.
 */

export const loadsDir = (ctx: ServiceContext) => path.join(ctx.dataDir, 'loads')
export const tmpDir = (ctx: ServiceContext) => path.join(loadsDir(ctx), 'tmp')

/** A fresh temporary path (the directory made). */
export async function tmpPath(ctx: ServiceContext, ext: string): Promise<string> {
  await fs.mkdir(tmpDir(ctx), { recursive: true })
  return path.join(tmpDir(ctx), `${crypto.randomBytes(12).toString('hex')}.${ext}`)
}

/** Keeps a finished temporary file under its content hash (moved, not copied). */
export async function keepFile(ctx: ServiceContext, from: string, sha256: string): Promise<void> {
  await fs.rename(from, path.join(loadsDir(ctx), sha256))
}

/** Keeps bytes under their hash and answers it. */
export async function keepBytes(ctx: ServiceContext, data: Buffer): Promise<string> {
  const sha256 = crypto.createHash('sha256').update(data).digest('hex')
  const tmp = await tmpPath(ctx, 'part')
  await fs.writeFile(tmp, data)
  await keepFile(ctx, tmp, sha256)
  return sha256
}

/** The kept file's path, or undefined when it is gone (pruned, or never kept). */
export async function keptPath(ctx: ServiceContext, sha256: string): Promise<string | undefined> {
  const p = path.join(loadsDir(ctx), sha256)
  try {
    await fs.access(p)
    return p
  } catch {
    return undefined
  }
}

/**
 * Removes what a process ended mid-upload left in the temporary directory (kill -9, power loss):
 * run at start, before the server takes calls, so nothing in it belongs to a live upload (a
 * DATA_DIR serves one process). A long-running server sweeps stale ones daily (retention.ts).
 */
export async function clearTmpBeforeStart(dataDir: string): Promise<void> {
  await fs.rm(path.join(dataDir, 'loads', 'tmp'), { recursive: true, force: true })
}
