import { bilingual, type Lang } from '../../contract/bilingual.ts'
import type { Unblinded } from '../../contract/studyData.ts'
import { subjectStatuses } from '../../contract/subjects.ts'
import type { ViewInfo } from '../../contract/subjectList.ts'
import { fromJson } from '../db/json.ts'
import * as repo from '../db/repositories/studyData.ts'
import type { Actor } from './actor.ts'
import { audit, type Actor as AuditActor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { can, seesGroups } from './policy.ts'
import { subjectFor } from './subjectAccess.ts'

/**
 * One research object's header (SPEC §7 getViewInfo) and its emergency unblinding: a member kept
 * blind sees no group, unless they hold the unblind grant and reveal it with a reason, which both
 * the subject's audit trail and the project's log record.
 */

const checklistOf = (raw: string): ViewInfo['checklist'] => {
  const c = fromJson<Partial<ViewInfo['checklist']>>(raw)
  return { inclusion: c.inclusion ?? [], exclusion: c.exclusion ?? [] }
}

export async function viewInfo(ctx: ServiceContext, actor: Actor, lang: Lang, projectId: number, subjectId: number): Promise<ViewInfo> {
  const s = await subjectFor(ctx.db, actor, 'subject.read', projectId, subjectId)
  const head = await repo.subjectHead(ctx.db, s.id)
  // subjectFor found the subject; its project, queue and center are foreign keys.
  if (!head) throw new ServiceError('notFound', 'subject.notFound', [subjectId])
  const sees = seesGroups(actor, projectId)
  const randomized = head.group_name !== null
  const summary = fromJson<Record<string, string>>(s.summary)
  return {
    id: s.id,
    subjectNo: s.subject_no,
    centerId: s.center_id,
    centerName: bilingual(head.center_zh, head.center_en, lang),
    queueId: s.queue_id,
    queueName: head.queue_name,
    status: subjectStatuses.find((st) => st === s.status) ?? 'enrolled',
    group: sees ? head.group_name : null,
    enrolledAt: s.enrolled_at,
    updatedAt: s.updated_at,
    values: summary,
    projectId,
    projectName: head.project_name,
    checklist: checklistOf(s.checklist),
    entryCondition: head.entry_condition,
    excludeCondition: head.exclude_condition,
    enrolledBy: head.enrolled_by_name ?? '',
    blinded: randomized && !sees,
    canUnblind: randomized && !sees && can(actor, 'subject.unblind', { type: 'project', id: projectId }),
  }
}

export async function unblind(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  subjectId: number,
  reason: string,
): Promise<Unblinded> {
  const s = await subjectFor(ctx.db, actor, 'subject.unblind', projectId, subjectId)
  const head = await repo.subjectHead(ctx.db, s.id)
  if (head?.group_code == null || head.group_name === null) throw new ServiceError('conflict', 'entry.notRandomized')
  const now = ctx.now()
  const at = now.toISOString()
  await ctx.db.transaction().execute(async (tx) => {
    // The group stays out of both trails: blinded members read them too.
    await repo.appendDataAudit(tx, [
      {
        at,
        user_id: who.userId,
        username: who.username,
        ip: who.ip,
        project_id: projectId,
        subject_id: s.id,
        record_id: null,
        row_id: null,
        template_id: null,
        version_id: null,
        section_key: null,
        field: '',
        action: 'unblind',
        old_value: null,
        new_value: null,
        reason,
      },
    ])
    await audit(
      tx,
      who,
      'subject.unblind',
      'ok',
      now,
      { subjectId: s.id, subjectNo: s.subject_no, reason },
      { type: 'project', id: projectId },
    )
  })
  return { group: { code: head.group_code, name: head.group_name } }
}
