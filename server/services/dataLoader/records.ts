import fs from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { z } from 'zod'
import {
  downloadFormats,
  idListParam,
  uploadOutcomes,
  type DownloadRecord,
  type DownloadRecordPage,
  type RecordsQuery,
  type UploadRecord,
  type UploadRecordPage,
} from '../../../contract/dataLoader.ts'
import { idValue } from '../../../contract/ids.ts'
import * as repo from '../../db/repositories/dataLoadRecords.ts'
import type { DataDownloadRow, DataUploadRow } from '../../db/tables/dataLoader.ts'
import { isMessageKey, message, type Lang, type MessageKey } from '../../i18n/messages.ts'
import type { Actor } from '../actor.ts'
import { audit, type Actor as AuditActor } from '../audit.ts'
import type { ServiceContext } from '../context.ts'
import { ServiceError } from '../errors.ts'
import { decodeKeyCursor, encodeCursor } from '../keysetCursor.ts'
import { holds, membershipOf, projectScope, seesGroups } from '../policy.ts'
import { mayDownloadIdentifiers } from './identifiers.ts'
import { keptPath } from './loadFiles.ts'
import { retentionCutoff } from './retention.ts'

/**
 * getUploadRecord / getDownloadRecord and the kept files fetched again.
 *
 * The route's policy (dataLoad.records) lets in whoever may import or export in the project; here
 * upload records need what loading needs (dataLoad.import and the project role's enterData) and
 * download records what downloading needs (dataLoad.export and export). A data manager sees every
 * record of the project: a member whose project role reaches every queue and center, unblinded
 * (and the administrator). A member bound to some centers or queues, or blinded, sees only their
 * own records: another person's file may hold subjects or group assignments they may not see.
 * A record outside that is answered as unknown, like one of another project.
 */

type Kind = 'upload' | 'download'

/** Whether the actor sees every record of the project, or only their own; refused when neither. */
export function visibility(actor: Actor, projectId: number, kind: Kind): { userId: number | null } {
  const [permission, authority] = kind === 'upload' ? (['dataLoad.import', 'enterData'] as const) : (['dataLoad.export', 'export'] as const)
  if (actor.superuser) return { userId: null }
  const m = membershipOf(actor, projectId)
  if (!holds(actor, permission) || !m?.authorities.has(authority)) throw new ServiceError('forbidden', 'error.forbidden')
  const all = m.queueIds === null && m.centerIds === null && !m.blinded
  return { userId: all ? null : actor.user.id }
}

const withinRetention = (ctx: ServiceContext, at: string) => at >= retentionCutoff(ctx).toISOString()

async function isKept(ctx: ServiceContext, at: string, sha256: string): Promise<boolean> {
  return withinRetention(ctx, at) && (await keptPath(ctx, sha256)) !== undefined
}

const pageOf = (q: RecordsQuery, projectId: number, userId: number | null): repo.RecordPage => ({
  projectId,
  userId,
  afterId: q.after === undefined ? null : decodeKeyCursor(q.after, true)[1],
  // One more than asked tells whether there is a next page.
  limit: q.limit + 1,
})

function nextOf<T extends { id: number }>(rows: T[], limit: number): { rows: T[]; next: string | null } {
  if (rows.length <= limit) return { rows, next: null }
  const page = rows.slice(0, limit)
  const last = page[page.length - 1]!
  return { rows: page, next: encodeCursor(last.id, last.id) }
}

const outcomeOf = (raw: string) => uploadOutcomes.find((o) => o === raw) ?? 'failed'
const formatOf = (raw: string) => downloadFormats.find((f) => f === raw) ?? 'xlsx'

/** A record's message in the reader's language where its key was kept (rows since migration 0031). */
function messageOf(r: DataUploadRow, lang: Lang): string {
  if (r.message_key === null || !isMessageKey(r.message_key)) return r.message
  const params = JSON.parse(r.message_params ?? '[]') as (string | number)[]
  return message(lang, r.message_key, params)
}

/** The ids an upload's record keeps of the CRFs its file was read into. */
const uploadFormIds = (r: DataUploadRow) => (r.template_ids === '' ? [] : r.template_ids.split(',').map(Number))

async function toUploadRecord(ctx: ServiceContext, r: DataUploadRow, lang: Lang, forms: string): Promise<UploadRecord> {
  return {
    id: r.id,
    projectId: r.project_id,
    userName: r.username,
    at: r.at,
    fileName: r.file_name,
    size: r.size,
    sha256: r.sha256,
    rows: r.rows,
    durationMs: r.duration_ms,
    available: await isKept(ctx, r.at, r.sha256),
    outcome: outcomeOf(r.outcome),
    errorsTotal: r.errors_total,
    hasReport: r.report_sha256 !== null,
    message: messageOf(r, lang),
    forms,
  }
}

