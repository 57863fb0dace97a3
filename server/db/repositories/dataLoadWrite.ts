import type SQLite from 'better-sqlite3'
import { CompiledQuery, sql, type Insertable, type Kysely, type Updateable } from 'kysely'
import { sqliteHandle } from '../connect.ts'
import type { Database } from '../database.ts'
import type { Q } from '../query.ts'
import { scopeConditions, type ListScope } from '../scope.ts'
import type { DataUploadTable } from '../tables/dataLoader.ts'
import type { DataAuditTable, FormRecordTable, FormRowTable } from '../tables/studyData.ts'

/**
 * The upload of data (server/services/dataLoader/upload.ts): what a file is checked against (the
 * project's subjects in the caller's scope, centers, queues, visits, samples, stored records),
 * and its writes in multi-row statements, all inside the one transaction the service opens.
 */

/**
 * Rows per multi-row statement: form_record has 17 columns, so 500 rows bind 8,500 parameters,
 * under SQLite's 32,766 and PostgreSQL's 65,535.
 */
const chunk = 500
/** Ids per IN list. */
const inChunk = 1000

function* chunks<T>(rows: readonly T[], size = chunk): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size)
}

/** The latest loaded upload of the same content into the project: a re-upload is flagged. */
export function loadedUploadOf(db: Q, projectId: number, sha256: string) {
  return db
    .selectFrom('data_upload')
    .select(['id', 'at', 'user_id', 'username', 'file_name', 'outcome'])
    .where('project_id', '=', projectId)
    .where('sha256', '=', sha256)
    .where('outcome', '=', 'loaded')
    .orderBy('id', 'desc')
    .executeTakeFirst()
}

/**
 * A read by `in (…)` made once per list length and run again with each list's values: Kysely
 * building and compiling a list of hundreds of values cost more than SQLite's index searches
 * (an upload's 100,000 subject numbers: 410 ms against 170 ms). The list's places in the
 * compiled parameters are found by marker values no real value equals; should the compiler not
 * lay each marker out once, the list is built as usual.
 */
function listRead<V, O>(build: (list: readonly V[]) => { compile(): CompiledQuery<O> }, marker: (i: number) => V) {
  const byLength = new Map<number, { sql: string; parameters: readonly unknown[]; at: number[] } | null>()
  return (db: Q, list: readonly V[]): Promise<O[]> => {
    let made = byLength.get(list.length)
    if (made === undefined) {
      const markers = list.map((_, i) => marker(i))
      const q = build(markers).compile()
      const at = markers.map((m) => q.parameters.indexOf(m))
      const once = at.every((i, n) => i >= 0 && q.parameters.lastIndexOf(markers[n]) === i)
      made = once ? { sql: q.sql, parameters: q.parameters, at } : null
      byLength.set(list.length, made)
    }
    if (!made) return db.executeQuery(build(list).compile()).then((r) => r.rows)
    const parameters = [...made.parameters]
    for (let i = 0; i < list.length; i++) parameters[made.at[i]!] = list[i]
    return db.executeQuery<O>(CompiledQuery.raw(made.sql, parameters)).then((r) => r.rows)
  }
}

const nameMarker = (i: number) => `\u0000${i}`
const idMarker = (i: number) => -1.5 - i

/**
 * The project's subjects of these numbers (number, center, queue), with whether the scope reaches
 * each: a reader for one upload, run once per batch.
 */
