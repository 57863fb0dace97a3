import { sql, type Insertable } from 'kysely'
import { fromJson, toJson } from '../json.ts'
import type { Q } from '../query.ts'
import type { DataAuditTable } from '../tables/studyData.ts'

/**
 * Entered study data (server/services/studyData.ts): form instances, their sub-form rows, the
 * field-level audit trail and the subject's summary. Callers have already found the subject in
 * the caller's scope (subjectFor); every query here also names the subject or the project, so a
 * record id of another subject is not found.
 */

/** The username of a user id, for "who saved it". */
const usernameOf = (column: 'r.updated_by' | 's.enrolled_by') =>
  sql<string | null>`(select a.username from account a where a.user_id = ${sql.ref(column)} order by a.id limit 1)`

const recordColumns = [
  'r.id',
  'r.project_id',
  'r.subject_id',
  'r.template_id',
  'r.version_id',
  'r.slot',
  'r.visit_id',
  'r.sample_id',
  'r.data',
  'r.status',
  'r.rev',
  'r.updated_at',
] as const

function records(db: Q) {
  return db.selectFrom('form_record as r').select(recordColumns).select(usernameOf('r.updated_by').as('updated_by_name'))
}

export type RecordRow = NonNullable<Awaited<ReturnType<typeof findRecord>>>

/** A record of the subject by id. */
export function findRecord(db: Q, subjectId: number, recordId: number) {
  return records(db).where('r.subject_id', '=', subjectId).where('r.id', '=', recordId).executeTakeFirst()
}

/** A record of the project by id (signing names the record, not the subject). */
export function findProjectRecord(db: Q, projectId: number, recordId: number) {
  return records(db).where('r.project_id', '=', projectId).where('r.id', '=', recordId).executeTakeFirst()
}

/** The subject's instance of a form at a slot. */
export function findRecordAt(db: Q, subjectId: number, templateId: number, slot: string) {
  return records(db)
    .where('r.subject_id', '=', subjectId)
    .where('r.template_id', '=', templateId)
    .where('r.slot', '=', slot)
    .executeTakeFirst()
}

/** The subject's records, of one form or of all, in a stable order. */
export function recordsOfSubject(db: Q, subjectId: number, templateId?: number) {
  let q = records(db).where('r.subject_id', '=', subjectId)
  if (templateId !== undefined) q = q.where('r.template_id', '=', templateId)
  return q.orderBy('r.template_id').orderBy('r.slot').orderBy('r.id').execute()
}

export interface NewRecord {
  project_id: number
  subject_id: number
  center_id: number
  queue_id: number
  template_id: number
  version_id: number
  slot: string
  visit_id: number | null
  sample_id: number | null
  data: string
  user_id: number | null
  at: string
}

/** Inserts a record; undefined when the slot is already taken (a concurrent first save). */
export async function insertRecord(db: Q, r: NewRecord): Promise<number | undefined> {
  const row = await db
    .insertInto('form_record')
    .values({
      project_id: r.project_id,
      subject_id: r.subject_id,
      center_id: r.center_id,
      queue_id: r.queue_id,
      template_id: r.template_id,
      version_id: r.version_id,
      slot: r.slot,
      visit_id: r.visit_id,
      sample_id: r.sample_id,
      data: r.data,
      status: 'saved',
      rev: 1,
      created_by: r.user_id,
      created_at: r.at,
      updated_by: r.user_id,
      updated_at: r.at,
    })
    .onConflict((oc) => oc.columns(['subject_id', 'template_id', 'slot']).doNothing())
    .returning('id')
    .executeTakeFirst()
  return row?.id
}

/**
 * A save of the record at the next rev, only if it is still at `rev` (answers whether it was): its
 * new values, or (`data` undefined, a row call) its values as they are. A signature no longer holds.
 */
