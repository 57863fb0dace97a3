import type { Q } from '../query.ts'
import type { DataDownloadRow, DataUploadRow } from '../tables/dataLoader.ts'

/**
 * The records of data loading (migration 0023): pages of uploads and downloads of one project,
 * newest first by id on the (project_id, id) index, one record by id inside its project, the names
 * a download's scope refers to, and the content hashes records of the retention period still use.
 */

export interface RecordPage {
  projectId: number
  /** Only this person's records; null for everyone's. */
  userId: number | null
  /** The id of the previous page's last row. */
  afterId: number | null
  limit: number
}

export function uploadPageRows(db: Q, p: RecordPage): Promise<DataUploadRow[]> {
  let q = db.selectFrom('data_upload').selectAll().where('project_id', '=', p.projectId)
  if (p.userId !== null) q = q.where('user_id', '=', p.userId)
  if (p.afterId !== null) q = q.where('id', '<', p.afterId)
  return q.orderBy('id', 'desc').limit(p.limit).execute()
}

export function downloadPageRows(db: Q, p: RecordPage): Promise<DataDownloadRow[]> {
  let q = db.selectFrom('data_download').selectAll().where('project_id', '=', p.projectId)
  if (p.userId !== null) q = q.where('user_id', '=', p.userId)
  if (p.afterId !== null) q = q.where('id', '<', p.afterId)
  return q.orderBy('id', 'desc').limit(p.limit).execute()
}

/** How many records uploadPageRows / downloadPageRows page through. */
export async function countRecords(
  db: Q,
  table: 'data_upload' | 'data_download',
  p: Pick<RecordPage, 'projectId' | 'userId'>,
): Promise<number> {
  let q = db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', p.projectId)
  if (p.userId !== null) q = q.where('user_id', '=', p.userId)
  return Number((await q.executeTakeFirstOrThrow()).n)
}

export function findUploadRecord(db: Q, projectId: number, id: number): Promise<DataUploadRow | undefined> {
  return db.selectFrom('data_upload').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst()
}

export function findDownloadRecord(db: Q, projectId: number, id: number): Promise<DataDownloadRow | undefined> {
  return db.selectFrom('data_download').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst()
}

/** Names of CRFs, queues, centers and visits a download's scope names, each inside the project. */
export async function scopeNames(
  db: Q,
  projectId: number,
  ids: { templateIds: readonly number[]; queueIds: readonly number[]; centerIds: readonly number[]; visitIds: readonly number[] },
) {
  const [templates, queues, centers, visits] = await Promise.all([
    ids.templateIds.length === 0
      ? []
      : db
          .selectFrom('project_form as f')
          .innerJoin('template as t', 't.id', 'f.template_id')
          .select(['t.id', 't.name'])
          .where('f.project_id', '=', projectId)
          .where('t.id', 'in', [...ids.templateIds])
          .execute(),
    ids.queueIds.length === 0
      ? []
      : db
          .selectFrom('project_queue')
          .select(['id', 'name'])
          .where('project_id', '=', projectId)
          .where('id', 'in', [...ids.queueIds])
          .execute(),
    ids.centerIds.length === 0
      ? []
      : db
          .selectFrom('project_center as pc')
          .innerJoin('center as c', 'c.id', 'pc.center_id')
          .select(['c.id', 'c.code'])
          .where('pc.project_id', '=', projectId)
          .where('c.id', 'in', [...ids.centerIds])
          .execute(),
    ids.visitIds.length === 0
      ? []
      : db
          .selectFrom('visit')
          .select(['id', 'name'])
          .where('project_id', '=', projectId)
          .where('id', 'in', [...ids.visitIds])
          .execute(),
  ])
  return {
    templates: new Map(templates.map((r) => [r.id, r.name])),
    queues: new Map(queues.map((r) => [r.id, r.name])),
    centers: new Map(centers.map((r) => [r.id, r.code])),
    visits: new Map(visits.map((r) => [r.id, r.name])),
  }
}

/** Content hashes of files that records made at or after `since` name: their files are still kept. */
export async function hashesInUseSince(db: Q, since: string): Promise<Set<string>> {
  const [uploads, downloads] = await Promise.all([
    db.selectFrom('data_upload').select(['sha256', 'report_sha256']).where('at', '>=', since).execute(),
    db.selectFrom('data_download').select('sha256').where('at', '>=', since).execute(),
  ])
  const out = new Set<string>()
  for (const u of uploads) {
    out.add(u.sha256)
    if (u.report_sha256) out.add(u.report_sha256)
  }
  for (const d of downloads) out.add(d.sha256)
  return out
}

/** The project's number, for the names of files written for it. */
export async function projectNumber(db: Q, projectId: number): Promise<string | undefined> {
  const row = await db.selectFrom('project').select('number').where('id', '=', projectId).executeTakeFirst()
  return row?.number
}
