import { projectLimits, type FormPin, type Queue, type QueueInput } from '../../contract/projects.ts'
import { isUniqueViolation } from '../db/errors.ts'
import type { Q } from '../db/query.ts'
import { versionsByIds } from '../db/repositories/projectRefs.ts'
import { countQueues, findProjectById, queuesOf } from '../db/repositories/projects.ts'
import {
  countSubjectsInQueue,
  deleteQueueRow,
  findQueueByKey,
  findQueueWithCount,
  insertQueue,
  listCentersOf,
  pinsOf,
  replaceProjectCenters,
  replaceProjectForms,
  usesOfPins,
  setPinVersion,
  touchProject,
  updateQueueRow,
  type QueueWithCount,
} from '../db/repositories/projectSetup.ts'
import type { Project, ProjectQueue } from '../db/tables/project.ts'
import type { Actor } from './actor.ts'
import { audit, type Actor as AuditActor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { message, type Lang, type MessageKey } from '../i18n/messages.ts'
import { projectScope } from './policy.ts'
import { checkCenters, checkPins } from './projectRules.ts'

/**
 * The edit tabs that set one part of a project (SPEC §2 multi-edit: queue, index, center). Each
 * write is one transaction, refused on a closed project, bumps the project's updated_at and is
 * audited on the project, so its history shows it.
 */

const object = (id: number) => ({ type: 'project', id })

/**
 * The project to change, with its updated_at bumped first: the update locks the row (PostgreSQL),
 * so writes to one project's parts, and its close, run one after the other and each check sees
 * the last one's result (two deletes of the last two queues, two keys differing in case).
 */
async function writable(db: Q, id: number, now: Date): Promise<Project> {
  await touchProject(db, id, now.toISOString())
  const p = await findProjectById(db, id)
  if (!p) throw new ServiceError('notFound', 'project.notFound', [id])
  if (p.status === 'closed') throw new ServiceError('conflict', 'project.closed')
  return p
}

function toQueue(r: QueueWithCount): Queue {
  return {
    id: r.id,
    name: r.name,
    key: r.key,
    entryCondition: r.entry_condition,
    excludeCondition: r.exclude_condition,
    sort: r.sort,
    subjectCount: r.subject_count,
  }
}

// --- Queues ----------------------------------------------------------------------------------

async function assertKeyFree(db: Q, projectId: number, key: string, selfId: number | null): Promise<void> {
  const same = await findQueueByKey(db, projectId, key)
  if (same && same.id !== selfId) throw new ServiceError('conflict', 'queue.keyTaken', [key])
}

/** A concurrent writer took the key between our check and our write (PostgreSQL). */
function keyTaken(err: unknown, key: string): never {
  if (isUniqueViolation(err)) throw new ServiceError('conflict', 'queue.keyTaken', [key])
  throw err
}

/**
 * The queue a call changes, within the caller's queues: one outside them answers 404 like an
 * unknown queue, so a member limited to some queues learns nothing of the others.
 */
async function ownQueue(db: Q, actor: Actor, projectId: number, queueId: number): Promise<ProjectQueue> {
  const [self] = await queuesOf(db, projectId, projectScope(actor, 'project.update', projectId), queueId)
  if (!self) throw new ServiceError('notFound', 'queue.notFound', [queueId])
  return self
}

async function queueView(db: Q, actor: Actor, projectId: number, queueId: number): Promise<Queue> {
  const row = await findQueueWithCount(db, projectId, queueId, projectScope(actor, 'project.update', projectId))
  if (!row) throw new ServiceError('notFound', 'queue.notFound', [queueId])
  return toQueue(row)
}

export async function addQueue(ctx: ServiceContext, viewer: Actor, actor: AuditActor, projectId: number, q: QueueInput): Promise<Queue> {
  // A new queue lies outside a role limited to chosen queues: its member could not even see it.
  const scope = projectScope(viewer, 'project.update', projectId)
  if (scope.kind !== 'project' || scope.queueIds !== null) throw new ServiceError('forbidden', 'queue.addLimited')
  const now = ctx.now()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await writable(trx, projectId, now)
      // Roles list queues up to the same limit (contract projectRoleInput).
      if ((await countQueues(trx, projectId)) >= projectLimits.queues) {
        throw new ServiceError('conflict', 'setup.queueLimit', [projectLimits.queues])
      }
      await assertKeyFree(trx, projectId, q.key, null)
      const queueId = await insertQueue(trx, projectId, q)
      await audit(trx, actor, 'project.queue.create', 'ok', now, { projectId, queueId, name: q.name, key: q.key }, object(projectId))
      return queueView(trx, viewer, projectId, queueId)
    })
  } catch (err) {
    return keyTaken(err, q.key)
  }
}

export async function updateQueue(
  ctx: ServiceContext,
  viewer: Actor,
  actor: AuditActor,
  projectId: number,
  queueId: number,
  q: QueueInput,
): Promise<Queue> {
  const now = ctx.now()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await writable(trx, projectId, now)
      const self = await ownQueue(trx, viewer, projectId, queueId)
      await assertKeyFree(trx, projectId, q.key, queueId)
      await updateQueueRow(trx, queueId, q)
      const was = { name: self.name, key: self.key, entryCondition: self.entry_condition, excludeCondition: self.exclude_condition }
      const changed = Object.fromEntries(Object.entries(was).filter(([k, v]) => q[k as keyof QueueInput] !== v))
      await audit(
        trx,
        actor,
        'project.queue.update',
        'ok',
        now,
        { projectId, queueId, name: q.name, key: q.key, was: changed },
        object(projectId),
      )
      return queueView(trx, viewer, projectId, queueId)
    })
  } catch (err) {
    return keyTaken(err, q.key)
  }
}

