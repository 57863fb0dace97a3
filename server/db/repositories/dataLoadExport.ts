import { sql, type Expression, type Insertable, type Kysely, type SqlBool } from 'kysely'
import { sqliteReads } from '../connect.ts'
import type { Database } from '../database.ts'
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

/** A subject with one of its form instances; a subject without any has the record columns null. */
export interface ExportPageRow {
  subject_id: number
  subject_no: string
  center_id: number
  queue_id: number
  group_id: number | null
  record_id: number | null
  template_id: number | null
  slot: string | null
  visit_id: number | null
  data: unknown
  sample_no: string | null
}

export interface ExportPageQuery {
  projectId: number
  filter: SubjectFilter
  templateIds: readonly number[]
  /** Visit instances only of these visits; the other forms' instances are not visits and stay. */
  visitIds?: readonly number[]
  /** Whether the sample numbers are wanted (a biomaterial form is among the forms). */
  samples: boolean
  /** Whether the subjects' groups are wanted (the rand_group column). */
  groups: boolean
  /** Subjects per page. */
  perPage: number
}

/** The filter as conditions on `subject as s`. */
function subjectConditions(f: SubjectFilter): Expression<SqlBool>[] {
  const among = (column: string, ids: readonly number[]) => sql<SqlBool>`${sql.ref(column)} in (${sql.join(ids.length ? [...ids] : [-1])})`
  return [
    ...scopeConditions(f.scope, { project: 's.project_id', queue: 's.queue_id', center: 's.center_id' }),
    ...(f.centerIds ? [among('s.center_id', f.centerIds)] : []),
    ...(f.queueIds ? [among('s.queue_id', f.queueIds)] : []),
  ]
}

/**
 * A page: the subjects after `afterId` up to the last of the next `perPage` (a range of ids, so
 * both databases walk the subjects and their instances in index order, nothing sorted), each
 * with its instances of the forms by form and slot. A subject without an instance comes once,
 * its record columns null, so the last row says where the next page starts.
 */
function exportPageQuery(db: Q, p: ExportPageQuery, afterId: number) {
  const conditions = subjectConditions(p.filter)
  let ids = db.selectFrom('subject as s').select('s.id').where('s.id', '>', afterId)
  for (const c of conditions) ids = ids.where(c)
  const last = db.selectFrom(ids.orderBy('s.id').limit(p.perPage).as('page')).select((eb) => eb.fn.max('page.id').as('last'))
  const templates = p.templateIds.length ? [...p.templateIds] : [-1]
  const visits = p.visitIds && (p.visitIds.length ? [...p.visitIds] : [-1])
  let q = db
    .selectFrom('subject as s')
    .leftJoin('form_record as r', (j) => {
      const on = j
        .onRef('r.subject_id', '=', 's.id')
        .on('r.project_id', '=', p.projectId)
        // One form (a sheet) as an equality: the instances are then read in the index's order.
        .on('r.template_id', templates.length === 1 ? '=' : 'in', templates.length === 1 ? templates[0]! : templates)
      return visits ? on.on((eb) => eb.or([eb('r.visit_id', 'is', null), eb('r.visit_id', 'in', visits)])) : on
    })
    .select([
      's.id as subject_id',
      's.subject_no',
      's.center_id',
      's.queue_id',
      (p.groups ? sql<number | null>`s.group_id` : sql<number | null>`null`).as('group_id'),
      'r.id as record_id',
      'r.template_id',
      'r.slot',
      'r.visit_id',
      'r.data',
      (p.samples ? sql<string | null>`(select sa.sample_no from sample sa where sa.id = r.sample_id)` : sql<string | null>`null`).as(
        'sample_no',
      ),
    ])
    .where('s.id', '>', afterId)
    .where('s.id', '<=', last)
  for (const c of conditions) q = q.where(c)
  return q.orderBy('s.id').orderBy('r.template_id').orderBy('r.slot')
}

/** The columns of exportPageQuery in order, as SQLite's raw mode hands them. */
type ExportPageTuple = [
  number,
  string,
  number,
  number,
  number | null,
  number | null,
  number | null,
  string | null,
  number | null,
  unknown,
  string | null,
]

/** Stands for the page's start in the statement built once; no id is negative. */
const afterMarker = -1.5

/**
 * The pages of one download, one a call, until one is empty. The statement is the same for every
 * page but for where it starts: it is built once (the start's parameters found by a marker
 * value) and, on SQLite, prepared once with its rows read as arrays, which costs a third of what
 * Kysely's per-call build, prepare and row objects do over 100,000 instances. It runs where any
 * read outside a transaction runs: on the last committed state, without waiting for an upload.
 */
export function exportPages(db: Kysely<Database>, p: ExportPageQuery): () => Promise<ExportPageRow[]> {
  const reads = sqliteReads(db)
  const compiled = exportPageQuery(db, p, afterMarker).compile()
  const starts = compiled.parameters.flatMap((v, i) => (v === afterMarker ? [i] : []))
  const parameters = [...compiled.parameters]
  const statement = reads?.handle.prepare(compiled.sql).raw(true)
  let afterId = 0
  return async () => {
    for (const i of starts) parameters[i] = afterId
    let rows: ExportPageRow[]
    if (!reads || !statement) rows = (await db.executeQuery<ExportPageRow>({ ...compiled, parameters })).rows
    else {
      rows = await reads.run(() => {
        const tuples = statement.all(...parameters) as ExportPageTuple[]
        const out = new Array<ExportPageRow>(tuples.length)
        for (let i = 0; i < tuples.length; i++) {
          const t = tuples[i]!
          out[i] = {
            subject_id: t[0],
            subject_no: t[1],
            center_id: t[2],
            queue_id: t[3],
            group_id: t[4],
            record_id: t[5],
            template_id: t[6],
            slot: t[7],
            visit_id: t[8],
            data: t[9],
            sample_no: t[10],
          }
        }
        return out
      })
    }
    if (rows.length > 0) afterId = rows[rows.length - 1]!.subject_id
    return rows
  }
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

/** Every center's code, by id (a short list): a subject's center is mapped to its code with it. */
export async function centerCodes(db: Q): Promise<Map<number, string>> {
  const rows = await db.selectFrom('center').select(['id', 'code']).execute()
  return new Map(rows.map((r) => [r.id, r.code]))
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

/** The project's randomization groups (none without randomization). */
export function projectGroups(db: Q, projectId: number) {
  return db
    .selectFrom('project_group')
    .select(['id', 'code', 'name'])
    .where('project_id', '=', projectId)
    .orderBy('sort')
    .orderBy('id')
    .execute()
}

export function projectHead(db: Q, projectId: number) {
  return db.selectFrom('project').select(['id', 'number', 'name']).where('id', '=', projectId).executeTakeFirst()
}

export async function insertDownload(db: Q, row: Insertable<DataDownloadTable>): Promise<number> {
  const r = await db.insertInto('data_download').values(row).returning('id').executeTakeFirstOrThrow()
  return r.id
}
