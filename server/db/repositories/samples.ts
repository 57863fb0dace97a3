import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { Database } from '../database.ts'
import type { Q } from '../query.ts'
import { scopeConditions, type ListScope } from '../scope.ts'
import type { SampleRow, SampleTable } from '../tables/samples.ts'
import { foldAsciiCase, prefixUpperBound } from './indicators.ts'

/** The rows the sample service (server/services/samples.ts) reads and writes. */

const scopeColumns = { project: 's.project_id', queue: 's.queue_id', center: 's.center_id' }

/** One sample inside a project scope: another center's or queue's sample is not found, like an unknown one. */
export function findSampleInScope(db: Q, scope: ListScope, sampleId: number): Promise<SampleRow | undefined> {
  return db
    .selectFrom('sample as s')
    .selectAll('s')
    .where('s.id', '=', sampleId)
    .where((eb) => eb.and(scopeConditions(scope, scopeColumns)))
    .executeTakeFirst()
}

export function sampleById(db: Q, sampleId: number): Promise<SampleRow> {
  return db.selectFrom('sample').selectAll().where('id', '=', sampleId).executeTakeFirstOrThrow()
}

/** A research object by its number (any case, index subject_no_ci_uq), inside a project scope. */
export function findSubjectByNoInScope(db: Q, scope: ListScope, subjectNo: string) {
  return db
    .selectFrom('subject as s')
    .select(['s.id', 's.center_id', 's.queue_id', 's.subject_no'])
    .where((eb) => eb.and(scopeConditions(scope, scopeColumns)))
    .where(sql<string>`lower(s.subject_no)`, '=', sql<string>`lower(${subjectNo})`)
    .executeTakeFirst()
}

/** The sample if it belongs to the subject. */
export function sampleOfSubject(db: Q, sampleId: number, subjectId: number) {
  return db.selectFrom('sample').select('id').where('id', '=', sampleId).where('subject_id', '=', subjectId).executeTakeFirst()
}

/**
 * Whether a number is free in the project: taken by another sample, or retired: a deleted
 * sample's, or one a sample had before it was renamed. A sample may take back a number it had
 * itself. All ignore case (indexes sample_no_ci_uq, sample_retired_no_ci_uq).
 */
export async function sampleNoState(
  db: Q,
  projectId: number,
  sampleNo: string,
  exceptId: number | null,
): Promise<'free' | 'taken' | 'retired' | 'renamed'> {
  const same = sql<string>`lower(sample_no)`
  let q = db
    .selectFrom('sample')
    .select('id')
    .where('project_id', '=', projectId)
    .where(same, '=', sql<string>`lower(${sampleNo})`)
  if (exceptId !== null) q = q.where('id', '<>', exceptId)
  if ((await q.executeTakeFirst()) !== undefined) return 'taken'
  const retired = await db
    .selectFrom('sample_retired_no as r')
    .leftJoin('sample as s', 's.id', 'r.sample_id')
    .select(['r.sample_id', 's.id as live'])
    .where('r.project_id', '=', projectId)
    .where(sql<string>`lower(r.sample_no)`, '=', sql<string>`lower(${sampleNo})`)
    .executeTakeFirst()
  if (retired === undefined || (exceptId !== null && retired.sample_id === exceptId)) return 'free'
  return retired.live === null ? 'retired' : 'renamed'
}

/** Keeps a deleted sample's number, or a renamed sample's old one, from every later sample of its project. */
export async function retireSampleNo(db: Q, row: Pick<SampleRow, 'project_id' | 'sample_no' | 'id'>, at: string): Promise<void> {
  await db
    .insertInto('sample_retired_no')
    .values({ project_id: row.project_id, sample_no: row.sample_no, sample_id: row.id, deleted_at: at })
    // Already kept: a sample took a deleted number before numbers were kept (migration 0036).
    .onConflict((oc) => oc.doNothing())
    .execute()
}

/** A sample takes back a number it had before a rename: the number is its own again, not retired. */
export async function unretireOwnSampleNo(db: Q, projectId: number, sampleId: number, sampleNo: string): Promise<void> {
  await db
    .deleteFrom('sample_retired_no')
    .where('project_id', '=', projectId)
    .where('sample_id', '=', sampleId)
    .where(sql<string>`lower(sample_no)`, '=', sql<string>`lower(${sampleNo})`)
    .execute()
}

