import { findSubjectInScope, type ScopedSubject } from '../db/repositories/subjects.ts'
import type { Q } from '../db/query.ts'
import type { Actor } from './actor.ts'
import { ServiceError } from './errors.ts'
import { projectScope, type Action } from './policy.ts'

/**
 * The one way a service reaches a research object a call names: inside the queues and centers the
 * caller's project role grants for `action`, or 404. The guard has already decided the action on
 * the project (`studyId`); this decides the subject, with the condition inside the SQL.
 */
export async function subjectFor(db: Q, actor: Actor, action: Action, projectId: number, subjectId: number): Promise<ScopedSubject> {
  const subject = await findSubjectInScope(db, projectScope(actor, action, projectId), subjectId)
  if (!subject) throw new ServiceError('notFound', 'subject.notFound', [subjectId])
  return subject
}