export function subjectsNamed(db: Q, projectId: number, scope: ListScope) {
  const within = scopeConditions(scope, { project: 'project_id', queue: 'queue_id', center: 'center_id' })
  const read = listRead(
    (nos: readonly string[]) =>
      db
        .selectFrom('subject')
        .select((eb) => [
          'id',
          'subject_no',
          'center_id',
          'queue_id',
          within.length === 0
            ? sql<number>`1`.as('in_scope')
            : eb
                .case()
                .when(eb.and(within))
                .then(sql<number>`1`)
                .else(sql<number>`0`)
                .end()
                .as('in_scope'),
          sql<number>`case when summary = ${'{}'} then 1 else 0 end`.as('summary_empty'),
        ])
        .where('project_id', '=', projectId)
        // Numbers are unique ignoring case as the database's lower() folds it (subject_no_ci_uq), so
        // a file may write them in either; the same lower() on both sides matches what the index does.
        .where(
          sql<string>`lower(subject_no)`,
          'in',
          nos.map((no) => sql<string>`lower(${no})`),
        ),
    nameMarker,
  )
  return async (subjectNos: readonly string[]) => {
    const out = []
    for (const nos of chunks(subjectNos, inChunk)) out.push(...(await read(db, nos)))
    return out
  }
}

export function centersOf(db: Q, projectId: number) {
  return db
    .selectFrom('project_center as pc')
    .innerJoin('center as c', 'c.id', 'pc.center_id')
    .select(['c.id', 'c.code'])
    .where('pc.project_id', '=', projectId)
    .execute()
}

export function queuesOf(db: Q, projectId: number) {
  return db
    .selectFrom('project_queue')
    .select(['id', 'key', 'name', 'entry_condition', 'exclude_condition'])
    .where('project_id', '=', projectId)
    .execute()
}

/** The project's visits with the CRFs each collects. */
export function visitFormsByName(db: Q, projectId: number) {
  return db
    .selectFrom('visit as v')
    .innerJoin('visit_form as vf', 'vf.visit_id', 'v.id')
    .select(['v.id', 'v.name', 'vf.template_id'])
    .where('v.project_id', '=', projectId)
    .execute()
}

export function samplesOf(db: Q, projectId: number) {
  return db.selectFrom('sample').select(['id', 'subject_id', 'sample_no']).where('project_id', '=', projectId).execute()
}

/** Stored records of subjects for these CRFs: a reader for one upload, run once per batch. */
export function recordsOf(db: Q, templateIds: readonly number[]) {
  const read = listRead(
    (ids: readonly number[]) =>
      db
        .selectFrom('form_record')
        .select(['id', 'subject_id', 'template_id', 'version_id', 'slot', 'data', 'status', 'rev'])
        .where('subject_id', 'in', [...ids])
        .where('template_id', 'in', [...templateIds]),
    idMarker,
  )
  return async (subjectIds: readonly number[]) => {
    const out = []
    for (const ids of chunks(subjectIds, inChunk)) out.push(...(await read(db, ids)))
    return out
  }
}
export type StoredRecord = Awaited<ReturnType<ReturnType<typeof recordsOf>>>[number]

export async function rowsOf(db: Q, recordIds: readonly number[]) {
  const out = []
  for (const ids of chunks(recordIds, inChunk)) {
    out.push(
      ...(await db
        .selectFrom('form_row')
        .select(['id', 'record_id', 'section_key', 'sort', 'data', 'rev'])
        .where('record_id', 'in', ids)
        .orderBy('record_id')
        .orderBy('section_key')
        .orderBy('sort')
        .orderBy('id')
        .execute()),
    )
  }
  return out
}
export type StoredRow = Awaited<ReturnType<typeof rowsOf>>[number]

// --- Writes (inside the upload's transaction) ----------------------------------------------------

export async function insertUpload(db: Q, row: Insertable<DataUploadTable>): Promise<number> {
  const r = await db.insertInto('data_upload').values(row).returning('id').executeTakeFirstOrThrow()
  return r.id
}

export async function updateUpload(db: Q, id: number, set: Updateable<DataUploadTable>): Promise<void> {
  await db.updateTable('data_upload').set(set).where('id', '=', id).execute()
}

/**
 * Where an upload's bulk writes go: the open transaction, and on SQLite the connection's own
 * handle. There a multi-row statement per table is prepared once and run again (in the same open
 * transaction, which holds SQLite's writer); Kysely would prepare a multi-row statement of
 * thousands of parameters again for every chunk, which cost more than the inserts themselves.
 * PostgreSQL gets one JSON document (instances, rows) or one multi-row statement (audit rows) per
 * chunk: one round trip each.
 */
