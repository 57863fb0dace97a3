import { projectAuthorities } from '../../contract/projects.ts'
import type { TestApp } from './testApp.ts'

/**
 * Projects written straight into the tables, as the create wizard leaves them (queues, centers,
 * the manager role and the creator as its member), so the member tests do not depend on it; and
 * subjects written straight in, enrolled at a given instant.
 */

export interface RowProject {
  id: number
  queueIds: number[]
  centerIds: number[]
  managerRoleId: number
  managerMemberId: number
}

let serial = 0

export async function insertCenter(t: TestApp, code: string): Promise<number> {
  const at = new Date().toISOString()
  const row = await t.db.kysely
    .insertInto('center')
    .values({ code, name_zh: `中心${code}`, name_en: `Center ${code}`, region: '', created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function insertProject(
  t: TestApp,
  p: { creatorId: number; status?: string; queues?: readonly string[]; centerIds?: readonly number[]; name?: string },
): Promise<RowProject> {
  const at = new Date().toISOString()
  serial += 1
  const db = t.db.kysely
  const { id } = await db
    .insertInto('project')
    .values({
      scope: 'multi',
      type: 'prospective',
      name: p.name ?? `Project ${serial}`,
      number: `MP-${serial}-${Math.random().toString(36).slice(2, 8)}`,
      test_stage: null,
      group_type: 'group',
      disease_id: null,
      blinded: 'open',
      random_method: 'none',
      planned_quantity: 100,
      planned_groups: 2,
      status: p.status ?? 'draft',
      creator_id: p.creatorId,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const queueIds: number[] = []
  for (const [i, key] of (p.queues ?? ['A']).entries()) {
    const q = await db
      .insertInto('project_queue')
      .values({ project_id: id, name: `Queue ${key}`, key, sort: i })
      .returning('id')
      .executeTakeFirstOrThrow()
    queueIds.push(q.id)
  }
  const centerIds = [...(p.centerIds ?? [])]
  for (const [i, center_id] of centerIds.entries()) {
    await db.insertInto('project_center').values({ project_id: id, center_id, sort: i }).execute()
  }
  const role = await db
    .insertInto('project_role')
    .values({
      project_id: id,
      name: '项目管理员',
      authorities: JSON.stringify(projectAuthorities),
      all_queues: 1,
      all_centers: 1,
      blinded: 0,
      builtin: 'manager',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const member = await db
    .insertInto('project_member')
    .values({ project_id: id, user_id: p.creatorId, role_id: role.id, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id, queueIds, centerIds, managerRoleId: role.id, managerMemberId: member.id }
}

/** A subject enrolled at `at` (now when not given), with no group and no values; answers its id. */
export async function insertSubject(
  t: TestApp,
  s: { projectId: number; queueId: number; centerId: number; subjectNo: string; at?: string },
): Promise<number> {
  const at = s.at ?? new Date().toISOString()
  const row = await t.db.kysely
    .insertInto('subject')
    .values({
      project_id: s.projectId,
      queue_id: s.queueId,
      center_id: s.centerId,
      subject_no: s.subjectNo,
      created_by: null,
      created_at: at,
      updated_at: at,
      enrolled_by: null,
      enrolled_at: at,
      group_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}
