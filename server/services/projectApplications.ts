import type { Application, ApplicationInput } from '../../contract/projects.ts'
import {
  applicationsOfProject,
  applicationsOfUser,
  decideApplication,
  findApplication,
  insertApplication,
  pendingApplicationOf,
  type ApplicationRow,
} from '../db/repositories/projectApplications.ts'
import { lockManagerRole, memberOfUser } from '../db/repositories/projectMembers.ts'
import type { Q } from '../db/query.ts'
import type { Actor } from './actor.ts'
import { audit, type Actor as AuditActor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { addMemberIn, assertWithinOwn, bounded, projectFor, roleOf, toRole } from './projectMembers.ts'
import { reachOf } from '../../contract/roleReach.ts'

/**
 * Applications to join a project (multi-apply, issue 9 item 5): a user applies to an active
 * project they are not a member of, once at a time; a project manager approves (the member row
 * and the decision in one transaction) or refuses with a reason. Audited with the project as object.
 */

const toApplication = (a: ApplicationRow): Application => ({
  id: a.id,
  projectId: a.project_id,
  projectName: a.project_name,
  userId: a.user_id,
  name: a.name,
  roleId: a.role_id,
  roleName: a.role_name,
  reason: a.reason,
  status: a.status as Application['status'],
  decidedBy: a.decided_by_name,
  decisionReason: a.decision_reason,
  createdAt: a.created_at,
  decidedAt: a.decided_at,
})

const projectObject = (id: number) => ({ type: 'project', id })

async function applicationOf(db: Q, projectId: number, id: number): Promise<ApplicationRow> {
  const a = await findApplication(db, projectId, id)
  if (!a) throw new ServiceError('notFound', 'members.applicationNotFound', [id])
  return a
}

export async function applyToProject(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  input: ApplicationInput,
): Promise<Application> {
  const at = ctx.now()
  return ctx.db.transaction().execute(async (trx) => {
    const project = await projectFor(trx, projectId, false)
    if (project.status !== 'active') throw new ServiceError('conflict', 'members.notOpen')
    if (input.roleId !== null) await roleOf(trx, projectId, input.roleId)
    // One applicant's two clicks at once must not leave two pending applications.
    await lockManagerRole(trx, projectId)
    if ((await memberOfUser(trx, projectId, actor.user.id)) !== undefined) throw new ServiceError('conflict', 'members.selfMember')
    if ((await pendingApplicationOf(trx, projectId, actor.user.id)) !== undefined) throw new ServiceError('conflict', 'members.pending')
    const id = await insertApplication(trx, {
      project_id: projectId,
      user_id: actor.user.id,
      role_id: input.roleId,
      reason: input.reason,
      created_at: at.toISOString(),
    })
    await audit(
      trx,
      who,
      'project.apply',
      'ok',
      at,
      { applicationId: id, roleId: input.roleId, reason: input.reason },
      projectObject(projectId),
    )
    return toApplication(await applicationOf(trx, projectId, id))
  })
}

export async function listProjectApplications(ctx: ServiceContext, projectId: number): Promise<Application[]> {
  await projectFor(ctx.db, projectId, false)
  return (await applicationsOfProject(ctx.db, projectId)).map(toApplication)
}

export async function listMyApplications(ctx: ServiceContext, actor: Actor): Promise<Application[]> {
  return (await applicationsOfUser(ctx.db, actor.user.id)).map(toApplication)
}

/** The applicant becomes a member with `roleId` and the application is approved, both or neither. */
export async function approveApplication(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  applicationId: number,
  roleId: number,
): Promise<Application> {
  const at = ctx.now()
  return bounded(ctx, who, 'project.application.approve', projectId, { applicationId, roleId }, () =>
    ctx.db.transaction().execute(async (trx) => {
      await projectFor(trx, projectId, true)
      const a = await applicationOf(trx, projectId, applicationId)
      if (a.status !== 'pending') throw new ServiceError('conflict', 'members.decided')
      await assertWithinOwn(trx, actor, projectId, reachOf(toRole(await roleOf(trx, projectId, roleId))))
      const member = await addMemberIn(trx, projectId, a.user_id, roleId, at.toISOString())
      const decided = await decideApplication(trx, applicationId, {
        status: 'approved',
        role_id: roleId,
        decided_by: actor.user.id,
        decision_reason: '',
        decided_at: at.toISOString(),
      })
      if (!decided) throw new ServiceError('conflict', 'members.decided')
      await audit(
        trx,
        who,
        'project.application.approve',
        'ok',
        at,
        { applicationId, userId: a.user_id, name: a.name, memberId: member.id, roleId, roleName: member.roleName },
        projectObject(projectId),
      )
      return toApplication(await applicationOf(trx, projectId, applicationId))
    }),
  )
}

export async function refuseApplication(
  ctx: ServiceContext,
  actor: Actor,
  who: AuditActor,
  projectId: number,
  applicationId: number,
  reason: string,
): Promise<Application> {
  const at = ctx.now()
  return ctx.db.transaction().execute(async (trx) => {
    await projectFor(trx, projectId, false)
    const a = await applicationOf(trx, projectId, applicationId)
    const decided = await decideApplication(trx, applicationId, {
      status: 'refused',
      role_id: a.role_id,
      decided_by: actor.user.id,
      decision_reason: reason,
      decided_at: at.toISOString(),
    })
    if (!decided) throw new ServiceError('conflict', 'members.decided')
    await audit(
      trx,
      who,
      'project.application.refuse',
      'ok',
      at,
      { applicationId, userId: a.user_id, name: a.name, reason },
      projectObject(projectId),
    )
    return toApplication(await applicationOf(trx, projectId, applicationId))
  })
}