/** SPEC §8: refused while research objects are in the queue; a project keeps at least one queue. */
export async function deleteQueue(
  ctx: ServiceContext,
  viewer: Actor,
  actor: AuditActor,
  projectId: number,
  queueId: number,
): Promise<void> {
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    await writable(trx, projectId, now)
    const self = await ownQueue(trx, viewer, projectId, queueId)
    if ((await countSubjectsInQueue(trx, queueId)) > 0) throw new ServiceError('conflict', 'queue.hasSubjects')
    if ((await countQueues(trx, projectId)) <= 1) throw new ServiceError('conflict', 'queue.last')
    await deleteQueueRow(trx, queueId)
    await audit(trx, actor, 'project.queue.delete', 'ok', now, { projectId, queueId, name: self.name, key: self.key }, object(projectId))
  })
}

// --- Centers ---------------------------------------------------------------------------------

/** A refusal naming a center by its name in the caller's language (the Chinese one when it has no English one). */
class CenterRefusal extends ServiceError {
  constructor(
    key: MessageKey,
    readonly nameZh: string,
    readonly nameEn: string,
  ) {
    super('conflict', key, [nameZh])
  }

  override describe(lang: Lang): string {
    return message(lang, this.key, [lang === 'en' && this.nameEn !== '' ? this.nameEn : this.nameZh])
  }
}

/**
 * Replaces the project's centers with `centerIds` (in that order), from the directory only; a
 * single-center project has at most one. A center with research objects of the project stays.
 */
export async function setProjectCenters(
  ctx: ServiceContext,
  viewer: Actor,
  actor: AuditActor,
  projectId: number,
  centerIds: readonly number[],
): Promise<void> {
  // The list is the whole project's: a role limited to some centers would drop or add ones it cannot see.
  const scope = projectScope(viewer, 'project.update', projectId)
  if (scope.kind !== 'project' || scope.centerIds !== null) throw new ServiceError('forbidden', 'center.changeLimited')
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    const project = await writable(trx, projectId, now)
    await checkCenters(trx, project.scope === 'single' ? 'single' : 'multi', centerIds)
    const current = await listCentersOf(trx, projectId, { kind: 'all' })
    const removed = current.filter((c) => !centerIds.includes(c.id))
    const busy = removed.find((c) => c.subject_count > 0)
    if (busy) throw new CenterRefusal('center.hasSubjects', busy.name_zh, busy.name_en)
    await replaceProjectCenters(trx, projectId, centerIds)
    const before = new Set(current.map((c) => c.id))
    await audit(
      trx,
      actor,
      'project.centers',
      'ok',
      now,
      { projectId, centerIds: [...centerIds], added: centerIds.filter((id) => !before.has(id)), removed: removed.map((c) => c.id) },
      object(projectId),
    )
  })
}

// --- Pinned forms ----------------------------------------------------------------------------

/**
 * Adds, removes and reorders the pinned CRFs and question groups. A pin already held keeps its
 * version: it moves only by `upgradeProjectForm`, which is logged with both versions.
 */
export async function setProjectForms(ctx: ServiceContext, actor: AuditActor, projectId: number, forms: readonly FormPin[]): Promise<void> {
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    await writable(trx, projectId, now)
    const current = new Map((await pinsOf(trx, projectId)).map((p) => [p.template_id, p.version_id]))
    const moved = forms.find((p) => current.has(p.templateId) && current.get(p.templateId) !== p.versionId)
    if (moved) throw new ServiceError('badRequest', 'form.pinChange', [moved.templateId])
    await checkPins(trx, forms)
    const added = forms.filter((p) => !current.has(p.templateId))
    const removed = [...current.keys()].filter((t) => !forms.some((p) => p.templateId === t))
    // A visit's CRF or entered data would be left pointing at a form the project no longer has.
    const uses = await usesOfPins(trx, projectId, removed)
    if (uses.visit) throw new ServiceError('conflict', 'form.unpinVisit', [uses.visit.template, uses.visit.visit])
    const held = uses.records[0]
    if (held) throw new ServiceError('conflict', 'form.unpinData', [held.template, Number(held.n)])
    await replaceProjectForms(trx, projectId, forms)
    await audit(trx, actor, 'project.forms', 'ok', now, { projectId, forms: [...forms], added, removed }, object(projectId))
  })
}

/** Moves one pin to a newer published version of the same template. */
export async function upgradeProjectForm(
  ctx: ServiceContext,
  actor: AuditActor,
  projectId: number,
  templateId: number,
  versionId: number,
): Promise<void> {
  const now = ctx.now()
  await ctx.db.transaction().execute(async (trx) => {
    await writable(trx, projectId, now)
    const pin = (await pinsOf(trx, projectId)).find((p) => p.template_id === templateId)
    if (!pin) throw new ServiceError('notFound', 'form.notPinned', [templateId])
    const versions = new Map((await versionsByIds(trx, [pin.version_id, versionId])).map((v) => [v.id, v]))
    const to = versions.get(versionId)
    const from = versions.get(pin.version_id)
    if (!to || to.template_id !== templateId || to.state !== 'published') {
      throw new ServiceError('badRequest', 'form.notPublished', [templateId, versionId])
    }
    if (!from || to.version <= from.version) throw new ServiceError('badRequest', 'form.notNewer', [to.version])
    await setPinVersion(trx, projectId, templateId, versionId)
    await audit(
      trx,
      actor,
      'project.form.upgrade',
      'ok',
      now,
      { projectId, templateId, fromVersionId: from.id, fromVersion: from.version, toVersionId: to.id, toVersion: to.version },
      object(projectId),
    )
  })
}

// --- The detail the tabs answer with -----------------------------------------------------------
