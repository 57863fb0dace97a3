import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import {
  planFactor,
  planRules,
  randomizationLimits,
  type AllocationListQuery,
  type AllocationPage,
  type FullPlan,
  type PlanFactor,
  type PlanInput,
  type PlanView,
} from '../../../contract/randomization.ts'
import { randomMethods, type RandomMethod } from '../../../contract/projects.ts'
import { choice } from '../../../contract/dictionary.ts'
import type { Q } from '../../db/query.ts'
import * as repo from '../../db/repositories/randomization.ts'
import type { Project, RandomizationPlan } from '../../db/tables/project.ts'
import { findProjectById, lockProject } from '../../db/repositories/projects.ts'
import type { Actor } from '../actor.ts'
import { audit, type Actor as AuditActor } from '../audit.ts'
import type { ServiceContext } from '../context.ts'
import { ServiceError } from '../errors.ts'
import { decodeCursor, encodeCursor } from '../keysetCursor.ts'
import { can, membershipOf, projectScope } from '../policy.ts'
import { generateStratum, maxEntriesPerStratum, strataOf, type StratumCell } from './generate.ts'

/**
 * The randomization plan of a project (config tab) and its allocation list. The list is made
 * from the stored seed by the pure generator, so it can be made again and checked; once a subject
 * holds an entry, neither the plan nor the list changes. Only those who may set the project up
 * read the plan whole and the list; the others learn the method and what enrolment asks.
 */

const factorsColumn = z.array(planFactor)
const sizesColumn = z.array(z.number().int())
const methodOf = (s: string): RandomMethod => z.enum(randomMethods).catch('none').parse(s)

async function mustFindProject(db: Q, projectId: number): Promise<Project> {
  const p = await findProjectById(db, projectId)
  if (!p) throw new ServiceError('notFound', 'project.notFound', [projectId])
  return p
}

/** The strata of a saved plan: none without randomization, one ('') for simple randomization. */
async function strataOfPlan(db: Q, projectId: number, plan: RandomizationPlan): Promise<StratumCell[]> {
  const method = methodOf(plan.method)
  if (method === 'none') return []
  if (method === 'simple') return [{ key: '', centerId: null, values: [] }]
  const factors = factorsColumn.parse(JSON.parse(plan.factors))
  return strataOf({
    centerIds: plan.strata_by_center === 1 ? await repo.centerIdsOf(db, projectId) : null,
    factors: factors.map((f) => ({ indicatorId: f.indicatorId, code: f.code, choices: f.choices.map((c) => c.code) })),
  })
}

const isBlinded = (actor: Actor, projectId: number) => !actor.superuser && membershipOf(actor, projectId)?.blinded === true

/** How much of the plan the actor reads: whole only where they may change it (and are not blinded). */
function accessOf(actor: Actor, projectId: number): PlanView['access'] {
  if (isBlinded(actor, projectId)) return 'blinded'
  return can(actor, 'project.randomizationUpdate', { type: 'project', id: projectId }) ? 'full' : 'concealed'
}

async function fullView(db: Q, project: Project): Promise<FullPlan> {
  const plan = await repo.planOf(db, project.id)
  if (!plan) {
    return {
      access: 'full',
      method: methodOf(project.random_method),
      groups: [],
      blockSizes: [],
      strataByCenter: false,
      factors: [],
      seed: '',
      listSize: null,
      generatedAt: null,
      strata: [],
      allocated: 0,
      saved: false,
    }
  }
  const counts = new Map((await repo.stratumCounts(db, project.id)).map((c) => [c.stratum, c]))
  const cells = await strataOfPlan(db, project.id, plan)
  const strata = cells.map((c) => ({ ...c, entries: counts.get(c.key)?.entries ?? 0, allocated: counts.get(c.key)?.allocated ?? 0 }))
  // Entries of strata the plan no longer has (a center removed since) still count.
  const known = new Set(cells.map((c) => c.key))
  for (const c of counts.values()) {
    if (!known.has(c.stratum)) strata.push({ key: c.stratum, centerId: null, values: [], entries: c.entries, allocated: c.allocated })
  }
  return {
    access: 'full',
    method: methodOf(plan.method),
    groups: (await repo.groupsOf(db, project.id)).map((g) => ({ id: g.id, code: g.code, name: g.name, ratio: g.ratio })),
    blockSizes: sizesColumn.parse(JSON.parse(plan.block_sizes)),
    strataByCenter: plan.strata_by_center === 1,
    factors: factorsColumn.parse(JSON.parse(plan.factors)),
    seed: plan.seed,
    listSize: plan.list_size > 0 ? plan.list_size : null,
    generatedAt: plan.generated_at,
    strata,
    allocated: strata.reduce((n, s) => n + s.allocated, 0),
    saved: true,
  }
}

