import { sql } from 'kysely'
import type { Q } from '../query.ts'

/** The rows an enrolment reads and writes (server/services/enrolment.ts). */

export function queueOf(db: Q, projectId: number, queueId: number) {
  return db
    .selectFrom('project_queue')
    .where('project_id', '=', projectId)
    .where('id', '=', queueId)
    .select(['id', 'entry_condition', 'exclude_condition'])
    .executeTakeFirst()
}

export function centerOf(db: Q, projectId: number, centerId: number) {
  return db
    .selectFrom('project_center as pc')
    .innerJoin('center as c', 'c.id', 'pc.center_id')
    .where('pc.project_id', '=', projectId)
    .where('pc.center_id', '=', centerId)
    .select(['c.id', 'c.code'])
    .executeTakeFirst()
}

/** Subject numbers are unique per project ignoring case (index subject_no_ci_uq). */
export async function subjectNoTaken(db: Q, projectId: number, subjectNo: string): Promise<boolean> {
  const r = await db
    .selectFrom('subject')
    .where('project_id', '=', projectId)
    .where(sql<string>`lower(subject_no)`, '=', sql<string>`lower(${subjectNo})`)
    .select('id')
    .executeTakeFirst()
  return r !== undefined
}

/** Advances the project's counter for the center and returns the new value (from 1). */
export async function nextSequence(db: Q, projectId: number, centerId: number): Promise<number> {
  const r = await db
    .insertInto('subject_sequence')
    .values({ project_id: projectId, center_id: centerId, last: 1 })
    .onConflict((oc) => oc.columns(['project_id', 'center_id']).doUpdateSet((eb) => ({ last: eb('subject_sequence.last', '+', 1) })))
    .returning('last')
    .executeTakeFirstOrThrow()
  return r.last
}

export interface NewSubject {
  project_id: number
  queue_id: number
  center_id: number
  subject_no: string
  created_by: number | null
  enrolled_by: number | null
  enrolled_at: string
  checklist: string
  created_at: string
  updated_at: string
}

export async function insertSubject(db: Q, row: NewSubject): Promise<number> {
  const r = await db
    .insertInto('subject')
    .values({ ...row, status: 'enrolled' })
    .returning('id')
    .executeTakeFirstOrThrow()
  return r.id
}

export async function setSubjectGroup(db: Q, subjectId: number, groupId: number): Promise<void> {
  await db.updateTable('subject').set({ group_id: groupId }).where('id', '=', subjectId).execute()
}

export async function addToSubjectCount(db: Q, projectId: number): Promise<void> {
  await db
    .updateTable('project')
    .set((eb) => ({ subject_count: eb('subject_count', '+', 1) }))
    .where('id', '=', projectId)
    .execute()
}

export function groupById(db: Q, groupId: number) {
  return db.selectFrom('project_group').where('id', '=', groupId).select(['code', 'name']).executeTakeFirst()
}
