import type { Generated, Selectable } from 'kysely'

export interface DiseaseTable {
  id: Generated<number>
  name: string
  name_en: Generated<string>
  icon: string
  sort: Generated<number>
  created_at: string
  updated_at: string
}

export interface TimelineItemTable {
  id: Generated<number>
  code: string
  name: string
  name_en: string
  icon: string
  sort: Generated<number>
}

/** Minimal until the projects work: enough for a disease to know it is used. */
export interface IndicatorTable {
  id: Generated<number>
  code: string
  name_zh: string
  name_en: string
  comment: string
  type: string
  display: string
  data_type: string
  /** JSON array of option texts. */
  options: string
  dependent_field_id: number | null
  dependent_value: string | null
  unit: string
  minimum: number | null
  maximum: number | null
  date_format: string | null
  default_value: string | null
  status: number
  index_class: string
  category: string
  disease_id: number | null
  created_at: string
  updated_at: string
}

export type DiseaseRow = Selectable<DiseaseTable>
export type IndicatorRow = Selectable<IndicatorTable>