export type NewSample = Omit<SampleTable, 'id' | 'root_id' | 'freezer' | 'rack' | 'box' | 'position' | 'status' | 'remarks'> & {
  root_id: number | null
  freezer: string
  rack: string
  box: string
  position: string
  remarks: string
}

export async function insertSample(db: Q, row: NewSample): Promise<number> {
  const r = await db.insertInto('sample').values(row).returning('id').executeTakeFirstOrThrow()
  if (row.root_id === null) await db.updateTable('sample').set({ root_id: r.id }).where('id', '=', r.id).execute()
  return r.id
}

export type SampleChange = Pick<SampleTable, 'sample_no' | 'type' | 'collected_at' | 'quantity' | 'unit' | 'updated_by' | 'updated_at'> & {
  freezer: string
  rack: string
  box: string
  position: string
  remarks: string
}

export async function updateSampleRow(db: Q, sampleId: number, change: SampleChange): Promise<void> {
  await db.updateTable('sample').set(change).where('id', '=', sampleId).execute()
}

/** An aliquot has its parent's type: a root's new type goes to its whole tree. */
export async function setTreeType(db: Q, rootId: number, type: string): Promise<void> {
  await db.updateTable('sample').set({ type }).where('root_id', '=', rootId).execute()
}

export async function setSampleStatus(db: Q, sampleId: number, status: string, by: number | null, at: string): Promise<void> {
  await db.updateTable('sample').set({ status, updated_by: by, updated_at: at }).where('id', '=', sampleId).execute()
}

export async function deleteSampleRow(db: Q, sampleId: number): Promise<void> {
  await db.deleteFrom('sample').where('id', '=', sampleId).execute()
}

export async function countAliquots(db: Q, sampleId: number): Promise<number> {
  const r = await db
    .selectFrom('sample')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('parent_id', '=', sampleId)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

export async function countSampleRecords(db: Q, sampleId: number): Promise<number> {
  const r = await db
    .selectFrom('form_record')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('sample_id', '=', sampleId)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

/** Samples made for a subject so far (for a generated number). */
export async function countChildrenOf(db: Q, subjectId: number, parentId: number | null): Promise<number> {
  let q = db
    .selectFrom('sample')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('subject_id', '=', subjectId)
  q = parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId)
  return Number((await q.executeTakeFirstOrThrow()).n)
}

// ---------------------------------------------------------------------------------------------
// The list

/** The column behind each sort key; each is indexed as (project, sort, id) (migration 0020). */
export const sampleSortColumns = { sampleNo: 'sample_no', collectedAt: 'collected_at', updated: 'updated_at' } as const
export type SampleSortColumn = (typeof sampleSortColumns)[keyof typeof sampleSortColumns]

export interface SampleFilter {
  q?: string | undefined
  subjectId?: number | undefined
  centerId?: number | undefined
  queueId?: number | undefined
  type?: string | undefined
  status?: string | undefined
}

type Eb = ExpressionBuilder<Database & { s: SampleTable }, 's'>

function conditions(eb: Eb, scope: ListScope, f: SampleFilter): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [...scopeConditions(scope, scopeColumns)]
  if (f.subjectId !== undefined) out.push(eb('s.subject_id', '=', f.subjectId))
  if (f.centerId !== undefined) out.push(eb('s.center_id', '=', f.centerId))
  if (f.queueId !== undefined) out.push(eb('s.queue_id', '=', f.queueId))
  if (f.type !== undefined) out.push(eb('s.type', '=', f.type))
  if (f.status !== undefined) out.push(eb('s.status', '=', f.status))
  if (f.q) {
    // The same exact prefix test as the indicator list: a range the (project, lower(no)) index can serve plus substr.
    const folded = foldAsciiCase(f.q)
    const upper = prefixUpperBound(folded)
    const lowered = sql<string>`lower(s.sample_no)`
    out.push(
      eb.and([
        eb(lowered, '>=', folded),
        ...(upper === null ? [] : [eb(lowered, '<', upper)]),
        eb(sql<string>`substr(lower(s.sample_no), 1, ${sql.lit(Array.from(folded).length)})`, '=', folded),
      ]),
    )
  }
  return out
}

