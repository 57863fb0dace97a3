/**
 * Data loading (issue 11, SPEC §7 api/scientific/dataloader): a project's loadable CRFs, Excel
 * templates, uploads of whole studies (xlsx, CSV, REDCap records) validated by the entry rules
 * and written all or nothing, streamed downloads (xlsx, CSV, CDISC ODM 1.3.2), and the records of
 * both with their files kept for a retention period.
 */
import { z } from 'zod'
import { collectTypes } from './crf.ts'
import { endpoint } from './endpoint.ts'
import { idParam, integerParam } from './ids.ts'
import { formModes } from './studyData.ts'

export const dataLoaderPaths = {
  crfs: 'api/scientific/dataloader/getCrfByStudyId',
  template: 'api/scientific/dataloader/downloadTemplate',
  upload: 'api/scientific/dataloader/uploadFile',
  download: 'api/scientific/dataloader/downloadData',
  uploadRecords: 'api/scientific/dataloader/getUploadRecord',
  downloadRecords: 'api/scientific/dataloader/getDownloadRecord',
  /** An upload's original file, and its error report, fetched again. */
  uploadFile: (uploadId: number) => `api/scientific/dataloader/uploads/${uploadId}/file`,
  uploadReport: (uploadId: number) => `api/scientific/dataloader/uploads/${uploadId}/report`,
  /** A download's file, fetched again. */
  downloadFile: (downloadId: number) => `api/scientific/dataloader/downloads/${downloadId}/file`,
} as const

export const dataLoadLimits = {
  /** An upload is refused while it streams past this (a 200 MB file never reaches a parser). */
  maxBytes: 64 * 1024 * 1024,
  /** What an xlsx may inflate to, all its entries together (a zip bomb stops here). */
  maxInflatedBytes: 1024 * 1024 * 1024,
  /** Data rows of one file, all sheets together. */
  maxRows: 200_000,
  /** Columns of one sheet: every field of the largest CRF plus the key columns. */
  maxColumns: 5_100,
  /** Excel's own cell limit. */
  maxCellChars: 32_767,
  /** Bad cells named in the answer; the error report names every one, up to maxReportErrors. */
  maxReported: 200,
  maxReportErrors: 100_000,
  /** CRFs in one template workbook or one download. */
  maxForms: 50,
  /** Rows of a records page. */
  recordsPage: 100,
} as const

/** Key columns of a data sheet, before the field codes (docs/DATA_LOADING.md). */
export const keyColumns = {
  subject: 'subject_id',
  center: 'center',
  queue: 'queue',
  /** A subject's randomization group code: in downloads for those who see groups; an upload reads past it. */
  group: 'rand_group',
  visit: 'visit',
  sample: 'sample_id',
  row: 'row',
} as const
export type KeyColumn = (typeof keyColumns)[keyof typeof keyColumns]

export const downloadFormats = ['xlsx', 'csv', 'odm'] as const
export type DownloadFormat = (typeof downloadFormats)[number]

export const uploadFormats = ['auto', 'redcap'] as const
export type UploadFormat = (typeof uploadFormats)[number]

export const uploadOutcomes = ['loaded', 'refused', 'failed'] as const
export type UploadOutcome = (typeof uploadOutcomes)[number]

const lang = z.enum(['zh', 'en']).optional()
const token = z.string().max(256).optional()

/** A yes/no in a query string: `true` or `false` (z.coerce.boolean would read 'false' as true). */
const queryFlag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((v) => v === 'true')

/** Ids in a query string as `1,2,3` (each spelled as idParam takes it); at most 500. */
export const idListParam = z
  .string()
  .max(6000)
  .transform((s): unknown[] => s.split(',').filter((p) => p.trim() !== ''))
  .pipe(z.array(idParam).max(500))

// ---------------------------------------------------------------------------------------------
// getCrfByStudyId

export const crfsQuery = z.object({ studyId: idParam, token })

export const loadableCrf = z.object({
  templateId: z.number().int(),
  versionId: z.number().int(),
  version: z.number().int(),
  name: z.string(),
  collectType: z.enum(collectTypes),
  /** How its instances are told apart: one per subject, one per visit, one per sample. */
  mode: z.enum(formModes),
  /** Plain fields and sub forms (each its own sheet). */
  fields: z.number().int(),
  subForms: z.number().int(),
})
export type LoadableCrf = z.infer<typeof loadableCrf>

export const getCrfs = endpoint({
  method: 'GET',
  input: crfsQuery,
  output: z.array(loadableCrf),
  request: (q) => ({ path: dataLoaderPaths.crfs, query: { studyId: q.studyId } }),
})

// ---------------------------------------------------------------------------------------------
// downloadTemplate (a file, no envelope on success)

export const templateQuery = z.object({
  studyId: idParam,
  /** One CRF, or several in one workbook. */
  templateIds: idListParam,
  lang,
  token,
})
export type TemplateQuery = z.infer<typeof templateQuery>

// ---------------------------------------------------------------------------------------------
// uploadFile (multipart field `file`)

