import type { Q } from '../query.ts'
import { scopeConditions, type ListScope } from '../scope.ts'

/**
 * One research object, looked up inside a project scope (server/db/scope.ts): a subject of
 * another project, queue or center is not found, exactly like one that does not exist, so a
 * caller learns nothing about subjects they may not see.
 */
export function findSubjectInScope(db: Q, scope: ListScope, subjectId: number) {
  return db
    .selectFrom('subject as s')
    .where('s.id', '=', subjectId)
    .where((eb) => eb.and(scopeConditions(scope, { project: 's.project_id', queue: 's.queue_id', center: 's.center_id' })))
    .select([
      's.id',
      's.project_id',
      's.queue_id',
      's.center_id',
      's.subject_no',
      's.status',
      's.group_id',
      's.enrolled_at',
      's.enrolled_by',
      's.checklist',
      's.summary',
      's.created_at',
      's.updated_at',
    ])
    .executeTakeFirst()
}

export type ScopedSubject = NonNullable<Awaited<ReturnType<typeof findSubjectInScope>>>
