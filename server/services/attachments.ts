import {
  attachmentLimits,
  attachmentPaths,
  attachmentTypes,
  type Attachment,
  type AttachmentDeleteBody,
  type AttachmentUploadQuery,
} from '../../contract/attachments.ts'
import { isUniqueViolation } from '../db/errors.ts'
import { toJson } from '../db/json.ts'
import {
  appendAttachmentAudit,
  findAttachment,
  findFieldAttachment,
  findSubjectRecord,
  insertAttachment,
  isFieldOfVersion,
  listSubjectAttachments,
  markAttachmentDeleted,
  type AttachmentHead,
} from '../db/repositories/attachments.ts'
import { findProjectById } from '../db/repositories/projects.ts'
import type { Actor } from './actor.ts'
import type { Actor as AuditActor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { readStoredFile, withStoredFile } from './fileStore.ts'
import { checkImage } from './picture.ts'
import { checkSavedChange } from './studyData.ts'
import { subjectFor } from './subjectAccess.ts'

/**
 * Pictures of research objects (SPEC §2 picture field, §7 api/public/attachment). Every call
 * reaches the subject through `subjectFor`, so another center's subject, and its attachments, are
 * not found exactly like unknown ones. An upload is checked whole (subject, record, field, content)
 * before its bytes are stored, so a refused upload leaves nothing behind, and bytes stored for a
 * database write that then fails are removed again (fileStore.withStoredFile). Each upload and delete
 * writes one row of the subject's field-level trail (data_audit): action 'update' with the file
 * name as new value, 'clear' with it as old value; field is the indicator id, or '' for a picture
 * of the subject or record as a whole.
 */

export interface Caller {
  actor: Actor
  who: AuditActor
}

export interface UploadedFile {
  data: Buffer
  filename: string
  mimetype: string
}

const toAttachment = (a: AttachmentHead): Attachment => ({
  id: a.id,
  subjectId: a.subject_id,
  recordId: a.record_id,
  indicatorId: a.indicator_id,
  name: a.name,
  mime: a.mime,
  size: a.size,
  path: attachmentPaths.file(a.project_id, a.id),
  createdAt: a.created_at,
  createdBy: a.created_by_name ?? '',
})

/** The name shown for the file: no directories, no control characters, the extension kept when cut. */
export function displayName(filename: string): string {
  const base = (filename.split(/[\\/]/).pop() ?? '').replace(/\p{Cc}/gu, '').trim()
  if (base.length <= attachmentLimits.name) return base
  const dot = base.lastIndexOf('.')
  const extension = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : ''
  return base.slice(0, attachmentLimits.name - extension.length) + extension
}

async function mustBeActive(ctx: ServiceContext, projectId: number): Promise<void> {
  const project = await findProjectById(ctx.db, projectId)
  if (project?.status !== 'active') throw new ServiceError('conflict', 'subject.projectClosed')
}

export async function uploadAttachment(
  ctx: ServiceContext,
  caller: Caller,
  query: AttachmentUploadQuery,
  file: UploadedFile,
): Promise<Attachment> {
  const { studyId, objectId, recordId, indicatorId } = query
  const subject = await subjectFor(ctx.db, caller.actor, 'subject.enter', studyId, objectId)
  await mustBeActive(ctx, studyId)
  if (indicatorId !== undefined && recordId === undefined) throw new ServiceError('badRequest', 'attachment.fieldNeedsRecord')
  const record = recordId === undefined ? undefined : await findSubjectRecord(ctx.db, subject.id, recordId)
  if (recordId !== undefined && !record) throw new ServiceError('notFound', 'attachment.recordNotFound', [recordId])
  if (record?.status === 'signed') throw new ServiceError('conflict', 'attachment.signed')
  if (record && indicatorId !== undefined) {
    if (!(await isFieldOfVersion(ctx.db, record.version_id, indicatorId))) {
      throw new ServiceError('badRequest', 'attachment.fieldNotOnForm', [indicatorId])
    }
    if (await findFieldAttachment(ctx.db, subject.id, record.id, indicatorId)) throw new ServiceError('conflict', 'attachment.fieldFilled')
  }
  const mime = await checkImage(file.data, file.filename, file.mimetype)
  const name = displayName(file.filename)
  const at = ctx.now().toISOString()
  const id = await withStoredFile(ctx, file.data, (hash) =>
    ctx.db.transaction().execute(async (trx) => {
      const id = await insertAttachment(trx, {
        project_id: studyId,
        subject_id: subject.id,
        record_id: record?.id ?? null,
        indicator_id: indicatorId ?? null,
        type: attachmentTypes.picture,
        hash,
        name,
        mime,
        size: file.data.length,
        created_by: caller.actor.user.id,
        created_at: at,
      })
      await appendAttachmentAudit(trx, {
        at,
        user_id: caller.who.userId,
        username: caller.who.username,
        ip: caller.who.ip,
        project_id: studyId,
        subject_id: subject.id,
        record_id: record?.id ?? null,
        template_id: record?.template_id ?? null,
        version_id: record?.version_id ?? null,
        field: indicatorId === undefined ? '' : String(indicatorId),
        action: 'update',
        old_value: null,
        new_value: toJson(name),
      })
      return id
    }),
  ).catch((err: unknown) => {
    // Another upload filled the field since the check above.
    throw isUniqueViolation(err) ? new ServiceError('conflict', 'attachment.fieldFilled') : err
  })
  const stored = await findAttachment(ctx.db, studyId, id)
  if (!stored) throw new ServiceError('notFound', 'attachment.notFound', [id])
  return toAttachment(stored)
}

export async function deleteAttachment(ctx: ServiceContext, caller: Caller, body: AttachmentDeleteBody): Promise<void> {
  const subject = await subjectFor(ctx.db, caller.actor, 'subject.enter', body.studyId, body.objectId)
  await mustBeActive(ctx, body.studyId)
  const found = await findAttachment(ctx.db, body.studyId, body.attachmentId)
  const notFound = () => new ServiceError('notFound', 'attachment.notFound', [body.attachmentId])
  if (!found || found.subject_id !== subject.id) throw notFound()
  // A saved picture is saved data: taking it away is a change like any other.
  checkSavedChange(caller.actor, body.studyId, body.reason)
  const at = ctx.now().toISOString()
  await ctx.db.transaction().execute(async (trx) => {
    const record = found.record_id === null ? undefined : await findSubjectRecord(trx, subject.id, found.record_id)
    if (record?.status === 'signed') throw new ServiceError('conflict', 'attachment.signed')
    // Two deletes of one picture: the second finds it gone.
    if (!(await markAttachmentDeleted(trx, found.id, caller.actor.user.id, at))) throw notFound()
    await appendAttachmentAudit(trx, {
      at,
      user_id: caller.who.userId,
      username: caller.who.username,
      ip: caller.who.ip,
      project_id: body.studyId,
      subject_id: subject.id,
      record_id: found.record_id,
      template_id: record?.template_id ?? null,
      version_id: record?.version_id ?? null,
      field: found.indicator_id === null ? '' : String(found.indicator_id),
      action: 'clear',
      old_value: toJson(found.name),
      new_value: null,
      reason: body.reason,
    })
  })
}

export async function listAttachments(
  ctx: ServiceContext,
  actor: Actor,
  projectId: number,
  subjectId: number,
  where: { recordId?: number; indicatorId?: number },
): Promise<Attachment[]> {
  const subject = await subjectFor(ctx.db, actor, 'subject.read', projectId, subjectId)
  const rows = await listSubjectAttachments(ctx.db, subject.id, where, attachmentLimits.list)
  return rows.map(toAttachment)
}

/**
 * The bytes of an attachment, for a caller who may read its subject; any other caller is told it
 * does not exist, without learning whose it is.
 */
export async function readAttachment(
  ctx: ServiceContext,
  actor: Actor,
  projectId: number,
  attachmentId: number,
): Promise<{ data: Buffer; attachment: Attachment }> {
  const notFound = () => new ServiceError('notFound', 'attachment.notFound', [attachmentId])
  const found = await findAttachment(ctx.db, projectId, attachmentId)
  if (!found) throw notFound()
  await subjectFor(ctx.db, actor, 'subject.read', projectId, found.subject_id).catch((err: unknown) => {
    throw err instanceof ServiceError && err.kind === 'notFound' ? notFound() : err
  })
  const data = await readStoredFile(ctx, found.hash)
  if (!data) throw notFound()
  return { data, attachment: toAttachment(found) }
}
