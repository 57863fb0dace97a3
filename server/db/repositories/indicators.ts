import type { IndicatorInput } from '../../../contract/dictionary.ts'
import type { Q } from '../query.ts'
import type { IndicatorRow } from '../tables/dictionary.ts'

/** Row values of an indicator as a person entered it (no id, no timestamps). */
export function indicatorValues(f: IndicatorInput) {
  return {
    code: f.code,
    name_zh: f.nameZh,
    name_en: f.nameEn,
    comment: f.comment,
    type: f.type,
    display: f.display,
    data_type: f.dataType,
    options: JSON.stringify(f.options),
    dependent_field_id: f.dependentFieldId,
    dependent_value: f.dependentValue,
    unit: f.unit,
    minimum: f.minimum,
    maximum: f.maximum,
    date_format: f.dateFormat,
    default_value: f.defaultValue,
    status: f.status,
    index_class: f.indexClass,
    category: f.category,
    disease_id: f.diseaseId,
  }
}

export async function insertIndicator(db: Q, f: IndicatorInput, now: string): Promise<number> {
  const row = await db
    .insertInto('indicator')
    .values({ ...indicatorValues(f), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export function findIndicatorById(db: Q, id: number): Promise<IndicatorRow | undefined> {
  return db.selectFrom('indicator').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findIndicatorsByCodes(db: Q, codes: readonly string[]): Promise<IndicatorRow[]> {
  if (codes.length === 0) return Promise.resolve([])
  return db.selectFrom('indicator').selectAll().where('code', 'in', codes).execute()
}

export function findIndicatorsByIds(db: Q, ids: readonly number[]): Promise<IndicatorRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db.selectFrom('indicator').selectAll().where('id', 'in', ids).execute()
}

/** Ids of the given indicators that a published template version holds. */
export async function indicatorsInPublishedVersions(db: Q, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('template_item')
    .innerJoin('template_version', 'template_version.id', 'template_item.version_id')
    .select('template_item.indicator_id')
    .where('template_version.state', '=', 'published')
    .where('template_item.indicator_id', 'in', ids)
    .distinct()
    .execute()
  return new Set(rows.map((r) => r.indicator_id))
}