export interface BulkTarget {
  tx: Q
  sqlite?: SQLite.Database
}

export const bulkTarget = (db: Kysely<Database>, tx: Q): BulkTarget => ({ tx, sqlite: sqliteHandle(db) })

const prepared = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>()

function statement(h: SQLite.Database, text: string): SQLite.Statement {
  let cache = prepared.get(h)
  if (!cache) prepared.set(h, (cache = new Map()))
  let stmt = cache.get(text)
  if (!stmt) cache.set(text, (stmt = h.prepare(text)))
  return stmt
}

/** Parameters per statement, under SQLite's 32,766 (PostgreSQL allows 65,535). */
const maxParams = 32000

/**
 * Rows per multi-row insert on SQLite. Measured on 100,000 records of 20 values: 0.54 s at 100 a
 * statement against 0.95 s at one (25 to 500 all within 15% of 100); RETURNING their ids would
 * add a third, so the ids are worked out instead (see insertMany).
 */
const sqliteRows = 100

/**
 * Rows of one shape inserted by a prepared multi-row statement (kept per text: at most two per
 * shape, the full one and the one-row one for the rest); their ids in order when asked. The
 * tables written here are AUTOINCREMENT ones and the statement inserts nothing else into them:
 * SQLite gives each row of one statement the next id in turn, so a statement's rows hold the ids
 * up to its last, counted back.
 */
function insertMany(h: SQLite.Database, table: string, rows: readonly object[], ids: boolean): number[] {
  if (rows.length === 0) return []
  const keys = Object.keys(rows[0]!)
  const tuple = `(${keys.map(() => '?').join(', ')})`
  const per = Math.max(1, Math.min(sqliteRows, Math.floor(maxParams / keys.length)))
  const out: number[] = []
  for (let from = 0; from < rows.length;) {
    const n = rows.length - from >= per ? per : 1
    const stmt = statement(h, `insert into ${table} (${keys.join(', ')}) values ${Array<string>(n).fill(tuple).join(', ')}`)
    const params: unknown[] = []
    for (let i = from; i < from + n; i++) {
      const r = rows[i] as Record<string, unknown>
      for (const k of keys) params.push(r[k] ?? null)
    }
    const info = stmt.run(params)
    if (info.changes !== n) throw new Error(`${table}: ${info.changes} rows inserted of ${n}`)
    if (ids) for (let i = n - 1, last = Number(info.lastInsertRowid); i >= 0; i--) out.push(last - i)
    from += n
  }
  return out
}

/**
 * Multi-row inserts of rows of one shape, as many rows per statement as the parameter limit
 * allows. Kysely building and compiling a statement of thousands of parameters costs more than
 * the database takes to run it, and every chunk of one size has the same SQL text: it is compiled
 * once and reused with the next chunk's parameters. Kysely lays a multi-row insert's parameters
 * out row by row in the order of the rows' keys; checked on the compiled chunk, and a chunk whose
 * layout could differ (other keys, an undefined value) is compiled afresh.
 */
async function insertChunked<R extends object, O>(
  db: Q,
  rows: readonly R[],
  build: (part: R[]) => { compile(): CompiledQuery<O> },
): Promise<O[]> {
  const out: O[] = []
  if (rows.length === 0) return out
  const size = Math.max(1, Math.floor(maxParams / Object.keys(rows[0]!).length))
  let compiled: { rows: number; sql: string; keys: string } | null = null
  for (const part of chunks(rows, size)) {
    const keys = Object.keys(part[0]!).join()
    const params: unknown[] = []
    let regular = true
    for (const r of part) {
      const values = Object.values(r) as unknown[]
      if (Object.keys(r).join() !== keys) regular = false
      for (const v of values) {
        if (v === undefined) regular = false
        params.push(v)
      }
    }
    if (regular && compiled && compiled.rows === part.length && compiled.keys === keys) {
      out.push(...(await db.executeQuery<O>(CompiledQuery.raw(compiled.sql, params))).rows)
      continue
    }
    const q = build(part).compile()
    const sameLayout = regular && q.parameters.length === params.length && q.parameters.every((p, i) => p === params[i])
    compiled = sameLayout ? { rows: part.length, sql: q.sql, keys } : null
    out.push(...(await db.executeQuery(q)).rows)
  }
  return out
}

