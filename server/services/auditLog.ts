import { Readable } from 'node:stream'
import {
  auditColumns,
  auditFilters,
  type AuditEntry,
  type AuditExportQuery,
  type AuditFilters,
  type AuditListQuery,
  type AuditPage,
} from '../../contract/audit.ts'
import { auditPageRows, countAuditRows, lastAuditId, type AuditFilter, type TextMatch } from '../db/repositories/audit.ts'
import type { AuditRow } from '../db/tables/auditLog.ts'
import type { Q } from '../db/query.ts'
import { message, type Lang } from '../i18n/messages.ts'
import { audit, type Actor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { csvLine, utf8Bom } from './dictionaryExchange/csv.ts'
import type { ExportFile } from './dictionaryExchange/exporter.ts'
import { xlsxStream, type XlsxCell } from './dictionaryExchange/xlsx.ts'
import { ServiceError } from './errors.ts'
import { decodeCursor, encodeCursor } from './keysetCursor.ts'

/**
 * The audit log viewer (issue 8 item 6): the rows newest first, filtered and keyset-paged, and the
 * same rows as a streamed CSV or xlsx file. Reading the log is not itself audited; exporting it
 * is, since the file leaves the system.
 */

/** 'ali*' is a prefix, 'alice' exact; an action also reads 'template.' as a prefix (no action ends in a dot). */
function textMatch(value: string | undefined, dotIsPrefix = false): TextMatch | undefined {
  if (value === undefined) return undefined
  if (value.endsWith('*')) {
    const prefix = value.replace(/\*+$/, '')
    return prefix === '' ? undefined : { prefix }
  }
  return dotIsPrefix && value.endsWith('.') ? { prefix: value } : { exact: value }
}

/** The query's filters as the repository takes them; a 400 when the time range is backwards. */
function filterOf(q: AuditFilters): AuditFilter {
  // Rows hold toISOString() instants, so a time with any offset becomes that form to compare as text.
  const from = q.from === undefined ? undefined : new Date(q.from).toISOString()
  const to = q.to === undefined ? undefined : new Date(q.to).toISOString()
  if (from !== undefined && to !== undefined && from > to) throw new ServiceError('badRequest', 'audit.fromAfterTo')
  return {
    username: textMatch(q.username),
    userId: q.userId,
    action: textMatch(q.action, true),
    objectType: q.objectType,
    objectId: q.objectId,
    ip: textMatch(q.ip),
    from,
    to,
    outcome: q.outcome,
  }
}

function detailOf(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text)
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>
    return { value: v }
  } catch {
    // Rows are written by appendAudit as JSON objects; anything else is shown as the text it is.
    return { text }
  }
}

function toEntry(r: AuditRow): AuditEntry {
  return {
    id: r.id,
    at: r.at,
    userId: r.user_id,
    username: r.username,
    ip: r.ip,
    action: r.action,
    outcome: r.outcome,
    objectType: r.object_type,
    objectId: r.object_id,
    detail: detailOf(r.detail),
  }
}

/** One page newest first, and how many rows the filters match. */
export async function listAuditLog(ctx: ServiceContext, q: AuditListQuery): Promise<AuditPage> {
  const filter = filterOf(q)
  const after = q.cursor === undefined ? null : decodeCursor(q.cursor, 'cursor')
  // One row more than asked tells whether a next page exists without a second query.
  const [rows, total] = await Promise.all([auditPageRows(ctx.db, filter, after, q.limit + 1), countAuditRows(ctx.db, filter)])
  const more = rows.length > q.limit
  const page = more ? rows.slice(0, q.limit) : rows
  const last = page[page.length - 1]
  return { rows: page.map(toEntry), next: more && last ? encodeCursor(last.at, last.id) : null, total }
}

const batchSize = 1000

/** The filtered rows in keyset batches, so an export of a million rows holds a thousand at a time. */
async function* exportRows(db: Q, filter: AuditFilter): AsyncGenerator<XlsxCell[]> {
  let after: [string, number] | null = null
  for (;;) {
    const rows = await auditPageRows(db, filter, after, batchSize)
    for (const r of rows) {
      yield [r.id, r.at, r.user_id, r.username, r.ip, r.action, r.outcome, r.object_type, r.object_id, r.detail]
    }
    const last = rows[rows.length - 1]
    if (!last || rows.length < batchSize) return
    after = [last.at, last.id]
  }
}

/** CSV text in pieces of about a batch: neither one write per row nor one big string. */
async function* csvChunks(header: readonly string[], rows: AsyncIterable<XlsxCell[]>): AsyncGenerator<string> {
  let buf = utf8Bom + csvLine(header)
  let n = 0
  for await (const r of rows) {
    buf += csvLine(r)
    if (++n % batchSize === 0) {
      yield buf
      buf = ''
    }
  }
  if (buf) yield buf
}

const filterKeys = Object.keys(auditFilters.shape) as (keyof AuditFilters)[]

const stamp = (d: Date) => d.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')

/**
 * The filtered log as a file, streamed (DESIGN §8). It holds the rows that existed when it began
 * (ids up to the newest then), so its count is exact and its own audit row is not in it. Every
 * text cell is neutralised against formula injection by csvLine / xlsxStream (formulaSafe).
 */
export async function exportAuditLog(ctx: ServiceContext, actor: Actor, q: AuditExportQuery, lang: Lang): Promise<ExportFile> {
  const filter: AuditFilter = { ...filterOf(q), maxId: await lastAuditId(ctx.db) }
  const rows = await countAuditRows(ctx.db, filter)
  const now = ctx.now()
  // The filters by name only: the query may also hold the session token (`?token=`), never written.
  const filters = Object.fromEntries(filterKeys.flatMap((k) => (q[k] === undefined ? [] : [[k, q[k]]])))
  await audit(ctx.db, actor, 'audit.export', 'ok', now, { format: q.format, filters, rows })

  const header = auditColumns.map((c) => message(lang, `audit.column.${c}`))
  if (q.format === 'csv') {
    return {
      filename: `audit-log-${stamp(now)}.csv`,
      contentType: 'text/csv; charset=utf-8',
      body: Readable.from(csvChunks(header, exportRows(ctx.db, filter)), { objectMode: false }),
    }
  }
  return {
    filename: `audit-log-${stamp(now)}.xlsx`,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: xlsxStream(message(lang, 'audit.sheet'), header, exportRows(ctx.db, filter)),
  }
}