export async function getPlan(ctx: ServiceContext, actor: Actor, projectId: number): Promise<PlanView> {
  const project = await mustFindProject(ctx.db, projectId)
  const access = accessOf(actor, projectId)
  if (access !== 'full') {
    const plan = await repo.planOf(ctx.db, project.id)
    return {
      access,
      method: methodOf(plan?.method ?? project.random_method),
      factors: plan ? factorsColumn.parse(JSON.parse(plan.factors)) : [],
      listReady: (plan?.generated_at ?? null) !== null,
    }
  }
  return fullView(ctx.db, project)
}

/** The plan may change while no subject holds an entry and the project is open. */
async function checkWritable(db: Q, project: Project): Promise<void> {
  if (project.status === 'closed') throw new ServiceError('conflict', 'project.closed')
  const used = await repo.allocatedCount(db, project.id)
  if (used > 0) throw new ServiceError('conflict', 'randomization.used', [used])
}

/** The factors as the plan keeps them: single choice indicators with their choices now. */
async function factorsOf(db: Q, ids: readonly number[]): Promise<PlanFactor[]> {
  const rows = new Map((await repo.indicatorsByIds(db, ids)).map((r) => [r.id, r]))
  return ids.map((id) => {
    const r = rows.get(id)
    if (!r) throw new ServiceError('badRequest', 'randomization.factorMissing', [id])
    const choices = z.array(choice).catch([]).parse(JSON.parse(r.options))
    if (r.type !== 'single' || choices.length === 0) throw new ServiceError('badRequest', 'randomization.factorNotChoice', [r.code])
    return { indicatorId: r.id, code: r.code, nameZh: r.name_zh, nameEn: r.name_en, choices }
  })
}

/** Replaces the plan (dropping a generated list, which it no longer describes). */
export async function savePlan(ctx: ServiceContext, actor: AuditActor, projectId: number, input: PlanInput): Promise<PlanView> {
  const [broken] = planRules(input)
  if (broken) throw new ServiceError('badRequest', broken.key, broken.params)
  return ctx.db.transaction().execute(async (trx) => {
    await lockProject(trx, projectId)
    const project = await mustFindProject(trx, projectId)
    await checkWritable(trx, project)
    if (project.group_type === 'single' && input.method !== 'none') throw new ServiceError('badRequest', 'project.rule.oneArmRandom')
    const stratified = input.method === 'stratified'
    const factors = stratified ? await factorsOf(trx, input.factorIds) : []
    const before = await repo.planOf(trx, projectId)
    const seed = input.seed || before?.seed || randomBytes(12).toString('base64url')
    const groups = input.method === 'none' ? [] : input.groups
    await repo.replacePlan(
      trx,
      projectId,
      {
        method: input.method,
        seed,
        block_sizes: JSON.stringify(stratified ? input.blockSizes : []),
        strata_by_center: stratified && input.strataByCenter ? 1 : 0,
        factors: JSON.stringify(factors),
        list_size: input.listSize ?? 0,
      },
      groups,
      ctx.now().toISOString(),
    )
    // Neither group names nor the seed, nor the block sizes (with them the last entries of a
    // block can be foreseen): every member reads the project's history.
    const detail = {
      id: projectId,
      method: input.method,
      ratios: groups.map((g) => g.ratio),
      strataByCenter: stratified && input.strataByCenter,
      factors: factors.map((f) => f.code),
      listSize: input.listSize,
      seedChanged: before !== undefined && before.seed !== seed,
      listDropped: before?.generated_at != null,
    }
    await audit(trx, actor, 'project.randomizationPlan', 'ok', ctx.now(), detail, { type: 'project', id: projectId })
    return fullView(trx, project)
  })
}

