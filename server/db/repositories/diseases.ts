import type { DiseaseInput } from '../../../contract/dictionary.ts'
import type { Q } from '../query.ts'
import type { DiseaseRow } from '../tables/dictionary.ts'

/** A disease with the figures of the disease index screen (SPEC §3 Disease). */
export interface DiseaseWithCounts extends DiseaseRow {
  class_count: number
  field_count: number
  selected_count: number
  project_count: number
}

/**
 * Diseases with their counts, each a correlated subquery served by an index on disease_id
 * (indicator_disease_idx, project_disease_idx): a handful of diseases, no full scans.
 */
function withCounts(db: Q) {
  return db
    .selectFrom('disease')
    .selectAll('disease')
    .select((eb) => [
      eb
        .selectFrom('indicator')
        .whereRef('indicator.disease_id', '=', 'disease.id')
        .where('indicator.index_class', '<>', '')
        .select((e) => e.fn.count<number | string>('indicator.index_class').distinct().as('n'))
        .as('class_count'),
      eb
        .selectFrom('indicator')
        .whereRef('indicator.disease_id', '=', 'disease.id')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .as('field_count'),
      eb
        .selectFrom('indicator')
        .whereRef('indicator.disease_id', '=', 'disease.id')
        .where('indicator.status', '=', 1)
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .as('selected_count'),
      eb
        .selectFrom('project')
        .whereRef('project.disease_id', '=', 'disease.id')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .as('project_count'),
    ])
}

type CountedRow = DiseaseRow & Record<'class_count' | 'field_count' | 'selected_count' | 'project_count', number | string | null>

// PostgreSQL answers COUNT as bigint (parsed to a number by connect.ts) and a scalar subquery
// may be typed nullable: normalise once here.
function counted(r: CountedRow): DiseaseWithCounts {
  return {
    ...r,
    class_count: Number(r.class_count ?? 0),
    field_count: Number(r.field_count ?? 0),
    selected_count: Number(r.selected_count ?? 0),
    project_count: Number(r.project_count ?? 0),
  }
}

export async function listDiseasesWithCounts(db: Q): Promise<DiseaseWithCounts[]> {
  const rows = await withCounts(db).orderBy('disease.sort').orderBy('disease.id').execute()
  return rows.map(counted)
}

export async function findDiseaseWithCounts(db: Q, id: number): Promise<DiseaseWithCounts | undefined> {
  const row = await withCounts(db).where('disease.id', '=', id).executeTakeFirst()
  return row && counted(row)
}

export function findDiseaseById(db: Q, id: number): Promise<DiseaseRow | undefined> {
  return db.selectFrom('disease').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findDiseaseByName(db: Q, name: string): Promise<DiseaseRow | undefined> {
  return db.selectFrom('disease').selectAll().where('name', '=', name).executeTakeFirst()
}

/** New diseases go to the end of the list (the seeded ones hold sort 0..6). */
export async function insertDisease(db: Q, d: DiseaseInput, now: string): Promise<number> {
  const last = await db
    .selectFrom('disease')
    .select((eb) => eb.fn.max('sort').as('m'))
    .executeTakeFirst()
  const sort = last?.m == null ? 0 : Number(last.m) + 1
  const row = await db
    .insertInto('disease')
    .values({ name: d.name, name_en: d.nameEn, icon: d.icon, sort, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateDiseaseRow(db: Q, id: number, d: DiseaseInput, now: string): Promise<void> {
  await db.updateTable('disease').set({ name: d.name, name_en: d.nameEn, icon: d.icon, updated_at: now }).where('id', '=', id).execute()
}

export async function deleteDiseaseRow(db: Q, id: number): Promise<void> {
  await db.deleteFrom('disease').where('id', '=', id).execute()
}

export async function countProjectsOfDisease(db: Q, id: number): Promise<number> {
  const row = await db
    .selectFrom('project')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('disease_id', '=', id)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The disease's indicators stay in the dictionary, belonging to no disease. Answers how many. */
export async function detachIndicatorsFromDisease(db: Q, id: number, now: string): Promise<number> {
  const res = await db.updateTable('indicator').set({ disease_id: null, updated_at: now }).where('disease_id', '=', id).executeTakeFirst()
  return Number(res.numUpdatedRows)
}

export function listTimelineItems(db: Q) {
  return db.selectFrom('timeline_item').selectAll().orderBy('sort').orderBy('id').execute()
}
