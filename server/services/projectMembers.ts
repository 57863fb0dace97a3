import { projectAuthorities, type Candidate, type Member, type ProjectRole, type ProjectRoleInput } from '../../contract/projects.ts'
import type { StudyCenter, StudyGroup } from '../../contract/studyObject.ts'
import { isUniqueViolation } from '../db/errors.ts'
import type { Q } from '../db/query.ts'
import {
  activeUserName,
  candidateRows,
  centerIdsOfProject,
  countManagers,
  deleteMember,
  deleteRole,
  insertMember,
  insertRole,
  lockManagerRole,
  memberOfUser,
  memberRows,
  queueIdsOfProject,
  roleNameTaken,
  roleRows,
  setMemberRole,
  setRoleGrants,
  updateRole,
  type MemberRow,
  type RoleRow,
  type RoleWrite,
} from '../db/repositories/projectMembers.ts'
import { centersOf, findProjectById, queuesOf } from '../db/repositories/projects.ts'
import type { Project } from '../db/tables/project.ts'
import type { Actor } from './actor.ts'
import { audit, type Actor as AuditActor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { projectScope } from './policy.ts'
import { reachOf, type RoleReach } from '../../contract/roleReach.ts'
import { BeyondOwnRole, beyondOwn } from './projectRoleBounds.ts'

/**
 * Project roles, members and the user picker (issue 9 item 4). A project role grants functional
 * authorities and the queues and centers its members see, only ever queues and centers of its
 * own project. The manager role (builtin 'manager', the creator's) keeps everything and stays,
 * and a project always keeps one member holding it: the writes that could take the last one
 * away take the manager role's row lock first, so two of them run one after the other.
 * Every write is audited with the project as object, so the detail screen's history shows it.
 */

export const managerRole = 'manager'

export function toRole(r: RoleRow): ProjectRole {
  const parsed: unknown = JSON.parse(r.authorities)
  const held = new Set<unknown>(Array.isArray(parsed) ? parsed : [])
  return {
    id: r.id,
    name: r.name,
    remarks: r.remarks,
    // In the contract's order, whatever order they were stored in.
    authorities: projectAuthorities.filter((a) => held.has(a)),
    blinded: r.blinded === 1,
    allQueues: r.all_queues === 1,
    queueIds: r.all_queues === 1 ? [] : r.queue_ids,
    allCenters: r.all_centers === 1,
    centerIds: r.all_centers === 1 ? [] : r.center_ids,
    builtin: r.builtin,
    memberCount: r.member_count,
  }
}

export const toMember = (m: MemberRow): Member => ({
  id: m.id,
  userId: m.user_id,
  name: m.name,
  username: m.username,
  image: m.image,
  roleId: m.role_id,
  roleName: m.role_name,
  createdAt: m.created_at,
})

const projectObject = (id: number) => ({ type: 'project', id })

/** Refuses, inside the work's transaction, a role reaching beyond the actor's own (projectRoleBounds.ts). */
export async function assertWithinOwn(db: Q, actor: Actor, projectId: number, ...reaches: RoleReach[]): Promise<void> {
  for (const reach of reaches) {
    const beyond = await beyondOwn(db, actor, projectId, reach)
    if (beyond) throw beyond
  }
}

/** The work, with a refusal beyond the actor's own role written to the audit log as denied (after its rollback). */
export async function bounded<T>(
  ctx: ServiceContext,
  who: AuditActor,
  action: string,
  projectId: number,
  detail: Record<string, unknown>,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof BeyondOwnRole)
      await audit(ctx.db, who, action, 'denied', ctx.now(), { ...detail, reason: err.key, beyond: err.beyond }, projectObject(projectId))
    throw err
  }
}

/** The project, or 404; a closed one is not changed any more. */
export async function projectFor(db: Q, projectId: number, write: boolean): Promise<Project> {
  const p = await findProjectById(db, projectId)
  if (!p) throw new ServiceError('notFound', 'project.notFound', [projectId])
  if (write && p.status === 'closed') throw new ServiceError('conflict', 'project.closed')
  return p
}

