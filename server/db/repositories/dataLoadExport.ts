import type { Insertable } from 'kysely'
import type { Q } from '../query.ts'
import { scopeConditions, type ListScope } from '../scope.ts'
import type { DataDownloadTable } from '../tables/dataLoader.ts'

/**
 * Data downloads (server/services/dataLoader/download.ts): subjects in keyset pages (never an
 * offset, never all at once), the form instances and sub-form rows of one page, and the record
 * of a finished download. The caller's scope and the asked-for centers and queues are conditions
 * of the subject query itself, so nothing outside them is ever read.
 */

export interface SubjectFilter {
  scope: ListScope
  /** The centers and queues asked for; undefined: every one the scope allows. */
  centerIds?: readonly number[]
  queueIds?: readonly number[]
}

export interface ExportSubject {
  id: number
  subject_no: string
  center_code: string
  queue_key: string
}

/** The next page of subjects after `afterId`, by id. */
export async function subjectPage(db: Q, f: SubjectFilter, afterId: number, limit: number): Promise<ExportSubject[]> {
  let q = db
    .selectFrom('subject as s')
    .innerJoin('center as c', 'c.id', 's.center_id')
    .innerJoin('project_queue as pq', 'pq.id', 's.queue_id')
    .select(['s.id', 's.subject_no', 'c.code as center_code', 'pq.key as queue_key'])
    .where('s.id', '>', afterId)
  for (const c of scopeConditions(f.scope, { project: 's.project_id', queue: 's.queue_id', center: 's.center_id' })) q = q.where(c)
  if (f.centerIds) q = q.where('s.center_id', 'in', f.centerIds.length ? [...f.centerIds] : [-1])
  if (f.queueIds) q = q.where('s.queue_id', 'in', f.queueIds.length ? [...f.queueIds] : [-1])
  return q.orderBy('s.id').limit(limit).execute()
}

export interface ExportRecord {
  id: number
  subject_id: number
  template_id: number
  slot: string
  visit_id: number | null
  data: unknown
  sample_no: string | null
}

/**
 * The instances of these forms of these subjects, by subject, form and slot. Visit instances only
 * of `visitIds` when given; the other forms' instances are not visits and stay.
 */
export function recordsOfSubjects(
  db: Q,
  projectId: number,
  subjectIds: readonly number[],
  templateIds: readonly number[],
  visitIds?: readonly number[],
): Promise<ExportRecord[]> {
  if (subjectIds.length === 0 || templateIds.length === 0) return Promise.resolve([])
  let q = db
    .selectFrom('form_record as r')
    .leftJoin('sample as sa', 'sa.id', 'r.sample_id')
    .select(['r.id', 'r.subject_id', 'r.template_id', 'r.slot', 'r.visit_id', 'r.data', 'sa.sample_no'])
    .where('r.project_id', '=', projectId)
    .where('r.subject_id', 'in', [...subjectIds])
    .where('r.template_id', 'in', [...templateIds])
  if (visitIds) {
    const ids = visitIds.length ? [...visitIds] : [-1]
    q = q.where((eb) => eb.or([eb('r.visit_id', 'is', null), eb('r.visit_id', 'in', ids)]))
  }
  return q.orderBy('r.subject_id').orderBy('r.template_id').orderBy('r.slot').orderBy('r.id').execute()
}

export interface ExportRow {
  record_id: number
  section_key: string
  data: unknown
}

/** The sub-form rows of these records, by record, section and their order. */
export function rowsOfRecords(db: Q, recordIds: readonly number[], sectionKeys?: readonly string[]): Promise<ExportRow[]> {
  if (recordIds.length === 0) return Promise.resolve([])
  let q = db
    .selectFrom('form_row')
    .select(['record_id', 'section_key', 'data'])
    .where('record_id', 'in', [...recordIds])
  if (sectionKeys) q = q.where('section_key', 'in', sectionKeys.length ? [...sectionKeys] : [''])
  return q.orderBy('record_id').orderBy('section_key').orderBy('sort').orderBy('id').execute()
}

/** The project's visits (id, name) in schedule order. */
export function projectVisits(db: Q, projectId: number) {
  return db
    .selectFrom('visit')
    .select(['id', 'name'])
    .where('project_id', '=', projectId)
    .orderBy('day_offset')
    .orderBy('sort')
    .orderBy('id')
    .execute()
}

/** Which visits collect which forms. */
export function projectVisitForms(db: Q, projectId: number) {
  return db
    .selectFrom('visit_form as vf')
    .innerJoin('visit as v', 'v.id', 'vf.visit_id')
    .select(['vf.visit_id', 'vf.template_id'])
    .where('v.project_id', '=', projectId)
    .execute()
}

/** The project's centers and queues with their codes and keys. */
export async function projectCentersAndQueues(db: Q, projectId: number) {
  const centers = await db
    .selectFrom('project_center as pc')
    .innerJoin('center as c', 'c.id', 'pc.center_id')
    .select(['c.id', 'c.code'])
    .where('pc.project_id', '=', projectId)
    .execute()
  const queues = await db.selectFrom('project_queue').select(['id', 'key']).where('project_id', '=', projectId).execute()
  return { centers, queues }
}

export function projectHead(db: Q, projectId: number) {
  return db.selectFrom('project').select(['id', 'number', 'name']).where('id', '=', projectId).executeTakeFirst()
}

export async function insertDownload(db: Q, row: Insertable<DataDownloadTable>): Promise<number> {
  const r = await db.insertInto('data_download').values(row).returning('id').executeTakeFirstOrThrow()
  return r.id
}