/** A JSON object in a query string, event name → visit name or id. */
export const redcapEventMap = z
  .string()
  .max(8000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown
    } catch {
      ctx.addIssue({ code: 'custom', message: 'events: not a JSON object' })
      return z.NEVER
    }
  })
  .pipe(z.record(z.string().max(200), z.string().max(200)))

export const uploadQuery = z.object({
  studyId: idParam,
  /** Needed for a CSV (one table, one CRF); a workbook names its CRFs in its layout sheet. */
  templateId: idParam.optional(),
  format: z.enum(uploadFormats).default('auto'),
  /** Subjects the file names that are not in the project are enrolled (center and queue columns). */
  enrol: queryFlag,
  /** Load a file whose content was uploaded before (the first answer flags it). */
  again: queryFlag,
  /**
   * REDCap records: which visit an event is, as JSON `{"<unique event name>": "<visit name or id>"}`;
   * an event left out matches a visit by its name (server/services/dataLoader/redcapRecords.ts).
   */
  events: redcapEventMap.optional(),
  lang,
  token,
})
export type UploadQuery = z.infer<typeof uploadQuery>

export const cellError = z.object({
  sheet: z.string(),
  row: z.number().int(),
  column: z.string(),
  value: z.string(),
  message: z.string(),
})
export type CellError = z.infer<typeof cellError>

export const uploadResult = z.object({
  uploadId: z.number().int(),
  outcome: z.enum(uploadOutcomes),
  rows: z.number().int(),
  /** Form instances and sub-form rows written new, changed, left as they were. */
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  enrolled: z.number().int(),
  errors: z.array(cellError),
  errorsTotal: z.number().int(),
  /** The report of a refused upload (xlsx: row, column, value, message). */
  reportUrl: z.string().nullable(),
})
export type UploadResult = z.infer<typeof uploadResult>

/** The answer when the same content was uploaded before: nothing loaded until `again`. */
export const duplicateUpload = z.object({
  duplicateOf: z.object({
    /** 0, with no time and no name, when the earlier upload is not the caller's to see. */
    uploadId: z.number().int(),
    at: z.string().nullable(),
    by: z.string(),
    fileName: z.string(),
    outcome: z.enum(uploadOutcomes),
  }),
})
export type DuplicateUpload = z.infer<typeof duplicateUpload>

// ---------------------------------------------------------------------------------------------
// downloadData (a file, no envelope on success)

export const downloadQuery = z.object({
  studyId: idParam,
  format: z.enum(downloadFormats).default('xlsx'),
  templateIds: idListParam,
  /** Only these fields (of the chosen CRFs); all when absent. */
  fieldIds: idListParam.optional(),
  queueIds: idListParam.optional(),
  centerIds: idListParam.optional(),
  visitIds: idListParam.optional(),
  lang,
  token,
})
export type DownloadQuery = z.infer<typeof downloadQuery>

// ---------------------------------------------------------------------------------------------
// getUploadRecord / getDownloadRecord

export const recordsQuery = z.object({
  studyId: idParam,
  after: z.string().max(200).optional(),
  limit: integerParam(z.number().int().min(1).max(dataLoadLimits.recordsPage)).default(50),
  token,
})
export type RecordsQuery = z.infer<typeof recordsQuery>

const recordCommon = {
  id: z.number().int(),
  projectId: z.number().int(),
  userName: z.string(),
  at: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  rows: z.number().int(),
  durationMs: z.number().int(),
  /** The kept file can still be fetched (the retention period has not passed). */
  available: z.boolean(),
}

export const uploadRecord = z.object({
  ...recordCommon,
  outcome: z.enum(uploadOutcomes),
  errorsTotal: z.number().int(),
  hasReport: z.boolean(),
  message: z.string(),
  /** The CRFs the file's sheets were read into, by name, in the file's order; empty when none was reached. */
  forms: z.string(),
})
export type UploadRecord = z.infer<typeof uploadRecord>

export const downloadRecord = z.object({
  ...recordCommon,
  format: z.enum(downloadFormats),
  /** What was asked for, in words (CRFs, queues, centers, visits). */
  scope: z.string(),
})
export type DownloadRecord = z.infer<typeof downloadRecord>

/** `total`: every record the caller may see, counted with each page (a project's records are thousands at most). */
export const uploadRecordPage = z.object({ rows: z.array(uploadRecord), next: z.string().nullable(), total: z.number().int() })
export const downloadRecordPage = z.object({ rows: z.array(downloadRecord), next: z.string().nullable(), total: z.number().int() })
export type UploadRecordPage = z.infer<typeof uploadRecordPage>
export type DownloadRecordPage = z.infer<typeof downloadRecordPage>

export const getUploadRecords = endpoint({
  method: 'GET',
  input: recordsQuery,
  output: uploadRecordPage,
  request: (q) => ({ path: dataLoaderPaths.uploadRecords, query: { studyId: q.studyId, after: q.after, limit: q.limit } }),
})

export const getDownloadRecords = endpoint({
  method: 'GET',
  input: recordsQuery,
  output: downloadRecordPage,
  request: (q) => ({ path: dataLoaderPaths.downloadRecords, query: { studyId: q.studyId, after: q.after, limit: q.limit } }),
})

export const recordFileParams = z.object({ id: idParam })
export const recordFileQuery = z.object({ studyId: idParam, token })
