import type { Insertable } from 'kysely'
import type { Q } from '../query.ts'
import type { AttachmentTable } from '../tables/attachments.ts'
import type { DataAuditTable } from '../tables/studyData.ts'

/** Attachments of research objects (migration 0022). Deleted rows stay, marked `deleted_at`. */

const columns = [
  'a.id',
  'a.project_id',
  'a.subject_id',
  'a.record_id',
  'a.indicator_id',
  'a.type',
  'a.hash',
  'a.name',
  'a.mime',
  'a.size',
  'a.created_at',
] as const

export async function insertAttachment(db: Q, row: Insertable<AttachmentTable>): Promise<number> {
  const { id } = await db.insertInto('attachment').values(row).returning('id').executeTakeFirstOrThrow()
  return id
}

/** A live attachment of the project, with its uploader's name; whose subject it is the caller checks. */
export function findAttachment(db: Q, projectId: number, attachmentId: number) {
  return db
    .selectFrom('attachment as a')
    .leftJoin('app_user as u', 'u.id', 'a.created_by')
    .where('a.id', '=', attachmentId)
    .where('a.project_id', '=', projectId)
    .where('a.deleted_at', 'is', null)
    .select([...columns, 'u.name as created_by_name'])
    .executeTakeFirst()
}

export type AttachmentHead = NonNullable<Awaited<ReturnType<typeof findAttachment>>>

/** A subject's live attachments, oldest first; narrowed to a record, and to a field of it. */
export function listSubjectAttachments(db: Q, subjectId: number, where: { recordId?: number; indicatorId?: number }, limit: number) {
  let q = db
    .selectFrom('attachment as a')
    .leftJoin('app_user as u', 'u.id', 'a.created_by')
    .where('a.subject_id', '=', subjectId)
    .where('a.deleted_at', 'is', null)
  if (where.recordId !== undefined) q = q.where('a.record_id', '=', where.recordId)
  if (where.indicatorId !== undefined) q = q.where('a.indicator_id', '=', where.indicatorId)
  return q
    .select([...columns, 'u.name as created_by_name'])
    .orderBy('a.id')
    .limit(limit)
    .execute()
}

/** The live picture of one field of a record, if any. */
export function findFieldAttachment(db: Q, subjectId: number, recordId: number, indicatorId: number) {
  return db
    .selectFrom('attachment')
    .where('subject_id', '=', subjectId)
    .where('record_id', '=', recordId)
    .where('indicator_id', '=', indicatorId)
    .where('deleted_at', 'is', null)
    .select('id')
    .executeTakeFirst()
}

export async function markAttachmentDeleted(db: Q, attachmentId: number, by: number, at: string): Promise<boolean> {
  const r = await db
    .updateTable('attachment')
    .set({ deleted_at: at, deleted_by: by })
    .where('id', '=', attachmentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** The record if it is one of the subject's, with the version it was entered against. */
export function findSubjectRecord(db: Q, subjectId: number, recordId: number) {
  return db
    .selectFrom('form_record')
    .where('id', '=', recordId)
    .where('subject_id', '=', subjectId)
    .select(['id', 'template_id', 'version_id', 'status'])
    .executeTakeFirst()
}

export async function isFieldOfVersion(db: Q, versionId: number, indicatorId: number): Promise<boolean> {
  const row = await db
    .selectFrom('template_item')
    .where('version_id', '=', versionId)
    .where('indicator_id', '=', indicatorId)
    .select('indicator_id')
    .executeTakeFirst()
  return row !== undefined
}

/** The field-level trail's row for an attachment event. */
export async function appendAttachmentAudit(db: Q, row: Insertable<DataAuditTable>): Promise<void> {
  await db.insertInto('data_audit').values(row).execute()
}