/** A role of this project, or 400 naming the id (a role of another project is no role here). */
export async function roleOf(db: Q, projectId: number, roleId: number): Promise<RoleRow> {
  const [role] = await roleRows(db, projectId, roleId)
  if (!role) throw new ServiceError('badRequest', 'members.roleNotFound', [roleId])
  return role
}

export async function listProjectRoles(ctx: ServiceContext, projectId: number): Promise<ProjectRole[]> {
  await projectFor(ctx.db, projectId, false)
  return (await roleRows(ctx.db, projectId)).map(toRole)
}

interface CheckedRole {
  write: RoleWrite
  queueIds: number[]
  centerIds: number[]
}

/** The input as stored, each queue and center checked to be of this project (refused naming the first that is not). */
async function checkedRole(db: Q, projectId: number, input: ProjectRoleInput): Promise<CheckedRole> {
  const queueIds = input.allQueues ? [] : [...new Set(input.queueIds)]
  const centerIds = input.allCenters ? [] : [...new Set(input.centerIds)]
  const queues = await queueIdsOfProject(db, projectId, queueIds)
  const badQueue = queueIds.find((id) => !queues.has(id))
  if (badQueue !== undefined) throw new ServiceError('badRequest', 'members.queueNotInProject', [badQueue])
  const centers = await centerIdsOfProject(db, projectId, centerIds)
  const badCenter = centerIds.find((id) => !centers.has(id))
  if (badCenter !== undefined) throw new ServiceError('badRequest', 'members.centerNotInProject', [badCenter])
  const held = new Set(input.authorities)
  return {
    write: {
      name: input.name,
      remarks: input.remarks,
      authorities: JSON.stringify(projectAuthorities.filter((a) => held.has(a))),
      blinded: input.blinded ? 1 : 0,
      all_queues: input.allQueues ? 1 : 0,
      all_centers: input.allCenters ? 1 : 0,
    },
    queueIds,
    centerIds,
  }
}

async function assertNameFree(db: Q, projectId: number, name: string, selfId: number | null): Promise<void> {
  if (await roleNameTaken(db, projectId, name, selfId)) throw new ServiceError('conflict', 'members.roleNameTaken', [name])
}

/** A concurrent writer took the name between our check and our write. */
function nameRace(err: unknown, name: string): unknown {
  return isUniqueViolation(err) ? new ServiceError('conflict', 'members.roleNameTaken', [name]) : err
}

export async function createProjectRole(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  input: ProjectRoleInput,
): Promise<ProjectRole> {
  const at = ctx.now()
  try {
    return await bounded(ctx, who, 'project.role.create', projectId, { name: input.name }, () =>
      ctx.db.transaction().execute(async (trx) => {
        await projectFor(trx, projectId, true)
        await assertWithinOwn(trx, actor, projectId, reachOf(input))
        const role = await checkedRole(trx, projectId, input)
        await assertNameFree(trx, projectId, input.name, null)
        const id = await insertRole(trx, projectId, role.write, at.toISOString())
        await setRoleGrants(trx, id, role.queueIds, role.centerIds)
        const created = toRole((await roleRows(trx, projectId, id))[0]!)
        await audit(trx, who, 'project.role.create', 'ok', at, { roleId: id, ...input }, projectObject(projectId))
        return created
      }),
    )
  } catch (err) {
    throw nameRace(err, input.name)
  }
}

