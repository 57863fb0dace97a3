import {
  projectAuthorities,
  type HistoryEntry,
  type MembershipView,
  type OpenProject,
  type ProjectBaseInput,
  type ProjectCreateInput,
  type ProjectDetail,
  type ProjectListQuery,
  type ProjectPage,
  type ProjectRow,
  type ProjectStatus,
} from '../../contract/projects.ts'
import { isUniqueViolation } from '../db/errors.ts'
import type { Q } from '../db/query.ts'
import * as repo from '../db/repositories/projects.ts'
import type { Project } from '../db/tables/project.ts'
import { message, type Lang, type MessageKey } from '../i18n/messages.ts'
import { planOf } from '../db/repositories/randomization.ts'
import { withMemberships, type Actor as Viewer } from './actor.ts'
import { audit, type Actor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { decodeKeyCursor, encodeCursor } from './keysetCursor.ts'
import { holds, listScope, membershipOf, projectScope } from './policy.ts'
import { checkBase, checkCenters, checkPins, checkQueueKeys } from './projectRules.ts'

/**
 * Research projects (issue 9): the list, open projects, the wizard's create, the detail, the
 * base tab, the audit flow (draft → auditing → active, or back to draft with a reason; active →
 * closed) and deletion. Every write is one transaction with its audit row under the object
 * { type: 'project', id }, which is what the detail screen's history reads.
 */

/** The creator's role (contract: shown bilingually by the client from `builtin === 'manager'`). */
const managerRoleName = '项目管理员'

/**
 * A refusal whose parameters are themselves messages (a status, the missing parts), rendered in
 * the caller's language.
 */
class ProjectRefusal extends ServiceError {
  constructor(
    kind: 'badRequest' | 'conflict',
    key: MessageKey,
    readonly parts: readonly MessageKey[],
  ) {
    super(kind, key, parts)
  }

  override describe(lang: Lang): string {
    return message(lang, this.key, [this.parts.map((p) => message(lang, p)).join(lang === 'zh' ? '、' : ', ')])
  }
}

const statusKey = (s: string) => `core.status.${s as ProjectStatus}` satisfies MessageKey

const notFound = (id: number) => new ServiceError('notFound', 'project.notFound', [id])

// ---------------------------------------------------------------------------------------------
// Reading

function toRow(r: Project, names: repo.ProjectNames, counts: ReadonlyMap<number, number>): ProjectRow {
  const disease = r.disease_id === null ? undefined : names.diseases.get(r.disease_id)
  return {
    id: r.id,
    scope: r.scope as ProjectRow['scope'],
    type: r.type as ProjectRow['type'],
    name: r.name,
    number: r.number,
    testStage: r.test_stage as ProjectRow['testStage'],
    diseaseId: r.disease_id,
    diseaseName: disease?.name ?? null,
    diseaseNameEn: disease?.name_en ?? null,
    status: r.status as ProjectStatus,
    randomMethod: r.random_method as ProjectRow['randomMethod'],
    blinded: r.blinded as ProjectRow['blinded'],
    plannedQuantity: r.planned_quantity,
    subjectCount: counts.get(r.id) ?? r.subject_count,
    creatorName: r.creator_id === null ? null : (names.creators.get(r.creator_id) ?? null),
    myRole: names.roles.get(r.id) ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}

/**
 * Research objects as the viewer may count them: a member whose project role is limited to some
 * queues or centers counts only theirs; everyone else reads the project's stored total.
 */
async function visibleCounts(db: Q, viewer: Viewer, rows: readonly Project[]): Promise<Map<number, number>> {
  const out = new Map<number, number>()
  for (const r of rows) {
    const m = membershipOf(viewer, r.id)
    if (viewer.superuser || !m || (m.queueIds === null && m.centerIds === null)) continue
    const { byQueue } = await repo.subjectCountsOf(db, r.id, projectScope(viewer, 'project.read', r.id))
    out.set(
      r.id,
      [...byQueue.values()].reduce((sum, n) => sum + n, 0),
    )
  }
  return out
}

/** One keyset page of the projects the caller may see (members; auditors also the submitted ones; administrators all). */
export async function listProjects(ctx: ServiceContext, viewer: Viewer, q: ProjectListQuery): Promise<ProjectPage> {
  const visible = listScope(viewer, 'project.list')
  const filter: repo.ProjectFilter = {
    type: q.type,
    testStage: q.testStage,
    diseaseId: q.diseaseId,
    status: q.status,
    randomMethod: q.randomMethod,
    q: q.q === '' ? undefined : q.q,
  }
  const sort = repo.projectSortColumns[q.sort]
  const after = q.after === undefined ? null : decodeKeyCursor(q.after, sort === 'subject_count')
  // One row more than asked tells whether a next page exists.
  const rows = await repo
    .projectPageQuery(ctx.db, { scope: q.scope, filter, visible, sort, order: q.order, after, limit: q.limit + 1 })
    .execute()
  const more = rows.length > q.limit
  const page = more ? rows.slice(0, q.limit) : rows
  const [names, total, counts] = await Promise.all([
    repo.namesOfProjects(ctx.db, page, viewer.user.id),
    repo.countProjects(ctx.db, q.scope, filter, visible),
    visibleCounts(ctx.db, viewer, page),
  ])
  const last = page[page.length - 1]
  return { rows: page.map((r) => toRow(r, names, counts)), next: more && last ? encodeCursor(last[sort], last.id) : null, total }
}

/** Active projects the caller is not a member of, with the roles one may wish for (multi-apply). */
export async function listOpenProjects(ctx: ServiceContext, viewer: Viewer, q: string | undefined): Promise<OpenProject[]> {
  const rows = await repo.openProjectRows(ctx.db, viewer.user.id, q === '' ? undefined : q, 200)
  const ids = rows.map((r) => r.id)
  const [roles, pending] = await Promise.all([repo.wishableRoles(ctx.db, ids), repo.pendingApplications(ctx.db, viewer.user.id, ids)])
  return rows.map((r) => ({
    id: r.id,
    scope: r.scope as OpenProject['scope'],
    name: r.name,
    number: r.number,
    diseaseName: r.disease_name,
    diseaseNameEn: r.disease_name_en,
    roles: roles.filter((x) => x.project_id === r.id).map((x) => ({ id: x.id, name: x.name })),
    pendingApplicationId: pending.find((p) => p.project_id === r.id)?.id ?? null,
  }))
}

function membershipView(viewer: Viewer, projectId: number): MembershipView | null {
  const m = membershipOf(viewer, projectId)
  if (!m) return null
  return {
    roleId: m.roleId,
    roleName: m.roleName,
    authorities: projectAuthorities.filter((a) => m.authorities.has(a)),
    blinded: m.blinded,
    queueIds: m.queueIds === null ? null : [...m.queueIds],
    centerIds: m.centerIds === null ? null : [...m.centerIds],
  }
}

/** The project as the viewer may see it: queues, centers and counts within their project role's scope. */
async function detailOf(db: Q, viewer: Viewer, p: Project): Promise<ProjectDetail> {
  const scope = projectScope(viewer, 'project.read', p.id)
  const [names, queues, centers, forms, counts] = await Promise.all([
    repo.namesOfProjects(db, [p], viewer.user.id),
    repo.queuesOf(db, p.id, scope),
    repo.centersOf(db, p.id, scope),
    repo.formsOf(db, p.id),
    repo.subjectCountsOf(db, p.id, scope),
  ])
  const visible = [...counts.byQueue.values()].reduce((sum, n) => sum + n, 0)
  return {
    ...toRow(p, names, new Map([[p.id, visible]])),
    groupNumber: p.group_number,
    manageBiomaterial: p.manage_biomaterial === 1,
    groupType: p.group_type as ProjectDetail['groupType'],
    plannedGroups: p.planned_groups,
    therapyTime: p.therapy_time,
    followUpTime: p.follow_up_time,
    statusReason: p.status_reason,
    queues: queues.map((q) => ({
      id: q.id,
      name: q.name,
      key: q.key,
      entryCondition: q.entry_condition,
      excludeCondition: q.exclude_condition,
      sort: q.sort,
      subjectCount: counts.byQueue.get(q.id) ?? 0,
    })),
    centers: centers.map((c) => ({
      id: c.id,
      code: c.code,
      nameZh: c.name_zh,
      nameEn: c.name_en,
      region: c.region,
      sort: c.sort,
      subjectCount: counts.byCenter.get(c.id) ?? 0,
    })),
    forms: forms.map((f) => {
      const newer = f.latest_id !== null && f.latest_version !== null && f.latest_version > f.version
      return {
        templateId: f.template_id,
        kind: f.kind,
        name: f.name,
        collectType: f.collect_type,
        versionId: f.version_id,
        version: f.version,
        latestVersionId: newer ? f.latest_id : null,
        latestVersion: newer ? f.latest_version : null,
        sort: f.sort,
      }
    }),
    me: membershipView(viewer, p.id),
  }
}

/**
 * The project, if the viewer may see it: members and system administrators always; an auditor
 * who is not a member only once it has been submitted, as the list shows them. Otherwise it
 * does not exist for them.
 */
async function mustSee(db: Q, viewer: Viewer, id: number): Promise<Project> {
  const p = await repo.findProjectById(db, id)
  if (!p) throw notFound(id)
  const seen = viewer.superuser || membershipOf(viewer, id) !== undefined || (holds(viewer, 'project.approve') && p.status !== 'draft')
  if (!seen) throw notFound(id)
  return p
}

export async function getProject(ctx: ServiceContext, viewer: Viewer, id: number): Promise<ProjectDetail> {
  return detailOf(ctx.db, viewer, await mustSee(ctx.db, viewer, id))
}

export async function projectHistory(ctx: ServiceContext, viewer: Viewer, id: number): Promise<HistoryEntry[]> {
  await mustSee(ctx.db, viewer, id)
  return (await repo.projectHistoryRows(ctx.db, id)).map((r) => ({
    id: r.id,
    at: r.at,
    username: r.username,
    action: r.action,
    outcome: r.outcome,
    detail: r.detail,
  }))
}

// ---------------------------------------------------------------------------------------------
// Writes

const object = (id: number) => ({ type: 'project', id })

async function assertNumberFree(db: Q, number: string, exceptId: number | null): Promise<void> {
  if (await repo.numberUsedBy(db, number, exceptId)) throw new ServiceError('conflict', 'project.numberTaken', [number])
}

/** A concurrent writer took the number between our check and our write. */
function numberRace(err: unknown, number: string): unknown {
  return isUniqueViolation(err) ? new ServiceError('conflict', 'project.numberTaken', [number]) : err
}

/**
 * The wizard's save, all or nothing: each part is checked just before it is written inside the
 * one transaction, so any refusal rolls back what was written before it. The creator becomes a
 * member holding the project's manager role.
 */
export async function createProject(ctx: ServiceContext, viewer: Viewer, who: Actor, input: ProjectCreateInput): Promise<ProjectDetail> {
  const now = ctx.now().toISOString()
  let id: number
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      await checkBase(trx, input.base)
      await assertNumberFree(trx, input.base.number, null)
      const projectId = await repo.insertProject(trx, input.scope, input.base, viewer.user.id, now)
      checkQueueKeys(input.queues)
      await repo.insertQueues(trx, projectId, input.queues)
      await checkPins(trx, input.forms)
      await repo.insertForms(trx, projectId, input.forms)
      await checkCenters(trx, input.scope, input.centerIds)
      await repo.insertCenters(trx, projectId, input.centerIds)
      const roleId = await repo.insertManagerRole(trx, projectId, managerRoleName, projectAuthorities, now)
      await repo.insertMember(trx, projectId, viewer.user.id, roleId, now)
      await audit(
        trx,
        who,
        'project.create',
        'ok',
        ctx.now(),
        {
          id: projectId,
          scope: input.scope,
          name: input.base.name,
          number: input.base.number,
          queues: input.queues.length,
          forms: input.forms.length,
          centers: input.centerIds.length,
        },
        object(projectId),
      )
      return projectId
    })
  } catch (err) {
    throw numberRace(err, input.base.number)
  }
  const withMe = await withMemberships(ctx.db, viewer)
  return detailOf(ctx.db, withMe, (await repo.findProjectById(ctx.db, id))!)
}