export async function uploadRecords(ctx: ServiceContext, actor: Actor, q: RecordsQuery, lang: Lang): Promise<UploadRecordPage> {
  const { userId } = visibility(actor, q.studyId, 'upload')
  const { rows, next } = nextOf(await repo.uploadPageRows(ctx.db, pageOf(q, q.studyId, userId)), q.limit)
  const total = await repo.countRecords(ctx.db, 'data_upload', { projectId: q.studyId, userId })
  const ids = rows.map(uploadFormIds)
  const { templates } = await repo.scopeNames(ctx.db, q.studyId, {
    templateIds: [...new Set(ids.flat())],
    queueIds: [],
    centerIds: [],
    visitIds: [],
  })
  const forms = (i: number) => ids[i]!.map((id) => templates.get(id) ?? `#${id}`).join(', ')
  return { rows: await Promise.all(rows.map((r, i) => toUploadRecord(ctx, r, lang, forms(i)))), next, total }
}

// ---------------------------------------------------------------------------------------------
// A download's scope in words

/** Ids in the stored scope: the parsed query's arrays, or the raw `1,2` text. */
const storedIds = z
  .union([z.array(idValue), idListParam])
  .optional()
  .catch(undefined)
const storedScope = z.object({
  templateIds: storedIds,
  fieldIds: storedIds,
  queueIds: storedIds,
  centerIds: storedIds,
  visitIds: storedIds,
})
type StoredScope = z.infer<typeof storedScope>

function parseScope(raw: string): StoredScope {
  try {
    const parsed = storedScope.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : {}
  } catch {
    return {}
  }
}

type Names = Awaited<ReturnType<typeof repo.scopeNames>>

function scopeText(s: StoredScope, names: Names, lang: Lang): string {
  const list = (ids: readonly number[] | undefined, by: Map<number, string>) => (ids ?? []).map((id) => by.get(id) ?? `#${id}`).join(', ')
  const parts: string[] = []
  if (s.templateIds?.length) parts.push(message(lang, 'dataLoad.scope.crfs', [list(s.templateIds, names.templates)]))
  if (s.fieldIds?.length) parts.push(message(lang, 'dataLoad.scope.fields', [s.fieldIds.length]))
  if (s.queueIds?.length) parts.push(message(lang, 'dataLoad.scope.queues', [list(s.queueIds, names.queues)]))
  if (s.centerIds?.length) parts.push(message(lang, 'dataLoad.scope.centers', [list(s.centerIds, names.centers)]))
  if (s.visitIds?.length) parts.push(message(lang, 'dataLoad.scope.visits', [list(s.visitIds, names.visits)]))
  return parts.join(lang === 'zh' ? '；' : '; ')
}

/** A download's record; `available` only while its file is kept and the caller may still fetch it. */
async function toDownloadRecord(ctx: ServiceContext, actor: Actor, r: DataDownloadRow, scope: string): Promise<DownloadRecord> {
  return {
    id: r.id,
    projectId: r.project_id,
    userName: r.username,
    at: r.at,
    fileName: r.file_name,
    size: r.size,
    sha256: r.sha256,
    rows: r.rows,
    durationMs: r.duration_ms,
    available: withheldBy(actor, r.project_id, r) === null && (await isKept(ctx, r.at, r.sha256)),
    format: formatOf(r.format),
    scope,
  }
}

export async function downloadRecords(ctx: ServiceContext, actor: Actor, q: RecordsQuery, lang: Lang): Promise<DownloadRecordPage> {
  const { userId } = visibility(actor, q.studyId, 'download')
  const { rows, next } = nextOf(await repo.downloadPageRows(ctx.db, pageOf(q, q.studyId, userId)), q.limit)
  const scopes = rows.map((r) => parseScope(r.scope))
  // The names of the whole page in one query per kind.
  const all = (k: keyof StoredScope) => [...new Set(scopes.flatMap((s) => s[k] ?? []))]
  const names = await repo.scopeNames(ctx.db, q.studyId, {
    templateIds: all('templateIds'),
    queueIds: all('queueIds'),
    centerIds: all('centerIds'),
    visitIds: all('visitIds'),
  })
  const total = await repo.countRecords(ctx.db, 'data_download', { projectId: q.studyId, userId })
  return { rows: await Promise.all(rows.map((r, i) => toDownloadRecord(ctx, actor, r, scopeText(scopes[i]!, names, lang)))), next, total }
}

// ---------------------------------------------------------------------------------------------
// Kept files fetched again

export interface KeptFile {
  fileName: string
  size: number
  stream: Readable
}

