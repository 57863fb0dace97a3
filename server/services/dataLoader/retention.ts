import fs from 'node:fs/promises'
import path from 'node:path'
import { hashesInUseSince } from '../../db/repositories/dataLoadRecords.ts'
import type { ServiceContext } from '../context.ts'
import { loadsDir, tmpDir } from './loadFiles.ts'

/**
 * The retention period of data loading's kept files (DATA_RETENTION_DAYS). Files are named by
 * their content hash, so one file may serve an old record and a newer one (the same file uploaded
 * twice): a file goes only when it is older than the period itself and no record of the period
 * names it. Its mtime is when it was last kept, so a file an upload or download keeps while the
 * prune runs, before its record is written, is never taken.
 */

const dayMs = 24 * 60 * 60 * 1000
/** Temporary files older than this belong to no upload still running. */
export const tmpMaxAgeMs = 60 * 60 * 1000

export const retentionCutoff = (ctx: ServiceContext) => new Date(ctx.now().getTime() - ctx.retentionDays * dayMs)

const isHash = (name: string) => /^[0-9a-f]{64}$/.test(name)

/** Files of `dir` older than `before` that `keep` does not hold back, removed; answers how many. */
async function removeOlder(dir: string, before: Date, keep: (name: string) => boolean): Promise<number> {
  let names: string[]
  try {
    names = await fs.readdir(dir)
  } catch {
    return 0
  }
  let removed = 0
  for (const name of names) {
    if (keep(name)) continue
    const p = path.join(dir, name)
    try {
      const st = await fs.stat(p)
      if (!st.isFile() || st.mtime >= before) continue
      await fs.unlink(p)
      removed++
    } catch {
      // Gone already (another server sharing DATA_DIR pruned it): nothing to do.
    }
  }
  return removed
}

/** Kept files past the retention period that no record of the period still names. */
export async function pruneLoads(ctx: ServiceContext): Promise<number> {
  const cutoff = retentionCutoff(ctx)
  const inUse = await hashesInUseSince(ctx.db, cutoff.toISOString())
  return removeOlder(loadsDir(ctx), cutoff, (name) => !isHash(name) || inUse.has(name))
}

/** Leftovers in loads/tmp of uploads that ended without cleaning up (a killed server). */
export function sweepTmp(ctx: ServiceContext): Promise<number> {
  return removeOlder(tmpDir(ctx), new Date(ctx.now().getTime() - tmpMaxAgeMs), () => false)
}

export interface RetentionLog {
  info(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

/**
 * At start: the tmp leftovers and the prune; then the prune once a day. The timer does not keep
 * the process alive; the answer stops it.
 */
export function startRetention(ctx: ServiceContext, log: RetentionLog): () => void {
  const prune = async () => {
    try {
      const removed = await pruneLoads(ctx)
      if (removed > 0) log.info({ removed, retentionDays: ctx.retentionDays }, 'data loading: kept files past retention removed')
    } catch (err) {
      log.error({ err }, 'data loading: pruning kept files failed')
    }
  }
  const daily = async () => {
    try {
      const swept = await sweepTmp(ctx)
      if (swept > 0) log.info({ swept }, 'data loading: temporary files left over removed')
    } catch (err) {
      log.error({ err }, 'data loading: sweeping temporary files failed')
    }
    await prune()
  }
  void daily()
  const timer = setInterval(() => void daily(), dayMs)
  timer.unref()
  return () => clearInterval(timer)
}