export async function updateProjectRole(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  roleId: number,
  input: ProjectRoleInput,
): Promise<ProjectRole> {
  const at = ctx.now()
  try {
    return await bounded(ctx, who, 'project.role.update', projectId, { roleId }, () =>
      ctx.db.transaction().execute(async (trx) => {
        await projectFor(trx, projectId, true)
        const [before] = await roleRows(trx, projectId, roleId)
        // Named by the path: not found, unlike a role named in a body (bad input).
        if (!before) throw new ServiceError('notFound', 'members.roleNotFound', [roleId])
        await assertWithinOwn(trx, actor, projectId, reachOf(toRole(before)), reachOf(input))
        if (
          before.builtin === managerRole &&
          (!input.allQueues || !input.allCenters || input.blinded || projectAuthorities.some((a) => !input.authorities.includes(a)))
        ) {
          throw new ServiceError('badRequest', 'members.managerFixed')
        }
        const role = await checkedRole(trx, projectId, input)
        await assertNameFree(trx, projectId, input.name, roleId)
        await updateRole(trx, roleId, role.write, at.toISOString())
        await setRoleGrants(trx, roleId, role.queueIds, role.centerIds)
        const after = toRole((await roleRows(trx, projectId, roleId))[0]!)
        await audit(trx, who, 'project.role.update', 'ok', at, { roleId, before: toRole(before), after: input }, projectObject(projectId))
        return after
      }),
    )
  } catch (err) {
    throw nameRace(err, input.name)
  }
}

export async function deleteProjectRole(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  roleId: number,
): Promise<void> {
  const at = ctx.now()
  await bounded(ctx, who, 'project.role.delete', projectId, { roleId }, () =>
    ctx.db.transaction().execute(async (trx) => {
      await projectFor(trx, projectId, true)
      const [role] = await roleRows(trx, projectId, roleId)
      if (!role) throw new ServiceError('notFound', 'members.roleNotFound', [roleId])
      await assertWithinOwn(trx, actor, projectId, reachOf(toRole(role)))
      if (role.builtin === managerRole) throw new ServiceError('conflict', 'members.managerDelete')
      if (role.member_count > 0) throw new ServiceError('conflict', 'members.roleInUse', [role.member_count])
      await deleteRole(trx, roleId)
      await audit(trx, who, 'project.role.delete', 'ok', at, { roleId, name: role.name }, projectObject(projectId))
    }),
  )
}

export async function listProjectMembers(ctx: ServiceContext, projectId: number): Promise<Member[]> {
  await projectFor(ctx.db, projectId, false)
  return (await memberRows(ctx.db, projectId)).map(toMember)
}

/** Adds a member inside an open transaction: an active user not yet a member, with a role of this project. */
export async function addMemberIn(trx: Q, projectId: number, userId: number, roleId: number, at: string): Promise<Member> {
  const role = await roleOf(trx, projectId, roleId)
  const name = await activeUserName(trx, userId)
  if (name === undefined) throw new ServiceError('badRequest', 'members.userMissing', [userId])
  if ((await memberOfUser(trx, projectId, userId)) !== undefined) throw new ServiceError('conflict', 'members.already', [name])
  let id: number
  try {
    id = await insertMember(trx, projectId, userId, role.id, at)
  } catch (err) {
    // Added by someone else between the check and the insert.
    throw isUniqueViolation(err) ? new ServiceError('conflict', 'members.already', [name]) : err
  }
  return toMember((await memberRows(trx, projectId, id))[0]!)
}

export async function addProjectMember(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  input: { userId: number; roleId: number },
): Promise<Member> {
  const at = ctx.now()
  return bounded(ctx, who, 'project.member.add', projectId, { ...input }, () =>
    ctx.db.transaction().execute(async (trx) => {
      await projectFor(trx, projectId, true)
      await assertWithinOwn(trx, actor, projectId, reachOf(toRole(await roleOf(trx, projectId, input.roleId))))
      const member = await addMemberIn(trx, projectId, input.userId, input.roleId, at.toISOString())
      await audit(
        trx,
        who,
        'project.member.add',
        'ok',
        at,
        { memberId: member.id, userId: member.userId, name: member.name, roleId: member.roleId, roleName: member.roleName },
        projectObject(projectId),
      )
      return member
    }),
  )
}

