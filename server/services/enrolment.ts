import { z } from 'zod'
import { hasInvisible, identifierText, invisibleKey } from '../../contract/identifierText.ts'
import { planFactor } from '../../contract/randomization.ts'
import { conditionLines, subjectLimits, type EnrolInput, type EnrolledSubject } from '../../contract/subjects.ts'
import type { Q } from '../db/query.ts'
import * as repo from '../db/repositories/enrolment.ts'
import { countSubjects, lockProject } from '../db/repositories/projects.ts'
import { planOf } from '../db/repositories/randomization.ts'
import { bumpTally } from '../db/repositories/subjectList.ts'
import type { Actor } from './actor.ts'
import { audit, type Actor as AuditActor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { projectScope, seesGroups } from './policy.ts'
import { allocateNext, subjectStratum } from './randomization/plan.ts'

/**
 * Enrolment of a research subject (issue 10 item 2): into a queue and center of an active
 * project that the member's role reaches, after the queue's checklist, with a number unique per
 * project, randomized by the project's plan when its list exists. One transaction under the
 * project row lock, so numbers, the planned quantity and allocation entries never race.
 */

const factorsColumn = z.array(planFactor)

function checkChecklist(entry: string, exclude: string, answers: EnrolInput['checklist']): void {
  const inclusion = conditionLines(entry)
  const exclusion = conditionLines(exclude)
  if (answers.inclusion.length !== inclusion.length || answers.exclusion.length !== exclusion.length) {
    throw new ServiceError('badRequest', 'enrol.checklistCount', [inclusion.length, exclusion.length])
  }
  // Every criterion that fails is named, not only the first: the user corrects them all at once.
  const unmet = inclusion.filter((_, i) => !answers.inclusion[i])
  if (unmet.length > 0) throw new ServiceError('badRequest', 'enrol.notIncluded', [unmet.join('; ')])
  const met = exclusion.filter((_, i) => answers.exclusion[i])
  if (met.length > 0) throw new ServiceError('badRequest', 'enrol.excluded', [met.join('; ')])
}

/** A free generated number: center code, '-', 4 digits; numbers typed in by hand are skipped. */
async function generatedNo(tx: Q, projectId: number, centerId: number, code: string): Promise<string> {
  for (;;) {
    const n = await repo.nextSequence(tx, projectId, centerId)
    const no = `${code}-${String(n).padStart(4, '0')}`
    if (!(await repo.subjectNoTaken(tx, projectId, no))) return no
  }
}

/** The stratification answers for the plan's factors, each a choice of its indicator. */
function factorAnswers(factors: z.infer<typeof factorsColumn>, given: EnrolInput['factors']): Map<number, string> {
  const answers = new Map((given ?? []).map((f) => [f.indicatorId, f.code]))
  for (const f of factors) {
    const code = answers.get(f.indicatorId)
    if (code === undefined || !f.choices.some((c) => c.code === code)) throw new ServiceError('badRequest', 'enrol.factorMissing', [f.code])
  }
  return answers
}

export async function enrolSubject(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  input: EnrolInput,
): Promise<EnrolledSubject> {
  const now = ctx.now()
  return ctx.db.transaction().execute((tx) => enrolWithin(tx, now, actor, who, projectId, input))
}

/**
 * One enrolment inside a transaction the caller holds (an upload enrols several subjects in its
 * own, all or nothing), by the same rules.
 */
export async function enrolWithin(
  tx: Q,
  now: Date,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  input: EnrolInput,
): Promise<EnrolledSubject> {
  const at = now.toISOString()
  const scope = projectScope(actor, 'subject.enrol', projectId)
  const queueIds = scope.kind === 'project' ? scope.queueIds : []
  const centerIds = scope.kind === 'project' ? scope.centerIds : []
  const project = await lockProject(tx, projectId)
  if (!project) throw new ServiceError('notFound', 'project.notFound', [projectId])
  if (project.status !== 'active') throw new ServiceError('conflict', 'enrol.notActive')
  // A queue or center outside the caller's is answered as one the project lacks, as the lists do.
  const queue = await repo.queueOf(tx, projectId, input.queueId)
  if (!queue || (queueIds && !queueIds.includes(queue.id))) throw new ServiceError('badRequest', 'enrol.queueNotFound', [input.queueId])
  const center = await repo.centerOf(tx, projectId, input.centerId)
  if (!center || (centerIds && !centerIds.includes(center.id)))
    throw new ServiceError('badRequest', 'enrol.centerNotFound', [input.centerId])
  checkChecklist(queue.entry_condition, queue.exclude_condition, input.checklist)

  // Read again here: an upload's numbers reach this without the contract's parse.
  const given = identifierText(input.subjectNo ?? '')
  if (hasInvisible(given)) throw new ServiceError('badRequest', invisibleKey, ['subjectNo'])
  if (given.length > subjectLimits.subjectNo) throw new ServiceError('badRequest', 'field.tooLong', ['subjectNo', subjectLimits.subjectNo])
  if (given && (await repo.subjectNoTaken(tx, projectId, given))) throw new ServiceError('conflict', 'enrol.numberTaken', [given])
  if ((await countSubjects(tx, projectId)) >= project.planned_quantity) {
    throw new ServiceError('conflict', 'enrol.full', [project.planned_quantity])
  }
  const plan = await planOf(tx, projectId)
  const randomized = plan !== undefined && plan.method !== 'none' && plan.generated_at !== null
  const answers = randomized ? factorAnswers(factorsColumn.parse(JSON.parse(plan.factors)), input.factors) : new Map<number, string>()

  const subjectNo = given || (await generatedNo(tx, projectId, center.id, center.code))
  const subjectId = await repo.insertSubject(tx, {
    project_id: projectId,
    queue_id: queue.id,
    center_id: center.id,
    subject_no: subjectNo,
    created_by: who.userId,
    enrolled_by: who.userId,
    enrolled_at: at,
    checklist: JSON.stringify(input.checklist),
    created_at: at,
    updated_at: at,
  })
  let group: EnrolledSubject['group'] = null
  if (randomized) {
    // A used-up stratum throws here, and the transaction takes the subject row back with it.
    const stratum = await subjectStratum(tx, projectId, center.id, answers)
    const { groupId } = await allocateNext(tx, projectId, stratum, subjectId, now)
    await repo.setSubjectGroup(tx, subjectId, groupId)
    if (seesGroups(actor, projectId)) group = (await repo.groupById(tx, groupId)) ?? null
  }
  await repo.addToSubjectCount(tx, projectId)
  await bumpTally(tx, { projectId, centerId: center.id, queueId: queue.id, status: 'enrolled' }, 1)
  // The group stays out of the log: blinded members read the project history too.
  await audit(
    tx,
    who,
    'subject.enrol',
    'ok',
    now,
    { subjectId, subjectNo, queueId: queue.id, centerId: center.id, randomized },
    { type: 'project', id: projectId },
  )
  return { id: subjectId, subjectNo, queueId: queue.id, centerId: center.id, status: 'enrolled', enrolledAt: at, group }
}
