import {
  type Sample,
  type SampleCreate,
  type SampleFields,
  type SampleListQuery,
  type SamplePage,
  type SampleStatusInput,
  type SampleTree,
  type SampleUpdate,
  sampleLimits,
  sampleMay,
} from '../../contract/samples.ts'
import { maxDbInt } from '../../contract/ids.ts'
import { isUniqueViolation } from '../db/errors.ts'
import type { Q } from '../db/query.ts'
import { findProjectById, lockProject } from '../db/repositories/projects.ts'
import * as repo from '../db/repositories/samples.ts'
import type { SampleRow } from '../db/tables/samples.ts'
import type { Actor } from './actor.ts'
import { audit, type Actor as AuditActor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { decodeCursor, encodeCursor } from './keysetCursor.ts'
import { projectScope } from './policy.ts'
import { subjectFor } from './subjectAccess.ts'

/**
 * Samples of research subjects (issue 10 item 9), only in projects that manage biomaterial.
 * Every sample a call names is looked up inside the caller's queue and center scope, so another
 * center's sample is "not found" exactly like an unknown one. Writes need an active project and
 * run in one transaction under the project row lock, like enrolment, so numbers never race.
 */

// ---------------------------------------------------------------------------------------------
// Reading

async function readableProject(db: Q, projectId: number): Promise<void> {
  const project = await findProjectById(db, projectId)
  if (!project) throw new ServiceError('notFound', 'project.notFound', [projectId])
  if (project.manage_biomaterial !== 1) throw new ServiceError('conflict', 'sample.notManaged')
}

async function views(db: Q, projectId: number, rows: readonly SampleRow[]): Promise<Sample[]> {
  const [names, forms] = await Promise.all([repo.namesOfSamples(db, rows), repo.sampleFormsOf(db, projectId)])
  const records = new Map(names.records.map((r) => [`${r.sample_id}:${r.template_id}`, r]))
  return rows.map((r) => ({
    id: r.id,
    sampleNo: r.sample_no,
    subjectId: r.subject_id,
    subjectNo: names.subjects.get(r.subject_id) ?? '',
    centerId: r.center_id,
    centerCode: names.centers.get(r.center_id) ?? '',
    queueId: r.queue_id,
    queueName: names.queues.get(r.queue_id) ?? '',
    parentId: r.parent_id,
    parentNo: r.parent_id === null ? null : (names.parents.get(r.parent_id) ?? null),
    rootId: r.root_id ?? r.id,
    type: r.type as Sample['type'],
    collectedAt: r.collected_at === '' ? null : r.collected_at,
    quantity: r.quantity === null ? null : Number(r.quantity),
    unit: r.unit as Sample['unit'],
    freezer: r.freezer,
    rack: r.rack,
    box: r.box,
    position: r.position,
    status: r.status as Sample['status'],
    remarks: r.remarks,
    aliquots: names.aliquots.get(r.id) ?? 0,
    forms: forms.map((f) => {
      const rec = records.get(`${r.id}:${f.template_id}`)
      return {
        templateId: f.template_id,
        name: f.name,
        recordId: rec?.id ?? null,
        status: rec ? (rec.status === 'signed' ? 'signed' : 'saved') : 'empty',
      }
    }),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }))
}

async function sampleIn(
  db: Q,
  actor: Actor,
  action: 'subject.read' | 'subject.sampleWrite' | 'subject.sampleDelete',
  projectId: number,
  sampleId: number,
) {
  const row = await repo.findSampleInScope(db, projectScope(actor, action, projectId), sampleId)
  if (!row) throw new ServiceError('notFound', 'sample.notFound', [sampleId])
  return row
}

async function viewOf(db: Q, projectId: number, sampleId: number): Promise<Sample> {
  const row = await repo.sampleById(db, sampleId)
  return (await views(db, projectId, [row]))[0]!
}

/** One keyset page of the samples the caller's queues and centers hold. */
export async function listSamples(ctx: ServiceContext, actor: Actor, projectId: number, q: SampleListQuery): Promise<SamplePage> {
  await readableProject(ctx.db, projectId)
  const scope = projectScope(actor, 'subject.list', projectId)
  const filter: repo.SampleFilter = {
    q: q.q === '' ? undefined : q.q,
    subjectId: q.subjectId,
    centerId: q.centerId,
    queueId: q.queueId,
    type: q.type,
    status: q.status,
  }
  const sort = repo.sampleSortColumns[q.sort]
  const after = q.after === undefined ? null : decodeCursor(q.after)
  // One row more than asked tells whether a next page exists.
  const rows = await repo.samplePageQuery(ctx.db, { scope, filter, sort, order: q.order, after, limit: q.limit + 1 }).execute()
  const more = rows.length > q.limit
  const page = more ? rows.slice(0, q.limit) : rows
  const [out, total] = await Promise.all([views(ctx.db, projectId, page), repo.countSamples(ctx.db, scope, filter)])
  const last = page[page.length - 1]
  return { rows: out, next: more && last ? encodeCursor(last[sort], last.id) : null, total }
}

export async function getSample(ctx: ServiceContext, actor: Actor, projectId: number, sampleId: number): Promise<Sample> {
  await readableProject(ctx.db, projectId)
  const row = await sampleIn(ctx.db, actor, 'subject.read', projectId, sampleId)
  return (await views(ctx.db, projectId, [row]))[0]!
}

/** The aliquot tree the sample belongs to, parents before their aliquots, with each one's depth. */
export async function sampleTree(ctx: ServiceContext, actor: Actor, projectId: number, sampleId: number): Promise<SampleTree> {
  await readableProject(ctx.db, projectId)
  const row = await sampleIn(ctx.db, actor, 'subject.read', projectId, sampleId)
  const rows = await repo.treeRows(ctx.db, projectScope(actor, 'subject.read', projectId), row.root_id ?? row.id)
  const samples = await views(ctx.db, projectId, rows)
  const children = new Map<number | null, Sample[]>()
  for (const s of samples) children.set(s.parentId, [...(children.get(s.parentId) ?? []), s])
  const out: SampleTree['rows'] = []
  const walk = (s: Sample, depth: number) => {
    out.push({ ...s, depth })
    for (const c of children.get(s.id) ?? []) walk(c, depth + 1)
  }
  const root = samples.find((s) => s.id === (row.root_id ?? row.id))
  if (root) walk(root, 0)
  return { rows: out }
}

/**
 * For the data-entry service: the sample a sample CRF's slot names (`s<sampleId>`, contract
 * sampleSlot), which must be a sample of that subject; its id goes into form_record.sample_id.
 * The subject has already been looked up inside the caller's scope, and so is its sample.
 */
export async function sampleIdOfSlot(db: Q, subjectId: number, slot: string): Promise<number> {
  const m = /^s([1-9]\d{0,9})$/.exec(slot)
  const id = m ? Number(m[1]) : 0
  const found = id > 0 && id <= maxDbInt ? await repo.sampleOfSubject(db, id, subjectId) : undefined
  if (!found) throw new ServiceError('badRequest', 'sample.slotInvalid', [slot])
  return found.id
}

// ---------------------------------------------------------------------------------------------
// Writing

/** The project locked for a write: it exists, manages biomaterial and is active. */
async function writableProject(tx: Q, projectId: number): Promise<void> {
  const project = await lockProject(tx, projectId)
  if (!project) throw new ServiceError('notFound', 'project.notFound', [projectId])
  if (project.manage_biomaterial !== 1) throw new ServiceError('conflict', 'sample.notManaged')
  if (project.status !== 'active') throw new ServiceError('conflict', 'subject.projectClosed')
}

/**
 * A free generated number: `<base>-S<n>` for a subject's sample, `<base>-<n>` for an aliquot. A
 * long base is shortened, never the suffix: cut from the end, a 50-character parent's number was
 * the parent's own number again for every n, and the search never ended.
 */
async function generatedNo(tx: Q, projectId: number, base: string, aliquot: boolean, n: number): Promise<string> {
  for (let i = n; ; i += 1) {
    const suffix = `-${aliquot ? '' : 'S'}${i}`
    const no = `${base.slice(0, sampleLimits.sampleNo - suffix.length)}${suffix}`
    if ((await repo.sampleNoState(tx, projectId, no, null)) === 'free') return no
  }
}

const located = (f: SampleFields) => ({ freezer: f.freezer, rack: f.rack, box: f.box, position: f.position, remarks: f.remarks })

/**
 * Refuses a number another sample has, or a deleted sample had, or a sample had before a rename:
 * its label may still be on a tube, and the audit trail names it.
 */
async function freeNumber(tx: Q, projectId: number, sampleNo: string, exceptId: number | null): Promise<void> {
  const state = await repo.sampleNoState(tx, projectId, sampleNo, exceptId)
  if (state === 'taken') throw new ServiceError('conflict', 'sample.numberTaken', [sampleNo])
  if (state === 'retired') throw new ServiceError('conflict', 'sample.numberRetired', [sampleNo])
  if (state === 'renamed') throw new ServiceError('conflict', 'sample.numberRenamed', [sampleNo])
}

/** A concurrent writer may take the number between the check and the write (PostgreSQL). */
async function numberGuard<T>(sampleNo: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (err) {
    if (isUniqueViolation(err)) throw new ServiceError('conflict', 'sample.numberTaken', [sampleNo])
    throw err
  }
}

/** The subject a new sample names, by id or by number, inside the caller's scope. */
async function subjectOf(tx: Q, actor: Actor, projectId: number, input: SampleCreate) {
  if (input.subjectId !== undefined) return subjectFor(tx, actor, 'subject.sampleWrite', projectId, input.subjectId)
  const no = input.subjectNo ?? ''
  const subject = await repo.findSubjectByNoInScope(tx, projectScope(actor, 'subject.sampleWrite', projectId), no)
  if (!subject) throw new ServiceError('notFound', 'subject.notFound', [no])
  return subject
}

export async function createSample(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  input: SampleCreate,
): Promise<Sample> {
  const named = [input.subjectId, input.subjectNo, input.parentId].filter((x) => x !== undefined).length
  if (named !== 1) throw new ServiceError('badRequest', 'sample.subjectOrParent')
  const now = ctx.now()
  const at = now.toISOString()
  return numberGuard(input.sampleNo, () =>
    ctx.db.transaction().execute(async (tx) => {
      await writableProject(tx, projectId)
      let owner: { subjectId: number; centerId: number; queueId: number; parentId: number | null; rootId: number | null; type: string }
      let base: string
      if (input.parentId !== undefined) {
        const parent = await sampleIn(tx, actor, 'subject.sampleWrite', projectId, input.parentId)
        if (input.type !== undefined && input.type !== parent.type) throw new ServiceError('badRequest', 'sample.aliquotType')
        if (!sampleMay(parent.status as Sample['status']).aliquot) throw new ServiceError('conflict', 'sample.parentNotAvailable')
        owner = {
          subjectId: parent.subject_id,
          centerId: parent.center_id,
          queueId: parent.queue_id,
          parentId: parent.id,
          rootId: parent.root_id ?? parent.id,
          type: parent.type,
        }
        base = parent.sample_no
      } else {
        const subject = await subjectOf(tx, actor, projectId, input)
        if (input.type === undefined) throw new ServiceError('badRequest', 'field.required', ['type'])
        owner = {
          subjectId: subject.id,
          centerId: subject.center_id,
          queueId: subject.queue_id,
          parentId: null,
          rootId: null,
          type: input.type,
        }
        base = subject.subject_no
      }
      if (input.sampleNo) await freeNumber(tx, projectId, input.sampleNo, null)
      const sampleNo =
        input.sampleNo ||
        (await generatedNo(
          tx,
          projectId,
          base,
          owner.parentId !== null,
          (await repo.countChildrenOf(tx, owner.subjectId, owner.parentId)) + 1,
        ))
      const id = await repo.insertSample(tx, {
        project_id: projectId,
        subject_id: owner.subjectId,
        center_id: owner.centerId,
        queue_id: owner.queueId,
        parent_id: owner.parentId,
        root_id: owner.rootId,
        sample_no: sampleNo,
        type: owner.type,
        collected_at: input.collectedAt ?? '',
        quantity: input.quantity,
        unit: input.unit,
        ...located(input),
        created_by: who.userId,
        created_at: at,
        updated_by: who.userId,
        updated_at: at,
      })
      await audit(
        tx,
        who,
        'sample.create',
        'ok',
        now,
        { sampleId: id, sampleNo, subjectId: owner.subjectId, parentId: owner.parentId },
        {
          type: 'project',
          id: projectId,
        },
      )
      return viewOf(tx, projectId, id)
    }),
  )
}

export async function updateSample(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  sampleId: number,
  input: SampleUpdate,
): Promise<Sample> {
  const now = ctx.now()
  const at = now.toISOString()
  return numberGuard(input.sampleNo, () =>
    ctx.db.transaction().execute(async (tx) => {
      await writableProject(tx, projectId)
      const row = await sampleIn(tx, actor, 'subject.sampleWrite', projectId, sampleId)
      const type = input.type ?? row.type
      if (row.parent_id !== null && type !== row.type) throw new ServiceError('badRequest', 'sample.aliquotType')
      // A blank number keeps the one the sample has.
      const sampleNo = input.sampleNo || row.sample_no
      if (sampleNo !== row.sample_no) await freeNumber(tx, projectId, sampleNo, row.id)
      // A new number, not the same one in other case: the old one stays this sample's in the trail and on its tubes.
      if (sampleNo.toLowerCase() !== row.sample_no.toLowerCase()) {
        await repo.unretireOwnSampleNo(tx, projectId, row.id, sampleNo)
        await repo.retireSampleNo(tx, row, at)
      }
      await repo.updateSampleRow(tx, row.id, {
        sample_no: sampleNo,
        type,
        collected_at: input.collectedAt ?? '',
        quantity: input.quantity,
        unit: input.unit,
        ...located(input),
        updated_by: who.userId,
        updated_at: at,
      })
      if (type !== row.type) await repo.setTreeType(tx, row.root_id ?? row.id, type)
      await audit(tx, who, 'sample.update', 'ok', now, { sampleId: row.id, sampleNo }, { type: 'project', id: projectId })
      return viewOf(tx, projectId, row.id)
    }),
  )
}

/** Available, used or destroyed; destroyed is final and needs a reason. */
export async function changeSampleStatus(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  sampleId: number,
  input: SampleStatusInput,
): Promise<Sample> {
  const now = ctx.now()
  return ctx.db.transaction().execute(async (tx) => {
    await writableProject(tx, projectId)
    const row = await sampleIn(tx, actor, 'subject.sampleWrite', projectId, sampleId)
    if (!sampleMay(row.status as Sample['status']).changeStatus) throw new ServiceError('conflict', 'sample.destroyed')
    if (input.status === 'destroyed' && input.reason === '') throw new ServiceError('badRequest', 'sample.reasonRequired')
    if (input.status !== row.status) {
      await repo.setSampleStatus(tx, row.id, input.status, who.userId, now.toISOString())
      await audit(
        tx,
        who,
        'sample.status',
        'ok',
        now,
        { sampleId: row.id, sampleNo: row.sample_no, from: row.status, to: input.status, reason: input.reason },
        { type: 'project', id: projectId },
      )
    }
    return viewOf(tx, projectId, row.id)
  })
}

/**
 * Refused while the sample has aliquots or filled sample CRFs: their data would lose its sample.
 * The row goes; its number stays taken (sample_retired_no).
 */
export async function deleteSample(ctx: ServiceContext, actor: Actor, who: AuditActor, projectId: number, sampleId: number): Promise<void> {
  const now = ctx.now()
  await ctx.db.transaction().execute(async (tx) => {
    await writableProject(tx, projectId)
    const row = await sampleIn(tx, actor, 'subject.sampleDelete', projectId, sampleId)
    const aliquots = await repo.countAliquots(tx, row.id)
    if (aliquots > 0) throw new ServiceError('conflict', 'sample.hasAliquots', [aliquots])
    const records = await repo.countSampleRecords(tx, row.id)
    if (records > 0) throw new ServiceError('conflict', 'sample.hasRecords', [records])
    await repo.deleteSampleRow(tx, row.id)
    await repo.retireSampleNo(tx, row, now.toISOString())
    await audit(
      tx,
      who,
      'sample.delete',
      'ok',
      now,
      { sampleId: row.id, sampleNo: row.sample_no, subjectId: row.subject_id },
      {
        type: 'project',
        id: projectId,
      },
    )
  })
}