/** Rows per JSON document on PostgreSQL (see insertAsJson). */
const jsonRows = 5000

/**
 * PostgreSQL: rows of one shape sent as one JSON document a chunk and laid out as the table's rows
 * by jsonb_populate_recordset, their ids answered in the order given (the insert takes them in the
 * document's order, and RETURNING answers in insert order). Measured raw on the upload bench's
 * server: 100,000 records in 4.4 s against 6.0 s as multi-row VALUES of 17 parameters a row, whose
 * binding costs the server more than reading one document. `data` is already JSON text and goes in
 * as it is, not as a string; every row has it.
 */
async function insertAsJson(tx: Q, table: 'form_record' | 'form_row', rows: readonly { data?: unknown }[]): Promise<number[]> {
  if (rows.length === 0) return []
  const keys = Object.keys(rows[0]!)
  const columns = sql.join(keys.map((k) => sql.ref(k)))
  const out: number[] = []
  for (const part of chunks(rows, jsonRows)) {
    const doc = part.map(({ data, ...rest }) => {
      if (typeof data !== 'string') throw new Error(`${table}: a row without its JSON data`)
      return `${JSON.stringify(rest).slice(0, -1)},"data":${data}}`
    })
    const got = await sql<{ id: number }>`insert into ${sql.table(table)} (${columns})
      select ${sql.join(keys.map((k) => sql.ref(`v.${k}`)))}
      from jsonb_populate_recordset(null::${sql.table(table)}, ${`[${doc.join(',')}]`}::jsonb) with ordinality as v
      order by v.ordinality returning id`.execute(tx)
    for (const r of got.rows) out.push(r.id)
  }
  return out
}

/** Inserts records and answers their ids in the order given. */
export async function insertRecords(t: BulkTarget, rows: readonly Insertable<FormRecordTable>[]): Promise<number[]> {
  return t.sqlite ? insertMany(t.sqlite, 'form_record', rows, true) : insertAsJson(t.tx, 'form_record', rows)
}

export async function insertRows(t: BulkTarget, rows: readonly Insertable<FormRowTable>[]): Promise<number[]> {
  return t.sqlite ? insertMany(t.sqlite, 'form_row', rows, true) : insertAsJson(t.tx, 'form_row', rows)
}

export async function insertAudit(t: BulkTarget, rows: readonly Insertable<DataAuditTable>[]): Promise<void> {
  if (t.sqlite) insertMany(t.sqlite, 'data_audit', rows, false)
  else await insertChunked(t.tx, rows, (part) => t.tx.insertInto('data_audit').values(part))
}

/** What every audit row of an upload's new instances and rows shares. */
export interface NewAuditBase {
  at: string
  userId: number | null
  username: string
  ip: string | null
  reason: string
  uploadId: number
}

/**
 * One audit row per instance (or sub-form row) this upload inserted with ids from `first` to
 * `last`, built by the database from the rows themselves: one statement, nothing sent per row.
 * The upload's id bounds the range to its own inserts (ids from other sessions may interleave on
 * PostgreSQL); a new row's subject, form and version are its instance's.
 */