/** (Re)generates the whole list from the stored seed. */
export async function generateList(ctx: ServiceContext, actor: AuditActor, projectId: number): Promise<PlanView> {
  return ctx.db.transaction().execute(async (trx) => {
    await lockProject(trx, projectId)
    const project = await mustFindProject(trx, projectId)
    await checkWritable(trx, project)
    const plan = await repo.planOf(trx, projectId)
    if (!plan) throw new ServiceError('badRequest', 'randomization.noPlan')
    const method = methodOf(plan.method)
    if (method === 'none') throw new ServiceError('badRequest', 'randomization.noMethod')
    const strata = await strataOfPlan(trx, projectId, plan)
    if (strata.length === 0) throw new ServiceError('badRequest', 'randomization.noCenters')
    const groups = await repo.groupsOf(trx, projectId)
    const listPlan = {
      method,
      ratios: groups.map((g) => g.ratio),
      blockSizes: sizesColumn.parse(JSON.parse(plan.block_sizes)),
      listSize: plan.list_size > 0 ? plan.list_size : project.planned_quantity,
      seed: plan.seed,
    }
    const most = strata.length * maxEntriesPerStratum(listPlan)
    if (most > randomizationLimits.entries)
      throw new ServiceError('badRequest', 'randomization.tooLarge', [most, randomizationLimits.entries])
    const entries = strata.flatMap((s) =>
      generateStratum(s.key, listPlan).map((e) => ({
        stratum: e.stratum,
        seq: e.seq,
        block: e.block,
        block_size: e.blockSize,
        group_id: (groups[e.group] as { id: number }).id,
      })),
    )
    await repo.replaceList(trx, projectId, entries, ctx.now().toISOString())
    const detail = { id: projectId, method, strata: strata.length, entries: entries.length, regenerated: plan.generated_at !== null }
    await audit(trx, actor, 'project.randomizationGenerate', 'ok', ctx.now(), detail, { type: 'project', id: projectId })
    return fullView(trx, project)
  })
}

export async function listAllocations(
  ctx: ServiceContext,
  actor: Actor,
  projectId: number,
  q: AllocationListQuery,
): Promise<AllocationPage> {
  await mustFindProject(ctx.db, projectId)
  const access = accessOf(actor, projectId)
  if (access !== 'full') throw new ServiceError('forbidden', access === 'blinded' ? 'randomization.blinded' : 'randomization.concealed')
  const rows = await repo.allocationPageRows(ctx.db, {
    projectId,
    stratum: q.stratum,
    after: q.after === undefined ? null : decodeCursor(q.after),
    limit: q.limit + 1,
  })
  const page = rows.slice(0, q.limit)
  const last = page.at(-1)
  // Who took an entry is told only for subjects within the caller's centers and queues.
  const scope = projectScope(actor, 'project.randomizationUpdate', projectId)
  const within = (ids: readonly number[] | null, id: number | null) => ids === null || (id !== null && ids.includes(id))
  const seen = (r: (typeof rows)[number]) =>
    scope.kind === 'project' && within(scope.centerIds, r.center_id) && within(scope.queueIds, r.queue_id)
  return {
    rows: page.map((r) => ({
      id: r.id,
      stratum: r.stratum,
      seq: r.seq,
      block: r.block,
      blockSize: r.block_size,
      groupCode: r.group_code,
      groupName: r.group_name,
      subjectId: seen(r) ? r.subject_id : null,
      subjectNo: seen(r) ? r.subject_no : null,
      allocatedAt: r.allocated_at,
    })),
    next: rows.length > q.limit && last ? encodeCursor(last.stratum, last.seq) : null,
    total: await repo.allocationTotal(ctx.db, projectId, q.stratum),
  }
}

/**
 * The stratum key of a subject at enrolment (issue 10): its center and its answers to the
 * plan's factors. '' for simple randomization.
 */
export async function subjectStratum(db: Q, projectId: number, centerId: number, answers: ReadonlyMap<number, string>): Promise<string> {
  const plan = await repo.planOf(db, projectId)
  if (!plan || methodOf(plan.method) !== 'stratified') return ''
  const cells = await strataOfPlan(db, projectId, plan)
  const cell = cells.find(
    (c) => (c.centerId === null || c.centerId === centerId) && c.values.every((v) => answers.get(v.indicatorId) === v.code),
  )
  if (!cell) throw new ServiceError('conflict', 'randomization.noEntry', [`c${centerId}`])
  return cell.key
}

/**
 * Gives the subject the next free entry of its stratum, inside the caller's transaction (the
 * enrolment of issue 10). Two enrolments racing for one entry: the conditional update lets one
 * win and the other takes the next.
 */
export async function allocateNext(
  tx: Q,
  projectId: number,
  stratum: string,
  subjectId: number,
  now: Date,
): Promise<{ allocationId: number; groupId: number }> {
  for (;;) {
    const entry = await repo.nextFreeEntry(tx, projectId, stratum)
    if (!entry) throw new ServiceError('conflict', 'randomization.noEntry', [stratum])
    if (await repo.takeEntry(tx, entry.id, subjectId, now.toISOString())) return { allocationId: entry.id, groupId: entry.group_id }
  }
}