export interface SamplePageQuery {
  scope: ListScope
  filter: SampleFilter
  sort: SampleSortColumn
  order: 'asc' | 'desc'
  /** Sort value and id of the previous page's last row. */
  after: readonly [string, number] | null
  limit: number
}

/** One keyset page in (sort, id) order: the (project, sort, id) index gives the order (migration 0020). */
export function samplePageQuery(db: Q, p: SamplePageQuery) {
  const sort = `s.${p.sort}` as const
  return db
    .selectFrom('sample as s')
    .selectAll('s')
    .where((eb) => {
      const conds = conditions(eb, p.scope, p.filter)
      if (p.after) conds.push(eb(eb.refTuple(sort, 's.id'), p.order === 'asc' ? '>' : '<', eb.tuple(p.after[0], p.after[1])))
      return eb.and(conds)
    })
    .orderBy(sort, p.order)
    .orderBy('s.id', p.order)
    .limit(p.limit)
}

export async function countSamples(db: Q, scope: ListScope, filter: SampleFilter): Promise<number> {
  const r = await db
    .selectFrom('sample as s')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => eb.and(conditions(eb, scope, filter)))
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

/** Every sample of one aliquot tree, in id order (a parent is always older than its aliquots). */
export function treeRows(db: Q, scope: ListScope, rootId: number): Promise<SampleRow[]> {
  return db
    .selectFrom('sample as s')
    .selectAll('s')
    .where('s.root_id', '=', rootId)
    .where((eb) => eb.and(scopeConditions(scope, scopeColumns)))
    .orderBy('s.id')
    .execute()
}

// ---------------------------------------------------------------------------------------------
// What a page shows beside its rows, read by id

export interface SampleNames {
  subjects: Map<number, string>
  centers: Map<number, string>
  queues: Map<number, string>
  parents: Map<number, string>
  aliquots: Map<number, number>
  records: { sample_id: number | null; template_id: number; id: number; status: string }[]
}

export async function namesOfSamples(db: Q, rows: readonly SampleRow[]): Promise<SampleNames> {
  const ids = rows.map((r) => r.id)
  const unique = (xs: (number | null)[]) => [...new Set(xs.filter((x): x is number => x !== null))]
  const subjectIds = unique(rows.map((r) => r.subject_id))
  const centerIds = unique(rows.map((r) => r.center_id))
  const queueIds = unique(rows.map((r) => r.queue_id))
  const parentIds = unique(rows.map((r) => r.parent_id))
  if (ids.length === 0)
    return { subjects: new Map(), centers: new Map(), queues: new Map(), parents: new Map(), aliquots: new Map(), records: [] }
  const [subjects, centers, queues, parents, aliquots, records] = await Promise.all([
    db.selectFrom('subject').select(['id', 'subject_no']).where('id', 'in', subjectIds).execute(),
    db.selectFrom('center').select(['id', 'code']).where('id', 'in', centerIds).execute(),
    db.selectFrom('project_queue').select(['id', 'name']).where('id', 'in', queueIds).execute(),
    parentIds.length === 0 ? [] : db.selectFrom('sample').select(['id', 'sample_no']).where('id', 'in', parentIds).execute(),
    db
      .selectFrom('sample')
      .select((eb) => ['parent_id', eb.fn.countAll<number | string>().as('n')])
      .where('parent_id', 'in', ids)
      .groupBy('parent_id')
      .execute(),
    db.selectFrom('form_record').select(['sample_id', 'template_id', 'id', 'status']).where('sample_id', 'in', ids).execute(),
  ])
  return {
    subjects: new Map(subjects.map((s) => [s.id, s.subject_no])),
    centers: new Map(centers.map((c) => [c.id, c.code])),
    queues: new Map(queues.map((q) => [q.id, q.name])),
    parents: new Map(parents.map((p) => [p.id, p.sample_no])),
    aliquots: new Map(aliquots.map((a) => [a.parent_id ?? 0, Number(a.n)])),
    records,
  }
}

/** The project's pinned CRFs of collect type biomaterial, in project order. */
export function sampleFormsOf(db: Q, projectId: number) {
  return db
    .selectFrom('project_form as f')
    .innerJoin('template as t', 't.id', 'f.template_id')
    .select(['f.template_id', 't.name'])
    .where('f.project_id', '=', projectId)
    .where('t.collect_type', '=', 'biomaterial')
    .orderBy('f.sort')
    .orderBy('f.template_id')
    .execute()
}
