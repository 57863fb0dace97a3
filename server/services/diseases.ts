import type { Disease, DiseaseInput } from '../../contract/dictionary.ts'
import type { Q } from '../db/query.ts'
import {
  countProjectsOfDisease,
  deleteDiseaseRow,
  detachIndicatorsFromDisease,
  findDiseaseById,
  findDiseaseByName,
  findDiseaseWithCounts,
  insertDisease,
  listDiseasesWithCounts,
  listTimelineItems,
  updateDiseaseRow,
  type DiseaseWithCounts,
} from '../db/repositories/diseases.ts'
import { isUniqueViolation } from '../db/errors.ts'
import { audit, type Actor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'

function toDisease(r: DiseaseWithCounts): Disease {
  return {
    id: r.id,
    name: r.name,
    nameEn: r.name_en,
    icon: r.icon,
    classCount: r.class_count,
    fieldCount: r.field_count,
    selectedCount: r.selected_count,
    projectCount: r.project_count,
  }
}

async function mustFind(db: Q, id: number): Promise<Disease> {
  const row = await findDiseaseWithCounts(db, id)
  if (!row) throw new ServiceError('notFound', 'disease.notFound', [id])
  return toDisease(row)
}

export async function listDiseases(ctx: ServiceContext): Promise<Disease[]> {
  return (await listDiseasesWithCounts(ctx.db)).map(toDisease)
}

export function getDisease(ctx: ServiceContext, id: number): Promise<Disease> {
  return mustFind(ctx.db, id)
}

async function assertNameFree(db: Q, name: string, selfId: number | null): Promise<void> {
  const same = await findDiseaseByName(db, name)
  if (same && same.id !== selfId) throw new ServiceError('conflict', 'disease.exists', [name])
}

/** A concurrent writer took the name between our check and our write (PostgreSQL). */
function nameTaken(err: unknown, name: string): never {
  if (isUniqueViolation(err)) throw new ServiceError('conflict', 'disease.exists', [name])
  throw err
}

export async function createDisease(ctx: ServiceContext, actor: Actor, d: DiseaseInput): Promise<Disease> {
  const now = ctx.now()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await assertNameFree(trx, d.name, null)
      const id = await insertDisease(trx, d, now.toISOString())
      await audit(trx, actor, 'disease.create', 'ok', now, { id, name: d.name }, { type: 'disease', id })
      return mustFind(trx, id)
    })
  } catch (err) {
    return nameTaken(err, d.name)
  }
}

export async function updateDisease(ctx: ServiceContext, actor: Actor, id: number, d: DiseaseInput): Promise<Disease> {
  const now = ctx.now()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const self = await findDiseaseById(trx, id)
      if (!self) throw new ServiceError('notFound', 'disease.notFound', [id])
      await assertNameFree(trx, d.name, id)
      await updateDiseaseRow(trx, id, d, now.toISOString())
      await audit(
        trx,
        actor,
        'disease.update',
        'ok',
        now,
        { id, name: d.name, ...(self.name !== d.name ? { oldName: self.name } : {}) },
        { type: 'disease', id },
      )
      return mustFind(trx, id)
    })
  } catch (err) {
    return nameTaken(err, d.name)
  }
}

/**
 * SPEC §8: a disease with related projects cannot be deleted. Its indicators are the
 * dictionary's, not the disease's: they stay, belonging to no disease, in the same transaction.
 */
export async function deleteDisease(ctx: ServiceContext, actor: Actor, id: number): Promise<void> {
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    const self = await findDiseaseById(trx, id)
    if (!self) throw new ServiceError('notFound', 'disease.notFound', [id])
    if ((await countProjectsOfDisease(trx, id)) > 0) throw new ServiceError('conflict', 'disease.hasProjects')
    const detached = await detachIndicatorsFromDisease(trx, id, now.toISOString())
    await deleteDiseaseRow(trx, id)
    await audit(trx, actor, 'disease.delete', 'ok', now, { id, name: self.name, detachedIndicators: detached }, { type: 'disease', id })
  })
}

export async function listTimeline(ctx: ServiceContext) {
  const rows = await listTimelineItems(ctx.db)
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.name, nameEn: r.name_en, icon: r.icon }))
}