/** Runs `act` on the locked project inside one transaction, then answers the detail. */
async function change(ctx: ServiceContext, viewer: Viewer, id: number, act: (trx: Q, p: Project) => Promise<void>): Promise<ProjectDetail> {
  await ctx.db.transaction().execute(async (trx) => {
    const p = await repo.lockProject(trx, id)
    if (!p) throw notFound(id)
    await act(trx, p)
  })
  return detailOf(ctx.db, viewer, (await repo.findProjectById(ctx.db, id))!)
}

function expectStatus(p: Project, ...allowed: ProjectStatus[]): void {
  if (!(allowed as string[]).includes(p.status)) throw new ProjectRefusal('conflict', 'project.badStatus', [statusKey(p.status)])
}

/** The base tab. The number stays unique whatever its case; a closed project no longer changes. */
export async function updateProjectBase(ctx: ServiceContext, viewer: Viewer, who: Actor, id: number, base: ProjectBaseInput) {
  try {
    return await change(ctx, viewer, id, async (trx, p) => {
      if (p.status === 'closed') throw new ServiceError('conflict', 'project.closed')
      await checkBase(trx, base)
      await assertNumberFree(trx, base.number, id)
      // Once a plan is saved, the config tab sets the method with its groups and blocks.
      if (base.randomMethod !== p.random_method && (await planOf(trx, id))) {
        throw new ServiceError('conflict', 'project.randomMethodInPlan')
      }
      await repo.updateProjectBaseRow(trx, id, base, ctx.now().toISOString())
      const changed = Object.entries(repo.projectBaseValues(base))
        .filter(([k, v]) => p[k as keyof Project] !== v)
        .map(([k]) => k)
      await audit(trx, who, 'project.update', 'ok', ctx.now(), { id, changed }, object(id))
    })
  } catch (err) {
    throw numberRace(err, base.number)
  }
}

