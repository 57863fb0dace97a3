import type { Career, CareerInput, CareerListQuery, CareerPage } from '../../contract/organization.ts'
import type { Q } from '../db/query.ts'
import {
  countCareerRows,
  deleteCareerRow,
  findCareerByName,
  findCareerWithCount,
  insertCareer,
  listCareerRows,
  updateCareerRow,
  type CareerWithCount,
} from '../db/repositories/organization.ts'
import { isUniqueViolation } from '../db/errors.ts'
import { audit, type Actor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { decodeCursor, encodeCursor } from './keysetCursor.ts'

/** Careers (job titles, issue 8 item 1): names unique whatever their case; not deleted while someone holds one. */

const toCareer = (r: CareerWithCount): Career => ({
  id: r.id,
  name: r.name,
  remarks: r.remarks,
  userCount: r.user_count,
  createdAt: r.created_at,
})

/** SQLite's lower() folds ASCII only: fold the same letters here so the prefix compares alike on both databases. */
const foldAscii = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

export async function listCareers(ctx: ServiceContext, q: CareerListQuery): Promise<CareerPage> {
  const filter = q.q ? foldAscii(q.q) : undefined
  const after = q.after === undefined ? null : decodeCursor(q.after)
  const sort = q.sort === 'name' ? 'name' : 'id'
  // One row more than asked tells whether a next page exists.
  const [rows, total] = await Promise.all([
    listCareerRows(ctx.db, { q: filter, sort, order: q.order, after, limit: q.limit + 1 }),
    countCareerRows(ctx.db, filter),
  ])
  const more = rows.length > q.limit
  const page = more ? rows.slice(0, q.limit) : rows
  const last = page[page.length - 1]
  return {
    items: page.map(toCareer),
    next: more && last ? encodeCursor(sort === 'name' ? last.name : '', last.id) : null,
    total,
  }
}

async function mustFind(db: Q, id: number): Promise<Career> {
  const row = await findCareerWithCount(db, id)
  if (!row) throw new ServiceError('notFound', 'career.notFound', [id])
  return toCareer(row)
}

async function assertNameFree(db: Q, name: string, selfId: number | null): Promise<void> {
  const same = await findCareerByName(db, name)
  if (same && same.id !== selfId) throw new ServiceError('conflict', 'rule.exists', [name])
}

/** A concurrent writer took the name between our check and our write (PostgreSQL). */
function nameTaken(err: unknown, name: string): never {
  if (isUniqueViolation(err)) throw new ServiceError('conflict', 'rule.exists', [name])
  throw err
}

export async function createCareer(ctx: ServiceContext, actor: Actor, c: CareerInput): Promise<Career> {
  const now = ctx.now()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await assertNameFree(trx, c.name, null)
      const id = await insertCareer(trx, { ...c, now: now.toISOString() })
      await audit(trx, actor, 'career.create', 'ok', now, { id, name: c.name }, { type: 'career', id })
      return mustFind(trx, id)
    })
  } catch (err) {
    return nameTaken(err, c.name)
  }
}

export async function updateCareer(ctx: ServiceContext, actor: Actor, id: number, c: CareerInput): Promise<Career> {
  const now = ctx.now()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const self = await mustFind(trx, id)
      await assertNameFree(trx, c.name, id)
      await updateCareerRow(trx, id, c, now.toISOString())
      await audit(
        trx,
        actor,
        'career.update',
        'ok',
        now,
        { id, name: c.name, ...(self.name !== c.name ? { oldName: self.name } : {}) },
        { type: 'career', id },
      )
      return mustFind(trx, id)
    })
  } catch (err) {
    return nameTaken(err, c.name)
  }
}

export async function deleteCareer(ctx: ServiceContext, actor: Actor, id: number): Promise<void> {
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    const self = await mustFind(trx, id)
    if (self.userCount > 0) throw new ServiceError('conflict', 'career.hasUsers', [self.userCount])
    await deleteCareerRow(trx, id)
    await audit(trx, actor, 'career.delete', 'ok', now, { id, name: self.name }, { type: 'career', id })
  })
}
