import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { ProjectBaseInput, ProjectScope, ProjectSortKey, QueueInput } from '../../../contract/projects.ts'
import { projectHistoryActions } from '../../../contract/projects.ts'
import type { Database } from '../database.ts'
import type { Q } from '../query.ts'
import { scopeConditions, type ListScope } from '../scope.ts'
import type { Project, ProjectQueue } from '../tables/project.ts'
import { foldAsciiCase } from './indicators.ts'

/** Row values of the base fields as a person entered them. */
export function projectBaseValues(b: ProjectBaseInput) {
  return {
    type: b.type,
    name: b.name,
    number: b.number,
    test_stage: b.testStage,
    group_number: b.groupNumber,
    manage_biomaterial: b.manageBiomaterial ? 1 : 0,
    group_type: b.groupType,
    disease_id: b.diseaseId,
    blinded: b.blinded,
    random_method: b.randomMethod,
    planned_quantity: b.plannedQuantity,
    planned_groups: b.plannedGroups,
    therapy_time: b.therapyTime,
    follow_up_time: b.followUpTime,
  }
}

export async function insertProject(db: Q, scope: ProjectScope, base: ProjectBaseInput, creatorId: number, now: string): Promise<number> {
  const row = await db
    .insertInto('project')
    .values({ ...projectBaseValues(base), scope, status: 'draft', creator_id: creatorId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateProjectBaseRow(db: Q, id: number, base: ProjectBaseInput, now: string): Promise<void> {
  await db
    .updateTable('project')
    .set({ ...projectBaseValues(base), updated_at: now })
    .where('id', '=', id)
    .execute()
}

export async function setProjectStatus(db: Q, id: number, status: string, reason: string, now: string): Promise<void> {
  await db.updateTable('project').set({ status, status_reason: reason, updated_at: now }).where('id', '=', id).execute()
}

export function findProjectById(db: Q, id: number): Promise<Project | undefined> {
  return db.selectFrom('project').selectAll().where('id', '=', id).executeTakeFirst()
}

/**
 * Reads the project after taking its row lock with a no-op update, held until the transaction
 * ends: two transitions of one project queue up instead of both passing the status check.
 */
export async function lockProject(db: Q, id: number): Promise<Project | undefined> {
  await db
    .updateTable('project')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .execute()
  return findProjectById(db, id)
}

/** Another project with this number, whatever its case (the unique lower(number) index). */
export async function numberUsedBy(db: Q, number: string, exceptId: number | null): Promise<boolean> {
  let q = db
    .selectFrom('project')
    .select('id')
    .where(sql<string>`lower(number)`, '=', sql<string>`lower(${number})`)
  if (exceptId !== null) q = q.where('id', '<>', exceptId)
  return (await q.executeTakeFirst()) !== undefined
}

export async function insertQueues(db: Q, projectId: number, queues: readonly QueueInput[]): Promise<void> {
  if (queues.length === 0) return
  await db
    .insertInto('project_queue')
    .values(
      queues.map((q, sort) => ({
        project_id: projectId,
        name: q.name,
        key: q.key,
        entry_condition: q.entryCondition,
        exclude_condition: q.excludeCondition,
        sort,
      })),
    )
    .execute()
}

export async function insertForms(db: Q, projectId: number, pins: readonly { templateId: number; versionId: number }[]): Promise<void> {
  if (pins.length === 0) return
  await db
    .insertInto('project_form')
    .values(pins.map((p, sort) => ({ project_id: projectId, template_id: p.templateId, version_id: p.versionId, sort })))
    .execute()
}

export async function insertCenters(db: Q, projectId: number, centerIds: readonly number[]): Promise<void> {
  if (centerIds.length === 0) return
  await db
    .insertInto('project_center')
    .values(centerIds.map((center_id, sort) => ({ project_id: projectId, center_id, sort })))
    .execute()
}

/** The project role of the creator: every authority, every queue and center, not blinded. */
export async function insertManagerRole(
  db: Q,
  projectId: number,
  name: string,
  authorities: readonly string[],
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('project_role')
    .values({
      project_id: projectId,
      name,
      authorities: JSON.stringify(authorities),
      all_queues: 1,
      all_centers: 1,
      blinded: 0,
      builtin: 'manager',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function insertMember(db: Q, projectId: number, userId: number, roleId: number, now: string): Promise<void> {
  await db.insertInto('project_member').values({ project_id: projectId, user_id: userId, role_id: roleId, created_at: now }).execute()
}

async function count(q: { executeTakeFirstOrThrow(): Promise<{ n: number | string }> }): Promise<number> {
  return Number((await q.executeTakeFirstOrThrow()).n)
}

export function countQueues(db: Q, projectId: number): Promise<number> {
  return count(
    db
      .selectFrom('project_queue')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('project_id', '=', projectId),
  )
}

export function countCenters(db: Q, projectId: number): Promise<number> {
  return count(
    db
      .selectFrom('project_center')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('project_id', '=', projectId),
  )
}

export function countSubjects(db: Q, projectId: number): Promise<number> {
  return count(
    db
      .selectFrom('subject')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('project_id', '=', projectId),
  )
}

/**
 * Every row of the project, children first, so nothing is left half deleted whether or not the
 * database enforces its cascades (SQLite only with foreign_keys on).
 */
export async function deleteProjectRows(db: Q, projectId: number): Promise<void> {
  const roles = db.selectFrom('project_role').select('id').where('project_id', '=', projectId)
  await db.deleteFrom('allocation').where('project_id', '=', projectId).execute()
  await db.deleteFrom('project_group').where('project_id', '=', projectId).execute()
  await db.deleteFrom('randomization_plan').where('project_id', '=', projectId).execute()
  await db.deleteFrom('project_application').where('project_id', '=', projectId).execute()
  await db.deleteFrom('project_member').where('project_id', '=', projectId).execute()
  await db.deleteFrom('project_role_queue').where('role_id', 'in', roles).execute()
  await db.deleteFrom('project_role_center').where('role_id', 'in', roles).execute()
  await db.deleteFrom('project_role').where('project_id', '=', projectId).execute()
  await db.deleteFrom('project_form').where('project_id', '=', projectId).execute()
  await db.deleteFrom('project_center').where('project_id', '=', projectId).execute()
  await db.deleteFrom('project_queue').where('project_id', '=', projectId).execute()
  await db.deleteFrom('project').where('id', '=', projectId).execute()
}

// ---------------------------------------------------------------------------------------------
// The list

/** The column behind each sort key; each is indexed as (scope, column, id) (migration 0015). */
export const projectSortColumns = {
  name: 'name',
  number: 'number',
  created: 'created_at',
  updated: 'updated_at',
  subjects: 'subject_count',
} as const satisfies Record<ProjectSortKey, keyof Project>
export type ProjectSortColumn = (typeof projectSortColumns)[ProjectSortKey]

export interface ProjectFilter {
  type?: string | undefined
  testStage?: string | undefined
  diseaseId?: number | undefined
  status?: string | undefined
  randomMethod?: string | undefined
  /** Prefix of the name or the number; ASCII letters in any case. */
  q?: string | undefined
}

type Eb = ExpressionBuilder<Database, 'project'>

/** substr of lower(): exact under any collation; the scope's (scope, sort, id) index keeps the order. */
function prefixOf(eb: Eb, col: 'name' | 'number', q: string): Expression<SqlBool> {
  const folded = foldAsciiCase(q)
  return eb(sql<string>`substr(lower(${sql.ref(col)}), 1, ${sql.lit(Array.from(folded).length)})`, '=', folded)
}

function conditions(eb: Eb, scope: ProjectScope, f: ProjectFilter, visible: ListScope): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [
    eb('scope', '=', scope),
    ...scopeConditions(visible, { project: 'project.id', status: 'project.status' }),
  ]
  if (f.type !== undefined) out.push(eb('type', '=', f.type))
  if (f.testStage !== undefined) out.push(eb('test_stage', '=', f.testStage))
  if (f.diseaseId !== undefined) out.push(eb('disease_id', '=', f.diseaseId))
  if (f.status !== undefined) out.push(eb('status', '=', f.status))
  if (f.randomMethod !== undefined) out.push(eb('random_method', '=', f.randomMethod))
  if (f.q) out.push(eb.or([prefixOf(eb, 'name', f.q), prefixOf(eb, 'number', f.q)]))
  return out
}

export interface ProjectPageQuery {
  scope: ProjectScope
  filter: ProjectFilter
  /** The projects the caller may see (policy listScope 'project.list'). */
  visible: ListScope
  sort: ProjectSortColumn
  order: 'asc' | 'desc'
  /** Sort value and id of the last row of the previous page. */
  after: readonly [string | number, number] | null
  limit: number
}

/**
 * One keyset page in (sort, id) order within one scope: the (scope, sort, id) index gives the
 * order, so no page sorts and the deepest costs what the first does (DESIGN §8). Names, roles
 * and diseases of the page are read afterwards by id, keeping joins out of this plan.
 */
export function projectPageQuery(db: Q, p: ProjectPageQuery) {
  return db
    .selectFrom('project')
    .selectAll()
    .where((eb) => {
      const conds = conditions(eb, p.scope, p.filter, p.visible)
      if (p.after) conds.push(eb(eb.refTuple(p.sort, 'id'), p.order === 'asc' ? '>' : '<', eb.tuple(p.after[0], p.after[1])))
      return eb.and(conds)
    })
    .orderBy(p.sort, p.order)
    .orderBy('id', p.order)
    .limit(p.limit)
}

export function projectCountQuery(db: Q, scope: ProjectScope, filter: ProjectFilter, visible: ListScope) {
  return db
    .selectFrom('project')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => eb.and(conditions(eb, scope, filter, visible)))
}

export function countProjects(db: Q, scope: ProjectScope, filter: ProjectFilter, visible: ListScope): Promise<number> {
  return count(projectCountQuery(db, scope, filter, visible))
}

export interface ProjectNames {
  diseases: Map<number, { name: string; name_en: string }>
  creators: Map<number, string>
  /** The user's project role name by project. */
  roles: Map<number, string>
}

/** The names a page of projects shows, by id: three small indexed reads. */
export async function namesOfProjects(db: Q, rows: readonly Project[], userId: number): Promise<ProjectNames> {
  const diseaseIds = [...new Set(rows.flatMap((r) => (r.disease_id === null ? [] : [r.disease_id])))]
  const creatorIds = [...new Set(rows.flatMap((r) => (r.creator_id === null ? [] : [r.creator_id])))]
  const projectIds = rows.map((r) => r.id)
  const [diseases, creators, roles] = await Promise.all([
    diseaseIds.length === 0 ? [] : db.selectFrom('disease').select(['id', 'name', 'name_en']).where('id', 'in', diseaseIds).execute(),
    creatorIds.length === 0 ? [] : db.selectFrom('app_user').select(['id', 'name']).where('id', 'in', creatorIds).execute(),
    projectIds.length === 0
      ? []
      : db
          .selectFrom('project_member as m')
          .innerJoin('project_role as r', 'r.id', 'm.role_id')
          .select(['m.project_id', 'r.name'])
          .where('m.user_id', '=', userId)
          .where('m.project_id', 'in', projectIds)
          .execute(),
  ])
  return {
    diseases: new Map(diseases.map((d) => [d.id, { name: d.name, name_en: d.name_en }])),
    creators: new Map(creators.map((c) => [c.id, c.name])),
    roles: new Map(roles.map((r) => [r.project_id, r.name])),
  }
}

// ---------------------------------------------------------------------------------------------
// Open projects (multi-apply)

export interface OpenProjectRow {
  id: number
  scope: string
  name: string
  number: string
  disease_name: string | null
  disease_name_en: string | null
}

/** Active projects the user is not a member of, by name. */
export function openProjectRows(db: Q, userId: number, q: string | undefined, limit: number): Promise<OpenProjectRow[]> {
  return db
    .selectFrom('project')
    .leftJoin('disease', 'disease.id', 'project.disease_id')
    .select([
      'project.id',
      'project.scope',
      'project.name',
      'project.number',
      'disease.name as disease_name',
      'disease.name_en as disease_name_en',
    ])
    .where((eb) => {
      const conds: Expression<SqlBool>[] = [
        eb('project.status', '=', 'active'),
        eb('project.id', 'not in', eb.selectFrom('project_member').select('project_id').where('user_id', '=', userId)),
      ]
      if (q) {
        const folded = foldAsciiCase(q)
        const n = sql.lit(Array.from(folded).length)
        conds.push(
          eb.or([
            eb(sql<string>`substr(lower(project.name), 1, ${n})`, '=', folded),
            eb(sql<string>`substr(lower(project.number), 1, ${n})`, '=', folded),
          ]),
        )
      }
      return eb.and(conds)
    })
    .orderBy('project.name')
    .orderBy('project.id')
    .limit(limit)
    .execute()
}

/** The roles of these projects one may wish for: every role but the manager's. */
export function wishableRoles(db: Q, projectIds: readonly number[]) {
  if (projectIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('project_role')
    .select(['id', 'project_id', 'name'])
    .where('project_id', 'in', [...projectIds])
    .where('builtin', 'is', null)
    .orderBy('id')
    .execute()
}

/** The user's pending applications to these projects. */
export function pendingApplications(db: Q, userId: number, projectIds: readonly number[]) {
  if (projectIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('project_application')
    .select(['id', 'project_id'])
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('project_id', 'in', [...projectIds])
    .execute()
}

// ---------------------------------------------------------------------------------------------
// Detail

/** The queues the scope lets the caller see (one of them when `queueId` names it), in order. */
export function queuesOf(db: Q, projectId: number, scope: ListScope, queueId?: number): Promise<ProjectQueue[]> {
  const visible: ListScope = scope.kind === 'project' ? { ...scope, centerIds: null } : scope
  let q = db
    .selectFrom('project_queue')
    .selectAll()
    .where((eb) =>
      eb.and([
        eb('project_id', '=', projectId),
        ...scopeConditions(visible, { project: 'project_queue.project_id', queue: 'project_queue.id' }),
      ]),
    )
  if (queueId !== undefined) q = q.where('id', '=', queueId)
  return q.orderBy('sort').orderBy('id').execute()
}

/** The centers the scope lets the caller see (one of them when `centerId` names it), in order, with their directory entry. */
export function centersOf(db: Q, projectId: number, scope: ListScope, centerId?: number) {
  const visible: ListScope = scope.kind === 'project' ? { ...scope, queueIds: null } : scope
  let q = db
    .selectFrom('project_center as pc')
    .innerJoin('center as c', 'c.id', 'pc.center_id')
    .select(['c.id', 'c.code', 'c.name_zh', 'c.name_en', 'c.region', 'pc.sort'])
    .where((eb) =>
      eb.and([eb('pc.project_id', '=', projectId), ...scopeConditions(visible, { project: 'pc.project_id', center: 'pc.center_id' })]),
    )
  if (centerId !== undefined) q = q.where('pc.center_id', '=', centerId)
  return q.orderBy('pc.sort').orderBy('c.id').execute()
}

/** Subjects by queue and by center, counting only those inside the scope (a member of center A never counts B's). */
export async function subjectCountsOf(db: Q, projectId: number, scope: ListScope) {
  const rows = await db
    .selectFrom('subject')
    .select(['queue_id', 'center_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where((eb) =>
      eb.and([
        eb('project_id', '=', projectId),
        ...scopeConditions(scope, { project: 'subject.project_id', queue: 'subject.queue_id', center: 'subject.center_id' }),
      ]),
    )
    .groupBy(['queue_id', 'center_id'])
    .execute()
  const byQueue = new Map<number, number>()
  const byCenter = new Map<number, number>()
  for (const r of rows) {
    byQueue.set(r.queue_id, (byQueue.get(r.queue_id) ?? 0) + Number(r.n))
    byCenter.set(r.center_id, (byCenter.get(r.center_id) ?? 0) + Number(r.n))
  }
  return { byQueue, byCenter }
}

/** The pinned forms with their template and the newest published version of each. */
export function formsOf(db: Q, projectId: number) {
  return db
    .selectFrom('project_form as f')
    .innerJoin('template as t', 't.id', 'f.template_id')
    .innerJoin('template_version as v', 'v.id', 'f.version_id')
    .select((eb) => [
      'f.template_id',
      't.kind',
      't.name',
      't.collect_type',
      'f.version_id',
      'v.version',
      'f.sort',
      eb
        .selectFrom('template_version as l')
        .select('l.id')
        .whereRef('l.template_id', '=', 'f.template_id')
        .where('l.state', '=', 'published')
        .orderBy('l.version', 'desc')
        .limit(1)
        .as('latest_id'),
      eb
        .selectFrom('template_version as l')
        .select('l.version')
        .whereRef('l.template_id', '=', 'f.template_id')
        .where('l.state', '=', 'published')
        .orderBy('l.version', 'desc')
        .limit(1)
        .as('latest_version'),
    ])
    .where('f.project_id', '=', projectId)
    .orderBy('f.sort')
    .orderBy('f.template_id')
    .execute()
}

// ---------------------------------------------------------------------------------------------
// History

/** The project's own audit rows (not its subjects' and samples'), oldest first. */
export function projectHistoryRows(db: Q, projectId: number) {
  return db
    .selectFrom('audit_log')
    .select(['id', 'at', 'username', 'action', 'outcome', 'detail'])
    .where('object_type', '=', 'project')
    .where('object_id', '=', projectId)
    .where('action', 'in', projectHistoryActions)
    .orderBy('at')
    .orderBy('id')
    .execute()
}
