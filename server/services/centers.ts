import type { Center, CenterInput, CenterPage } from '../../contract/projects.ts'
import { isUniqueViolation } from '../db/errors.ts'
import type { Q } from '../db/query.ts'
import {
  countCenterRows,
  countProjectsUsingCenter,
  deleteCenterRow,
  findCenterByCode,
  findCenterById,
  findCenterWithCount,
  insertCenter,
  listCenterRows,
  updateCenterRow,
  type CenterWithCount,
} from '../db/repositories/centers.ts'
import { audit, type Actor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { decodeCursor, encodeCursor } from './keysetCursor.ts'

/** The center directory (SPEC §3 Center): projects pick their centers from it. */

function toCenter(r: CenterWithCount): Center {
  return {
    id: r.id,
    code: r.code,
    nameZh: r.name_zh,
    nameEn: r.name_en,
    region: r.region,
    projectCount: r.project_count,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}

async function mustFind(db: Q, id: number): Promise<Center> {
  const row = await findCenterWithCount(db, id)
  if (!row) throw new ServiceError('notFound', 'center.notFound', [id])
  return toCenter(row)
}

export async function listCenters(
  ctx: ServiceContext,
  q: { q?: string | undefined; after?: string | undefined; limit: number },
): Promise<CenterPage> {
  const search = q.q === '' ? undefined : q.q
  const after = q.after === undefined ? null : decodeCursor(q.after)
  // One row more than asked tells whether a next page exists.
  const rows = await listCenterRows(ctx.db, { q: search, after, limit: q.limit + 1 })
  const more = rows.length > q.limit
  const page = more ? rows.slice(0, q.limit) : rows
  const last = page[page.length - 1]
  return {
    rows: page.map(toCenter),
    next: more && last ? encodeCursor(last.name_zh, last.id) : null,
    total: await countCenterRows(ctx.db, search),
  }
}

async function assertCodeFree(db: Q, code: string, selfId: number | null): Promise<void> {
  const same = await findCenterByCode(db, code)
  if (same && same.id !== selfId) throw new ServiceError('conflict', 'center.codeTaken', [code])
}

/** A concurrent writer took the code between our check and our write (PostgreSQL). */
function codeTaken(err: unknown, code: string): never {
  if (isUniqueViolation(err)) throw new ServiceError('conflict', 'center.codeTaken', [code])
  throw err
}

export async function createCenter(ctx: ServiceContext, actor: Actor, c: CenterInput): Promise<Center> {
  const now = ctx.now()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await assertCodeFree(trx, c.code, null)
      const id = await insertCenter(trx, c, now.toISOString())
      await audit(trx, actor, 'center.create', 'ok', now, { id, code: c.code, nameZh: c.nameZh }, { type: 'center', id })
      return mustFind(trx, id)
    })
  } catch (err) {
    return codeTaken(err, c.code)
  }
}

export async function updateCenter(ctx: ServiceContext, actor: Actor, id: number, c: CenterInput): Promise<Center> {
  const now = ctx.now()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const self = await findCenterById(trx, id)
      if (!self) throw new ServiceError('notFound', 'center.notFound', [id])
      await assertCodeFree(trx, c.code, id)
      await updateCenterRow(trx, id, c, now.toISOString())
      const was = { code: self.code, nameZh: self.name_zh, nameEn: self.name_en, region: self.region }
      const changed = Object.fromEntries(Object.entries(was).filter(([k, v]) => c[k as keyof CenterInput] !== v))
      await audit(trx, actor, 'center.update', 'ok', now, { id, code: c.code, nameZh: c.nameZh, was: changed }, { type: 'center', id })
      return mustFind(trx, id)
    })
  } catch (err) {
    return codeTaken(err, c.code)
  }
}

/** Refused while any project lists the center: its research objects and roles refer to it. */
export async function deleteCenter(ctx: ServiceContext, actor: Actor, id: number): Promise<void> {
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    const self = await findCenterById(trx, id)
    if (!self) throw new ServiceError('notFound', 'center.notFound', [id])
    const using = await countProjectsUsingCenter(trx, id)
    if (using > 0) throw new ServiceError('conflict', 'center.inUse', [using])
    await deleteCenterRow(trx, id)
    await audit(trx, actor, 'center.delete', 'ok', now, { id, code: self.code, nameZh: self.name_zh }, { type: 'center', id })
  })
}
