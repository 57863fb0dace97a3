import { z } from 'zod'
import { idParam, idValue, integerParam } from './ids.ts'
import { envelope } from './envelope.ts'

/**
 * The data dictionary (SPEC §3 Dictionary/index field, Disease): indicators grouped by disease
 * and class. The pure rules a field must obey live in contract/indicatorRules.ts so the server,
 * the import and the client form apply the same ones.
 */

export const indicatorTypes = ['single', 'multiple', 'blank', 'date'] as const
export const displayForms = ['radio', 'checkbox', 'select', 'input', 'textarea'] as const
export const dataTypes = ['text', 'integer', 'decimal'] as const
export const dateFormats = ['YYYY-MM-DD', 'YYYY-MM', 'YYYY', 'HH:mm', 'HH:mm:ss', 'YYYY-MM-DD HH:mm', 'YYYY-MM-DD HH:mm:ss'] as const
/** SPEC §3 index category; 'all' means every collect type. */
export const indexCategories = ['all', 'object', 'followUp', 'interview', 'other', 'sample'] as const

export type IndicatorType = (typeof indicatorTypes)[number]
export type DisplayForm = (typeof displayForms)[number]
export type DataType = (typeof dataTypes)[number]
export type DateFormat = (typeof dateFormats)[number]
export type IndexCategory = (typeof indexCategories)[number]

/** Length of a choice label, in either language: REDCap labels run long. */
export const optionLength = { min: 1, max: 500 } as const
export const maxOptions = 200
/** A choice code: what a stored value holds. REDCap's raw codes (1, 0, -1, yes, 1.5) fit. */
export const choiceCodePattern = /^-?[A-Za-z0-9_.]{1,32}$/

/**
 * One choice of a single or multiple choice field. A stored value is the code, so its meaning
 * never moves when a label is reworded; the labels are shown, in the reader's language with the
 * other as fallback. The lengths and the code's shape are rules of contract/indicatorRules.ts.
 */
export const choice = z.object({
  code: z.string().trim().max(100),
  labelZh: z.string().trim().max(2000).default(''),
  labelEn: z.string().trim().max(2000).default(''),
})
export type Choice = z.infer<typeof choice>
export const codePattern = /^[A-Za-z][A-Za-z0-9_]{0,63}$/

/** What a person edits; the server adds id, timestamps and counts. */
export const indicatorInput = z.object({
  code: z.string().trim().regex(codePattern),
  nameZh: z.string().trim().min(1).max(100),
  nameEn: z.string().trim().max(200).default(''),
  comment: z.string().max(1000).default(''),
  type: z.enum(indicatorTypes),
  display: z.enum(displayForms),
  dataType: z.enum(dataTypes).default('text'),
  /** Choices of a single or multiple choice field, in order. */
  options: z.array(choice).max(maxOptions).default([]),
  dependentFieldId: idValue.nullable().default(null),
  /** Show this field only when the dependent field has this value (a choice code when it has choices). */
  dependentValue: z.string().max(200).nullable().default(null),
  unit: z.string().trim().max(30).default(''),
  minimum: z.number().finite().nullable().default(null),
  maximum: z.number().finite().nullable().default(null),
  dateFormat: z.enum(dateFormats).nullable().default(null),
  /** A choice code; for a multiple choice field the default codes joined by '|'. */
  defaultValue: z.string().max(500).nullable().default(null),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
  indexClass: z.string().trim().max(60).default(''),
  category: z.enum(indexCategories).default('all'),
  diseaseId: idValue.nullable().default(null),
})
export type IndicatorInput = z.infer<typeof indicatorInput>

export const indicator = indicatorInput.extend({
  id: z.number().int(),
  /** True once a published CRF version holds it: its type can no longer change. */
  inUse: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Indicator = z.infer<typeof indicator>

export const indicatorSortKeys = ['code', 'nameZh', 'nameEn', 'type', 'indexClass', 'updatedAt'] as const
export type IndicatorSortKey = (typeof indicatorSortKeys)[number]

/**
 * Keyset paging (DESIGN §6, §8): `after` is the opaque cursor of the previous page's last row,
 * never an offset. At most 1,000 rows a page.
 */
export const indicatorListQuery = z.object({
  diseaseId: idParam.optional(),
  indexClass: z.string().max(60).optional(),
  category: z.enum(indexCategories).optional(),
  type: z.enum(indicatorTypes).optional(),
  status: integerParam(z.number().int().min(0).max(1)).optional(),
  /** Prefix of code, Chinese or English name. */
  q: z.string().trim().max(100).optional(),
  sort: z.enum(indicatorSortKeys).default('code'),
  order: z.enum(['asc', 'desc']).default('asc'),
  after: z.string().max(500).optional(),
  limit: integerParam(z.number().int().min(1).max(1000)).default(50),
})
export type IndicatorListQuery = z.infer<typeof indicatorListQuery>

export const indicatorPage = z.object({
  rows: z.array(indicator),
  /** Cursor for the next page; null on the last one. */
  next: z.string().nullable(),
  total: z.number().int(),
})
export type IndicatorPage = z.infer<typeof indicatorPage>
export const indicatorPageResponse = envelope(indicatorPage)
export const indicatorResponse = envelope(indicator)

export const statusBody = z.object({ status: z.union([z.literal(0), z.literal(1)]) })

export const diseaseInput = z.object({
  name: z.string().trim().min(1).max(60),
  nameEn: z.string().trim().max(120).default(''),
  /** Blueprint icon name or one of the seeded disease icons. */
  icon: z.string().trim().max(60).default('pulse'),
})
export type DiseaseInput = z.infer<typeof diseaseInput>

export const disease = diseaseInput.extend({
  id: z.number().int(),
  /** Number of dictionaries (small classes) among its indicators. */
  classCount: z.number().int(),
  fieldCount: z.number().int(),
  /** Indicators of the disease that are switched on. */
  selectedCount: z.number().int(),
  projectCount: z.number().int(),
})
export type Disease = z.infer<typeof disease>
export const diseaseListResponse = envelope(z.array(disease))
export const diseaseResponse = envelope(disease)

export const timelineItem = z.object({ id: z.number().int(), code: z.string(), name: z.string(), nameEn: z.string(), icon: z.string() })
export const timelineListResponse = envelope(z.array(timelineItem))

/** Resource paths of the dictionary screens (SPEC names no calls for them; DESIGN §3). */
export const dictionaryPaths = {
  diseases: 'api/dictionary/diseases',
  disease: (id: number) => `api/dictionary/diseases/${id}`,
  timeline: 'api/dictionary/timeline',
  indicators: 'api/dictionary/indicators',
  indicator: (id: number) => `api/dictionary/indicators/${id}`,
  indicatorStatus: (id: number) => `api/dictionary/indicators/${id}/status`,
  /** multipart file; query format=xlsx|csv|redcap */
  import: 'api/dictionary/import',
  /** query format=xlsx|csv|redcap plus the list filters; answers a file */
  export: 'api/dictionary/export',
} as const
