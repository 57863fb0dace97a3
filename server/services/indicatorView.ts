import type { Choice, Indicator, IndicatorInput } from '../../contract/dictionary.ts'
import type { IndicatorRow } from '../db/tables/dictionary.ts'

/** An indicator row as the contract shows it; `inUse` comes from the published versions. */
export function toIndicator(r: IndicatorRow, inUse: boolean): Indicator {
  return {
    id: r.id,
    code: r.code,
    nameZh: r.name_zh,
    nameEn: r.name_en,
    comment: r.comment,
    type: r.type as IndicatorInput['type'],
    display: r.display as IndicatorInput['display'],
    dataType: r.data_type as IndicatorInput['dataType'],
    options: JSON.parse(r.options) as Choice[],
    dependentFieldId: r.dependent_field_id,
    dependentValue: r.dependent_value,
    unit: r.unit,
    minimum: r.minimum === null ? null : Number(r.minimum),
    maximum: r.maximum === null ? null : Number(r.maximum),
    dateFormat: r.date_format as IndicatorInput['dateFormat'],
    defaultValue: r.default_value,
    status: r.status === 1 ? 1 : 0,
    indexClass: r.index_class,
    category: r.category as IndicatorInput['category'],
    diseaseId: r.disease_id,
    inUse,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}