async function memberOf(db: Q, projectId: number, memberId: number): Promise<MemberRow> {
  const [m] = await memberRows(db, projectId, memberId)
  if (!m) throw new ServiceError('notFound', 'members.notFound', [memberId])
  return m
}

/** Refused when the member is the project's last manager (under the manager role's lock). */
async function assertNotLastManager(trx: Q, projectId: number, m: MemberRow): Promise<void> {
  if (m.role_builtin !== managerRole) return
  if ((await countManagers(trx, projectId)) <= 1) throw new ServiceError('conflict', 'members.lastManager')
}

export async function changeProjectMemberRole(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  memberId: number,
  roleId: number,
): Promise<Member> {
  const at = ctx.now()
  return bounded(ctx, who, 'project.member.role', projectId, { memberId, roleId }, () =>
    ctx.db.transaction().execute(async (trx) => {
      await projectFor(trx, projectId, true)
      await lockManagerRole(trx, projectId)
      const m = await memberOf(trx, projectId, memberId)
      const role = await roleOf(trx, projectId, roleId)
      await assertWithinOwn(trx, actor, projectId, reachOf(toRole(await roleOf(trx, projectId, m.role_id))), reachOf(toRole(role)))
      if (role.builtin !== managerRole) await assertNotLastManager(trx, projectId, m)
      await setMemberRole(trx, memberId, roleId)
      await audit(
        trx,
        who,
        'project.member.role',
        'ok',
        at,
        { memberId, userId: m.user_id, name: m.name, from: m.role_name, to: role.name },
        projectObject(projectId),
      )
      return toMember(await memberOf(trx, projectId, memberId))
    }),
  )
}

export async function removeProjectMember(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  memberId: number,
): Promise<void> {
  const at = ctx.now()
  await bounded(ctx, who, 'project.member.remove', projectId, { memberId }, () =>
    ctx.db.transaction().execute(async (trx) => {
      await projectFor(trx, projectId, true)
      await lockManagerRole(trx, projectId)
      const m = await memberOf(trx, projectId, memberId)
      await assertWithinOwn(trx, actor, projectId, reachOf(toRole(await roleOf(trx, projectId, m.role_id))))
      await assertNotLastManager(trx, projectId, m)
      await deleteMember(trx, memberId)
      await audit(
        trx,
        who,
        'project.member.remove',
        'ok',
        at,
        { memberId, userId: m.user_id, name: m.name, roleName: m.role_name },
        projectObject(projectId),
      )
    }),
  )
}

export async function listProjectCandidates(
  ctx: ServiceContext,
  projectId: number,
  query: { q?: string | undefined; limit: number },
): Promise<Candidate[]> {
  await projectFor(ctx.db, projectId, false)
  return candidateRows(ctx.db, projectId, query.q, query.limit)
}

/** SPEC getStudyGroupList: the project's queues the caller's project role grants. */
export async function studyGroupList(ctx: ServiceContext, actor: Actor, projectId: number): Promise<StudyGroup[]> {
  const rows = await queuesOf(ctx.db, projectId, projectScope(actor, 'subject.groupList', projectId))
  return rows.map((q) => ({
    id: q.id,
    key: q.key,
    name: q.name,
    entryCondition: q.entry_condition,
    excludeCondition: q.exclude_condition,
    sort: q.sort,
  }))
}

/** SPEC centerList: the project's centers the caller's project role grants (one, when `centerId` names it). */
export async function studyCenterList(ctx: ServiceContext, actor: Actor, projectId: number, centerId?: number): Promise<StudyCenter[]> {
  const rows = await centersOf(ctx.db, projectId, projectScope(actor, 'subject.centerList', projectId), centerId)
  return rows.map((c) => ({ id: c.id, code: c.code, nameZh: c.name_zh, nameEn: c.name_en, region: c.region, sort: c.sort }))
}