/** A transition of the audit flow: from one of `from` to `to`, with the reason it keeps (empty clears the last one). */
async function transition(
  ctx: ServiceContext,
  viewer: Viewer,
  who: Actor,
  id: number,
  action: string,
  from: ProjectStatus[],
  to: ProjectStatus,
  reason: string,
  ready?: (trx: Q, p: Project) => Promise<void>,
): Promise<ProjectDetail> {
  return change(ctx, viewer, id, async (trx, p) => {
    expectStatus(p, ...from)
    await ready?.(trx, p)
    await repo.setProjectStatus(trx, id, to, reason, ctx.now().toISOString())
    await audit(trx, who, action, 'ok', ctx.now(), { id, from: p.status, to, ...(reason ? { reason } : {}) }, object(id))
  })
}

/** Draft → auditing, once it has a queue and, when multi-center, a center. */
export function submitProject(ctx: ServiceContext, viewer: Viewer, who: Actor, id: number) {
  return transition(ctx, viewer, who, id, 'project.submit', ['draft'], 'auditing', '', async (trx, p) => {
    const missing: MessageKey[] = []
    if ((await repo.countQueues(trx, id)) === 0) missing.push('core.needQueue')
    if (p.scope === 'multi' && (await repo.countCenters(trx, id)) === 0) missing.push('core.needCenter')
    if (missing.length > 0) throw new ProjectRefusal('badRequest', 'project.notReady', missing)
  })
}