export async function updateRecordData(
  db: Q,
  id: number,
  rev: number,
  data: string | undefined,
  userId: number | null,
  at: string,
): Promise<boolean> {
  const r = await db
    .updateTable('form_record')
    .set({
      ...(data === undefined ? {} : { data }),
      rev: rev + 1,
      status: 'saved',
      signed_by: null,
      signed_at: null,
      updated_by: userId,
      updated_at: at,
    })
    .where('id', '=', id)
    .where('rev', '=', rev)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function signRecordRow(db: Q, id: number, rev: number, userId: number | null, at: string): Promise<boolean> {
  const r = await db
    .updateTable('form_record')
    .set({ rev: rev + 1, status: 'signed', signed_by: userId, signed_at: at, updated_by: userId, updated_at: at })
    .where('id', '=', id)
    .where('rev', '=', rev)
    .where('status', '=', 'saved')
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function deleteRecordRow(db: Q, id: number): Promise<void> {
  await db.deleteFrom('form_row').where('record_id', '=', id).execute()
  await db.deleteFrom('form_record').where('id', '=', id).execute()
}

// --- Sub-form rows ---------------------------------------------------------------------------

export function rowsOf(db: Q, recordIds: readonly number[]) {
  if (recordIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('form_row')
    .select(['id', 'record_id', 'section_key', 'sort', 'data', 'rev'])
    .where('record_id', 'in', recordIds)
    .orderBy('record_id')
    .orderBy('section_key')
    .orderBy('sort')
    .orderBy('id')
    .execute()
}
export type RowRow = Awaited<ReturnType<typeof rowsOf>>[number]

export async function insertRow(
  db: Q,
  r: { record_id: number; section_key: string; sort: number; data: string; user_id: number | null; at: string },
): Promise<number> {
  const row = await db
    .insertInto('form_row')
    .values({
      record_id: r.record_id,
      section_key: r.section_key,
      sort: r.sort,
      data: r.data,
      rev: 1,
      created_by: r.user_id,
      created_at: r.at,
      updated_by: r.user_id,
      updated_at: r.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** New values (and place) at the next rev, only if the row is still at `rev`. */
export async function updateRow(
  db: Q,
  id: number,
  rev: number,
  set: { data?: string; sort?: number },
  userId: number | null,
  at: string,
): Promise<boolean> {
  const r = await db
    .updateTable('form_row')
    .set({ ...set, rev: rev + 1, updated_by: userId, updated_at: at })
    .where('id', '=', id)
    .where('rev', '=', rev)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Moves a row without changing its values (its rev stays: nobody's edit is outdated by a move). */
export async function moveRow(db: Q, id: number, sort: number): Promise<void> {
  await db.updateTable('form_row').set({ sort }).where('id', '=', id).execute()
}

export async function deleteRowById(db: Q, id: number, rev: number): Promise<boolean> {
  const r = await db.deleteFrom('form_row').where('id', '=', id).where('rev', '=', rev).executeTakeFirst()
  return Number(r.numDeletedRows) === 1
}

export async function nextRowSort(db: Q, recordId: number, sectionKey: string): Promise<number> {
  const r = await db
    .selectFrom('form_row')
    .select((eb) => eb.fn.max('sort').as('m'))
    .where('record_id', '=', recordId)
    .where('section_key', '=', sectionKey)
    .executeTakeFirst()
  return r?.m === null || r?.m === undefined ? 0 : Number(r.m) + 1
}

// --- The subject -----------------------------------------------------------------------------

/**
 * Takes the subject's row lock for the rest of the transaction (a no-op UPDATE: PostgreSQL locks
 * the row, SQLite serialises writers) and reads its summary: the saves of one subject queue up,
 * so neither its records nor its summary are written from a stale read.
 */
export function lockSubject(db: Q, subjectId: number) {
  return db
    .updateTable('subject')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', subjectId)
    .returning(['id', 'summary'])
    .executeTakeFirstOrThrow()
}

export async function setSubjectSummary(db: Q, subjectId: number, summary: string | undefined, at: string): Promise<void> {
  await db
    .updateTable('subject')
    .set(summary === undefined ? { updated_at: at } : { summary, updated_at: at })
    .where('id', '=', subjectId)
    .execute()
}

/** What the subject's header shows besides the subject row (getViewInfo). */
export function subjectHead(db: Q, subjectId: number) {
  return db
    .selectFrom('subject as s')
    .innerJoin('project as p', 'p.id', 's.project_id')
    .innerJoin('project_queue as q', 'q.id', 's.queue_id')
    .innerJoin('center as c', 'c.id', 's.center_id')
    .leftJoin('project_group as g', 'g.id', 's.group_id')
    .select([
      'p.name as project_name',
      'q.name as queue_name',
      'q.entry_condition',
      'q.exclude_condition',
      'c.name_zh as center_zh',
      'c.name_en as center_en',
      'g.code as group_code',
      'g.name as group_name',
    ])
    .select(usernameOf('s.enrolled_by').as('enrolled_by_name'))
    .where('s.id', '=', subjectId)
    .executeTakeFirst()
}

// --- The audit trail ---------------------------------------------------------------------------

export type NewDataAudit = Insertable<DataAuditTable>

/** IN lists and multi-row inserts stay well below the parameter limits of both databases. */
const auditChunk = 200

export async function appendDataAudit(db: Q, rows: readonly NewDataAudit[]): Promise<void> {
  for (let i = 0; i < rows.length; i += auditChunk) {
    await db
      .insertInto('data_audit')
      .values(rows.slice(i, i + auditChunk))
      .execute()
  }
}

export interface HistoryFilter {
  subjectId: number
  recordId?: number | undefined
  field?: string | undefined
  rowId?: number | undefined
  before?: number | undefined
  limit: number
}

/**
 * Newest first, keyset on id; served by data_audit_subject_idx / data_audit_field_idx. A field of
 * one record also has the record's import rows (an upload writes one per instance or sub-form
 * row it creates, not one per value).
 */
export function historyRows(db: Q, f: HistoryFilter) {
  let q = db.selectFrom('data_audit').selectAll().where('subject_id', '=', f.subjectId)
  if (f.recordId !== undefined) q = q.where('record_id', '=', f.recordId)
  const field = f.field
  if (field !== undefined)
    q =
      f.recordId === undefined
        ? q.where('field', '=', field)
        : q.where((eb) => eb.or([eb('field', '=', field), eb.and([eb('field', '=', ''), eb('action', '=', 'import')])]))
  if (f.rowId !== undefined) q = q.where('row_id', '=', f.rowId)
  if (f.before !== undefined) q = q.where('id', '<', f.before)
  return q.orderBy('id', 'desc').limit(f.limit).execute()
}

/**
 * A field's value as an import left it: the old value of the first change to it since (audit id
 * past `importId`), else the value stored now (undefined: the record or row is gone, or the value
 * was never given).
 */
export async function valueSinceImport(
  db: Q,
  at: { recordId: number; rowId: number | null; field: string; importId: number },
): Promise<string | null | undefined> {
  let later = db
    .selectFrom('data_audit')
    .select('old_value')
    .where('record_id', '=', at.recordId)
    .where('field', '=', at.field)
    .where('id', '>', at.importId)
  later = at.rowId === null ? later.where('row_id', 'is', null) : later.where('row_id', '=', at.rowId)
  const change = await later.orderBy('id').limit(1).executeTakeFirst()
  if (change) return change.old_value
  const stored =
    at.rowId === null
      ? await db.selectFrom('form_record').select('data').where('id', '=', at.recordId).executeTakeFirst()
      : await db.selectFrom('form_row').select('data').where('id', '=', at.rowId).where('record_id', '=', at.recordId).executeTakeFirst()
  if (!stored) return undefined
  const value = fromJson<Record<string, unknown>>(stored.data)[at.field]
  return value === undefined ? undefined : toJson(value)
}

/**
 * Where these sub-form rows stand in their sub form now, 1 for the first, in the order a form
 * shows them (sort, then id). A deleted row is not answered.
 */
export function rowPlaces(db: Q, rowIds: readonly number[]) {
  if (rowIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('form_row as r')
    .select((eb) => [
      'r.id',
      eb
        .selectFrom('form_row as o')
        .select((o) => o.fn.countAll<number>().as('n'))
        .whereRef('o.record_id', '=', 'r.record_id')
        .whereRef('o.section_key', '=', 'r.section_key')
        .where((o) => o.or([o('o.sort', '<', o.ref('r.sort')), o.and([o('o.sort', '=', o.ref('r.sort')), o('o.id', '<=', o.ref('r.id'))])]))
        .as('place'),
    ])
    .where('r.id', 'in', rowIds)
    .execute()
}

/** The names of these templates (the CRFs a page of the trail names). */
export function templateNames(db: Q, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db.selectFrom('template').select(['id', 'name']).where('id', 'in', ids).execute()
}

// --- Display settings ----------------------------------------------------------------------------

export function displayRows(db: Q, userId: number, projectId: number) {
  return db
    .selectFrom('form_display')
    .select(['template_id', 'sort', 'shown'])
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .orderBy('sort')
    .execute()
}

export async function replaceDisplay(
  db: Q,
  userId: number,
  projectId: number,
  forms: readonly { templateId: number; shown: boolean }[],
): Promise<void> {
  await db.deleteFrom('form_display').where('user_id', '=', userId).where('project_id', '=', projectId).execute()
  if (forms.length === 0) return
  await db
    .insertInto('form_display')
    .values(forms.map((f, sort) => ({ user_id: userId, project_id: projectId, template_id: f.templateId, sort, shown: f.shown ? 1 : 0 })))
    .execute()
}

/**
 * The project's status and its pinned forms in project order (one query), with the prepose
 * edges among them (a second): what every entry call checks first.
 */
export async function projectForms(db: Q, projectId: number) {
  const rows = await db
    .selectFrom('project as p')
    .leftJoin('project_form as f', 'f.project_id', 'p.id')
    .leftJoin('template as t', 't.id', 'f.template_id')
    .select(['p.status', 'f.template_id', 'f.version_id', 't.name', 't.collect_type'])
    .where('p.id', '=', projectId)
    .orderBy('f.sort')
    .orderBy('f.template_id')
    .execute()
  const forms = rows.flatMap((r) =>
    r.template_id === null || r.version_id === null || r.name === null || r.collect_type === null
      ? []
      : [{ template_id: r.template_id, version_id: r.version_id, name: r.name, collect_type: r.collect_type }],
  )
  const ids = forms.map((f) => f.template_id)
  const edges =
    ids.length === 0
      ? []
      : await db
          .selectFrom('template_prepose')
          .select(['template_id', 'prepose_id'])
          .where('template_id', 'in', ids)
          .where('prepose_id', 'in', ids)
          .orderBy('template_id')
          .orderBy('prepose_id')
          .execute()
  return { status: rows[0]?.status, forms, edges }
}

/** A version's template and number (to read it through the template service). */
export function versionHead(db: Q, versionId: number) {
  return db.selectFrom('template_version').select(['id', 'template_id', 'version', 'state']).where('id', '=', versionId).executeTakeFirst()
}
