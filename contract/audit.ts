import { z } from 'zod'
import { envelope } from './envelope.ts'
import { idParam, integerParam } from './ids.ts'

/**
 * The audit log viewer (issue 8 item 6): every audit row, newest first, filtered on the server
 * and keyset-paged on (at desc, id desc) with an opaque cursor (DESIGN §6, §8); the same filters
 * export a streamed CSV or xlsx file.
 */

export const auditPaths = {
  list: 'api/admin/audit/list',
  export: 'api/admin/audit/export',
} as const

export const auditOutcomes = ['ok', 'denied', 'error'] as const
export type AuditOutcome = (typeof auditOutcomes)[number]

export const auditExportFormats = ['csv', 'xlsx'] as const
export type AuditExportFormat = (typeof auditExportFormats)[number]

/** The record kinds rows name today; the client's FocusedRecord kinds, so a record finds its history. */
export const auditObjectTypes = ['indicator', 'disease', 'crf', 'group', 'user', 'role', 'department', 'career'] as const

/** A text filter that ends in `*` matches as a prefix ('ali*', 'template.*'); without, exactly. */
const textFilter = (max: number) => z.string().trim().min(1).max(max).optional()

/** The filters the list and the export share. Times are ISO 8601 date-times with a zone ('Z' or '+08:00'). */
export const auditFilters = z.object({
  /** Exact, or a prefix ending in `*`. */
  username: textFilter(65),
  userId: idParam.optional(),
  /** Exact ('template.create'), or a prefix ending in `*` or `.` ('template.'). */
  action: textFilter(65),
  objectType: z.string().trim().min(1).max(32).optional(),
  objectId: idParam.optional(),
  /** Exact, or a prefix ending in `*` ('10.1.*'). */
  ip: textFilter(65),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  outcome: z.enum(auditOutcomes).optional(),
})
export type AuditFilters = z.infer<typeof auditFilters>

export const auditListQuery = auditFilters.extend({
  /** The `next` of the previous page. */
  cursor: z.string().max(500).optional(),
  limit: integerParam(z.number().int().min(1).max(1000)).default(50),
})
export type AuditListQuery = z.infer<typeof auditListQuery>

export const auditExportQuery = auditFilters.extend({
  format: z.enum(auditExportFormats).default('csv'),
  /** The language of the column headers; Accept-Language otherwise. */
  lang: z.enum(['zh', 'en']).optional(),
})
export type AuditExportQuery = z.infer<typeof auditExportQuery>

export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  userId: z.number().int().nullable(),
  username: z.string(),
  ip: z.string(),
  action: z.string(),
  outcome: z.string(),
  objectType: z.string().nullable(),
  objectId: z.number().int().nullable(),
  detail: z.record(z.string(), z.unknown()),
})
export type AuditEntry = z.infer<typeof auditEntry>

export const auditPage = z.object({
  rows: z.array(auditEntry),
  /** Cursor of the next page; null on the last one. */
  next: z.string().nullable(),
  /** Rows the filters match. */
  total: z.number().int(),
})
export type AuditPage = z.infer<typeof auditPage>
export const auditPageResponse = envelope(auditPage)

/** The columns of the export, in order; their headers are translated (server/i18n audit.column.*). */
export const auditColumns = ['id', 'at', 'userId', 'username', 'ip', 'action', 'outcome', 'objectType', 'objectId', 'detail'] as const