/** Auditing → active: subjects may be enrolled from now on. */
export function passProject(ctx: ServiceContext, viewer: Viewer, who: Actor, id: number) {
  return transition(ctx, viewer, who, id, 'project.pass', ['auditing'], 'active', '')
}

/** Auditing → draft, with the reason the detail screen shows. */
export function unpassProject(ctx: ServiceContext, viewer: Viewer, who: Actor, id: number, reason: string) {
  if (reason.trim() === '') throw new ServiceError('badRequest', 'project.reasonRequired')
  return transition(ctx, viewer, who, id, 'project.unpass', ['auditing'], 'draft', reason.trim())
}

/** Active → closed: what a project with subjects ends as, since it cannot be deleted. */
export function closeProject(ctx: ServiceContext, viewer: Viewer, who: Actor, id: number, reason: string) {
  return transition(ctx, viewer, who, id, 'project.close', ['active'], 'closed', reason.trim())
}

/** Refused while any subject exists (close it instead); otherwise every row of the project goes. */
export async function deleteProject(ctx: ServiceContext, who: Actor, id: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const p = await repo.lockProject(trx, id)
    if (!p) throw notFound(id)
    const subjects = await repo.countSubjects(trx, id)
    if (subjects > 0) throw new ServiceError('conflict', 'project.hasSubjects', [subjects])
    await repo.deleteProjectRows(trx, id)
    await audit(trx, who, 'project.delete', 'ok', ctx.now(), { id, name: p.name, number: p.number }, object(id))
  })
}