/** The kept file, opened (a prune after this cannot cut it short), or 410 past retention or gone. */
async function openKept(ctx: ServiceContext, at: string, sha256: string, fileName: string): Promise<KeptFile> {
  const gone = () => new ServiceError('gone', 'dataLoad.fileGone', [ctx.retentionDays])
  if (!withinRetention(ctx, at)) throw gone()
  const p = await keptPath(ctx, sha256)
  if (!p) throw gone()
  let handle: fs.FileHandle
  try {
    handle = await fs.open(p, 'r')
  } catch {
    throw gone()
  }
  const { size } = await handle.stat()
  return { fileName, size, stream: handle.createReadStream() }
}

/** Study data leaving the server again is logged as the first download was recorded: who, when, which file of which record. */
async function fetchKept(
  ctx: ServiceContext,
  who: AuditActor,
  action: 'dataLoad.fetchUpload' | 'dataLoad.fetchReport' | 'dataLoad.fetchDownload',
  at: { projectId: number; recordId: number },
  kept: { at: string; sha256: string; fileName: string },
): Promise<KeptFile> {
  const file = await openKept(ctx, kept.at, kept.sha256, kept.fileName)
  try {
    await audit(
      ctx.db,
      who,
      action,
      'ok',
      ctx.now(),
      { recordId: at.recordId, fileName: kept.fileName },
      { type: 'project', id: at.projectId },
    )
  } catch (err) {
    file.stream.destroy()
    throw err
  }
  return file
}

/** A record the actor may see, of this project; anything else reads as unknown. */
async function visibleUpload(ctx: ServiceContext, actor: Actor, projectId: number, id: number): Promise<DataUploadRow> {
  const { userId } = visibility(actor, projectId, 'upload')
  const r = await repo.findUploadRecord(ctx.db, projectId, id)
  if (!r || (userId !== null && r.user_id !== userId)) throw new ServiceError('notFound', 'dataLoad.recordNotFound', [id])
  return r
}

export async function uploadFile(ctx: ServiceContext, actor: Actor, who: AuditActor, projectId: number, id: number): Promise<KeptFile> {
  const r = await visibleUpload(ctx, actor, projectId, id)
  return fetchKept(ctx, who, 'dataLoad.fetchUpload', { projectId, recordId: id }, { at: r.at, sha256: r.sha256, fileName: r.file_name })
}

export async function uploadReport(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  id: number,
  lang: Lang,
): Promise<KeptFile> {
  const r = await visibleUpload(ctx, actor, projectId, id)
  if (r.report_sha256 === null) throw new ServiceError('notFound', 'dataLoad.noReport')
  const stem = r.file_name.replace(/\.[^.]*$/, '')
  const fileName = message(lang, 'dataLoad.reportFile', [stem])
  return fetchKept(ctx, who, 'dataLoad.fetchReport', { projectId, recordId: id }, { at: r.at, sha256: r.report_sha256, fileName })
}

/** Whether a caller's ids (null: every one) cover a download's held ones (a JSON list; null: every one). */
function covers(mine: readonly number[] | null, held: string | null): boolean {
  if (mine === null) return true
  return held !== null && (JSON.parse(held) as number[]).every((id) => mine.includes(id))
}

/**
 * Why a kept download is not for the caller any more, or null: it holds groups or identifier
 * fields they may no longer see (blinded or the grant lost since, or a data manager without it
 * reading another's file), or subjects of a center or queue their role no longer covers.
 */
function withheldBy(actor: Actor, projectId: number, r: DataDownloadRow): MessageKey | null {
  if (r.holds_groups === 1 && !seesGroups(actor, projectId)) return 'dataLoad.fileHoldsGroups'
  if (r.holds_identifiers === 1 && !mayDownloadIdentifiers(actor, projectId)) return 'dataLoad.fileHoldsIdentifiers'
  const scope = projectScope(actor, 'dataLoad.download', projectId)
  if (scope.kind !== 'project' || !covers(scope.centerIds, r.held_center_ids) || !covers(scope.queueIds, r.held_queue_ids))
    return 'dataLoad.fileHoldsOtherSubjects'
  return null
}

/** A download's file again, only while the caller may still see all it holds (withheldBy). */
export async function downloadFile(ctx: ServiceContext, actor: Actor, who: AuditActor, projectId: number, id: number): Promise<KeptFile> {
  const { userId } = visibility(actor, projectId, 'download')
  const r = await repo.findDownloadRecord(ctx.db, projectId, id)
  if (!r || (userId !== null && r.user_id !== userId)) throw new ServiceError('notFound', 'dataLoad.recordNotFound', [id])
  const withheld = withheldBy(actor, projectId, r)
  if (withheld) throw new ServiceError('forbidden', withheld)
  return fetchKept(ctx, who, 'dataLoad.fetchDownload', { projectId, recordId: id }, { at: r.at, sha256: r.sha256, fileName: r.file_name })
}