export async function auditNew(db: Q, kind: 'record' | 'row', first: number, last: number, b: NewAuditBase): Promise<void> {
  const common = [
    sql.val(b.at).as('at'),
    sql<number | null>`cast(${b.userId} as integer)`.as('user_id'),
    sql.val(b.username).as('username'),
    sql.val(b.ip).as('ip'),
    sql.val('').as('field'),
    sql.val('import').as('action'),
    sql.val(b.reason).as('reason'),
    sql<number>`cast(${b.uploadId} as integer)`.as('upload_id'),
  ]
  const columns = ['at', 'user_id', 'username', 'ip', 'field', 'action', 'reason', 'upload_id'] as const
  if (kind === 'record') {
    await db
      .insertInto('data_audit')
      .columns([...columns, 'project_id', 'subject_id', 'record_id', 'template_id', 'version_id'])
      .expression(
        db
          .selectFrom('form_record as r')
          .select([...common, 'r.project_id', 'r.subject_id', 'r.id', 'r.template_id', 'r.version_id'])
          .where('r.upload_id', '=', b.uploadId)
          .where('r.id', '>=', first)
          .where('r.id', '<=', last)
          .orderBy('r.id'),
      )
      .execute()
    return
  }
  await db
    .insertInto('data_audit')
    .columns([...columns, 'project_id', 'subject_id', 'record_id', 'row_id', 'section_key', 'template_id', 'version_id'])
    .expression(
      db
        .selectFrom('form_row as w')
        .innerJoin('form_record as r', 'r.id', 'w.record_id')
        .select([...common, 'r.project_id', 'r.subject_id', 'r.id', 'w.id as row_id', 'w.section_key', 'r.template_id', 'r.version_id'])
        .where('w.upload_id', '=', b.uploadId)
        .where('w.id', '>=', first)
        .where('w.id', '<=', last)
        .orderBy('w.id'),
    )
    .execute()
}

/** New values at the next rev, only when still at `rev` (a save in between is not overwritten). */
export async function updateRecord(
  db: Q,
  u: { id: number; rev: number; data: string; userId: number | null; at: string; uploadId: number },
): Promise<boolean> {
  const r = await db
    .updateTable('form_record')
    .set({ data: u.data, rev: u.rev + 1, updated_by: u.userId, updated_at: u.at, upload_id: u.uploadId })
    .where('id', '=', u.id)
    .where('rev', '=', u.rev)
    .where('status', '<>', 'signed')
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function updateRow(
  db: Q,
  u: { id: number; rev: number; data: string; userId: number | null; at: string; uploadId: number },
): Promise<boolean> {
  const r = await db
    .updateTable('form_row')
    .set({ data: u.data, rev: u.rev + 1, updated_by: u.userId, updated_at: u.at, upload_id: u.uploadId })
    .where('id', '=', u.id)
    .where('rev', '=', u.rev)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/**
 * Applies JSON merge patches to many subjects' summaries (a null member removes that key): on
 * PostgreSQL a few thousand per statement, the pairs travelling as one JSON parameter joined to
 * the table, so the summaries are neither read into the server nor sent back whole (summary
 * members are texts, never null, so the strip of nulls after `||` is the patch's removal); on
 * SQLite one prepared statement per subject: json_patch, or, where the caller knows the summary
 * is still empty (`empty`: read under the same connection it holds, which nobody else can write
 * through meanwhile), the patch set as it is, which costs half as much. PostgreSQL always merges:
 * another session may have saved since the read.
 */
export async function patchSummaries(
  t: BulkTarget,
  rows: readonly { id: number; patch: string; empty: boolean }[],
  at: string,
): Promise<void> {
  if (t.sqlite) {
    const merge = statement(t.sqlite, `update subject set summary = json_patch(coalesce(summary, '{}'), ?), updated_at = ? where id = ?`)
    const set = statement(t.sqlite, `update subject set summary = ?, updated_at = ? where id = ?`)
    for (const r of rows) (r.empty ? set : merge).run(r.patch, at, r.id)
    return
  }
  for (const part of chunks(rows, 5000)) {
    const list = `[${part.map((r) => `{"id":${r.id},"patch":${r.patch}}`).join(',')}]`
    await sql`update subject set summary = jsonb_strip_nulls(coalesce(subject.summary, '{}'::jsonb) || v.patch), updated_at = ${at}
            from jsonb_to_recordset(${list}::jsonb) as v(id integer, patch jsonb) where subject.id = v.id`.execute(t.tx)
  }
}

/** Project row state (status) read again under the transaction. */
export function projectStatus(db: Q, projectId: number) {
  return db.selectFrom('project').select(['status']).where('id', '=', projectId).executeTakeFirst()
}
