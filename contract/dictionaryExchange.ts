import { z } from 'zod'
import { idParam, integerParam } from './ids.ts'
import { envelope } from './envelope.ts'
import { indexCategories, indicatorTypes } from './dictionary.ts'

/**
 * Dictionary exchange (issue 4 item 3): `dictionaryPaths.import` takes one multipart file in the
 * form field `file`; `dictionaryPaths.export` answers a file. Three layouts:
 * - `xlsx` / `csv`: ours, one row per indicator, the columns of `ownColumns` (Chinese aliases
 *   accepted on import);
 * - `redcap`: the REDCap data dictionary (18 columns), whose forms become CRFs.
 */
export const exchangeFormats = ['xlsx', 'csv', 'redcap'] as const
export type ExchangeFormat = (typeof exchangeFormats)[number]

export const importLimits = {
  /** Data rows per file (the header is not counted). */
  maxRows: 50_000,
  maxBytes: 20 * 1024 * 1024,
  /** Bytes an xlsx may inflate to, all its entries together: counted while inflating. */
  maxInflatedBytes: 200 * 1024 * 1024,
  /** Excel's own limit of characters in a cell. */
  maxCellChars: 32_767,
  maxColumns: 200,
  /** Characters of one row, all its cells together. */
  maxRowChars: 1_000_000,
  maxZipEntries: 10_000,
  /** At most this many row errors / unmapped notes come back; `total` says how many there were. */
  maxReported: 1_000,
} as const

/** Header names of our own layout, in export order; `disease` is the disease name. */
export const ownColumns = [
  'code',
  'nameZh',
  'nameEn',
  'comment',
  'type',
  'display',
  'dataType',
  'options',
  'optionsEn',
  'dependentCode',
  'dependentValue',
  'unit',
  'minimum',
  'maximum',
  'dateFormat',
  'defaultValue',
  'status',
  'indexClass',
  'category',
  'disease',
] as const
export type OwnColumn = (typeof ownColumns)[number]

/** Choices of an option list cell ('code, label | code, label'), and of a multiple choice default, are joined by this. */
export const optionSeparator = '|'

const token = z.string().max(256).optional()

/**
 * `add`: every code must be new (a code already here refuses the file). `upsert`: a code already
 * here updates that indicator; a column the file does not have keeps the stored value.
 */
export const importModes = ['add', 'upsert'] as const
export type ImportMode = (typeof importModes)[number]

/** No format: told by the content (xlsx or text) and the header row (ours or REDCap's). */
export const importQuery = z.object({
  format: z.enum(exchangeFormats).optional(),
  mode: z.enum(importModes).default('add'),
  /** Preview: what would be added, changed and left alone, and the errors; nothing is written. */
  dryRun: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** REDCap files name no disease: the imported indicators can be given one. */
  diseaseId: idParam.optional(),
  token,
})
export type ImportQuery = z.infer<typeof importQuery>

/** One refused cell: the row as numbered in the file (the header is row 1). */
export const importRowError = z.object({
  row: z.number().int(),
  /** The column header as written in the file. */
  column: z.string(),
  /** The indicator field it feeds (contract name), or the REDCap column key. */
  field: z.string(),
  message: z.string(),
})
export type ImportRowError = z.infer<typeof importRowError>

/** Something without an equivalent here: imported and kept, never dropped, and said so. */
export const unmappedItem = z.object({
  row: z.number().int(),
  code: z.string(),
  column: z.string(),
  /** The original text (at most 200 characters shown). */
  value: z.string(),
  message: z.string(),
})
export type UnmappedItem = z.infer<typeof unmappedItem>

/** What the import does (or, in a preview, would do) with one row. */
export const importRowOutcome = z.object({
  row: z.number().int(),
  code: z.string(),
  status: z.enum(['added', 'changed', 'unchanged']),
  /** For a changed row: the indicator fields (contract names) that change. */
  fields: z.array(z.string()),
})
export type ImportRowOutcome = z.infer<typeof importRowOutcome>

export const importResult = z.object({
  format: z.enum(exchangeFormats),
  mode: z.enum(importModes),
  dryRun: z.boolean(),
  added: z.number().int(),
  changed: z.number().int(),
  unchanged: z.number().int(),
  /** Row by row, at most maxReported of them. */
  outcomes: z.array(importRowOutcome),
  /** A preview lists the errors a real run would refuse the file for (a real run answers 400). */
  errors: z.array(importRowError),
  errorsTotal: z.number().int(),
  /** How a CSV was decoded; null for xlsx. */
  encoding: z.enum(['utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be', 'gbk']).nullable(),
  rows: z.number().int(),
  indicators: z.number().int(),
  templates: z.number().int(),
  unmapped: z.array(unmappedItem),
  unmappedTotal: z.number().int(),
})
export type ImportResult = z.infer<typeof importResult>
export const importResponse = envelope(importResult)

/** 400 when any row fails: nothing was written. */
export const importFailure = z.object({ errors: z.array(importRowError), total: z.number().int() })
export const importFailureResponse = envelope(importFailure)

export const exportQuery = z.object({
  format: z.enum(exchangeFormats).default('xlsx'),
  diseaseId: idParam.optional(),
  /** Only the indicators of this CRF (its latest version), in its layout order. */
  templateId: idParam.optional(),
  indexClass: z.string().max(60).optional(),
  category: z.enum(indexCategories).optional(),
  type: z.enum(indicatorTypes).optional(),
  status: integerParam(z.number().int().min(0).max(1)).optional(),
  /** Prefix of code, Chinese or English name. */
  q: z.string().trim().max(100).optional(),
  token,
})
export type ExportQuery = z.infer<typeof exportQuery>
