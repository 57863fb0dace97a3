import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { emptyEnvelope, envelope } from '../../../contract/envelope.ts'
import { idParam, idParams } from '../../../contract/ids.ts'
import {
  application,
  applicationInput,
  applicationList,
  approveInput,
  candidateList,
  candidateQuery,
  member,
  memberInput,
  memberList,
  memberRoleInput,
  projectRole,
  projectRoleInput,
  projectRoleList,
  refuseInput,
} from '../../../contract/projects.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import {
  applyToProject,
  approveApplication,
  listMyApplications,
  listProjectApplications,
  refuseApplication,
} from '../../services/projectApplications.ts'
import {
  addProjectMember,
  changeProjectMemberRole,
  createProjectRole,
  deleteProjectRole,
  listProjectCandidates,
  listProjectMembers,
  listProjectRoles,
  removeProjectMember,
  updateProjectRole,
} from '../../services/projectMembers.ts'

/**
 * Project roles, members, the user picker and applications to join (contract/projects.ts
 * `projectPaths`). `:id` is always the project's id: the policy decides on the caller's
 * membership of that project (server/services/policy.ts).
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['projects']
  const roleParams = z.object({ id: idParam, roleId: idParam })
  const memberParams = z.object({ id: idParam, memberId: idParam })
  const applicationParams = z.object({ id: idParam, applicationId: idParam })

  app.get(
    '/projects/:id/roles',
    {
      config: { action: 'project.read' },
      schema: {
        tags,
        summary: 'The project roles with their grants and member counts',
        params: idParams,
        response: { 200: envelope(projectRoleList) },
      },
    },
    async (req) => ok(req, await listProjectRoles(app.ctx, req.params.id)),
  )

  app.post(
    '/projects/:id/roles',
    {
      config: { action: 'project.members' },
      schema: {
        tags,
        summary: 'Create a project role; its queues and centers must be of this project',
        params: idParams,
        body: projectRoleInput,
        response: { 200: envelope(projectRole) },
      },
    },
    async (req) => ok(req, await createProjectRole(app.ctx, actor(req), auditActor(req), req.params.id, req.body)),
  )

  app.put(
    '/projects/:id/roles/:roleId',
    {
      config: { action: 'project.members' },
      schema: {
        tags,
        summary: 'Edit a project role (the manager role keeps every authority, queue and center)',
        params: roleParams,
        body: projectRoleInput,
        response: { 200: envelope(projectRole) },
      },
    },
    async (req) => ok(req, await updateProjectRole(app.ctx, actor(req), auditActor(req), req.params.id, req.params.roleId, req.body)),
  )

  app.delete(
    '/projects/:id/roles/:roleId',
    {
      config: { action: 'project.members' },
      schema: {
        tags,
        summary: 'Delete a project role (refused for the manager role and while members hold it)',
        params: roleParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteProjectRole(app.ctx, actor(req), auditActor(req), req.params.id, req.params.roleId)
      return done(req)
    },
  )

  app.get(
    '/projects/:id/members',
    {
      config: { action: 'project.read' },
      schema: {
        tags,
        summary: 'The members of the project with their project roles',
        params: idParams,
        response: { 200: envelope(memberList) },
      },
    },
    async (req) => ok(req, await listProjectMembers(app.ctx, req.params.id)),
  )

  app.post(
    '/projects/:id/members',
    {
      config: { action: 'project.members' },
      schema: {
        tags,
        summary: 'Add an active user who is not a member yet, with a role of this project',
        params: idParams,
        body: memberInput,
        response: { 200: envelope(member) },
      },
    },
    async (req) => ok(req, await addProjectMember(app.ctx, actor(req), auditActor(req), req.params.id, req.body)),
  )

  app.put(
    '/projects/:id/members/:memberId',
    {
      config: { action: 'project.members' },
      schema: {
        tags,
        summary: "Change a member's project role (the last manager cannot be demoted)",
        params: memberParams,
        body: memberRoleInput,
        response: { 200: envelope(member) },
      },
    },
    async (req) =>
      ok(req, await changeProjectMemberRole(app.ctx, actor(req), auditActor(req), req.params.id, req.params.memberId, req.body.roleId)),
  )

  app.delete(
    '/projects/:id/members/:memberId',
    {
      config: { action: 'project.members' },
      schema: { tags, summary: 'Remove a member (not the last manager)', params: memberParams, response: { 200: emptyEnvelope } },
    },
    async (req) => {
      await removeProjectMember(app.ctx, actor(req), auditActor(req), req.params.id, req.params.memberId)
      return done(req)
    },
  )

  app.get(
    '/projects/:id/candidates',
    {
      config: { action: 'project.members' },
      schema: {
        tags,
        summary: 'The user picker: active users not yet members, by name or username prefix',
        params: idParams,
        querystring: candidateQuery,
        response: { 200: envelope(candidateList) },
      },
    },
    async (req) => ok(req, await listProjectCandidates(app.ctx, req.params.id, req.query)),
  )

  app.get(
    '/projects/applications/mine',
    {
      config: { action: 'project.myApplications' },
      schema: { tags, summary: "The caller's applications to join projects, newest first", response: { 200: envelope(applicationList) } },
    },
    async (req) => ok(req, await listMyApplications(app.ctx, actor(req))),
  )

  app.post(
    '/projects/:id/applications',
    {
      config: { action: 'project.apply' },
      schema: {
        tags,
        summary: 'Apply to join an active project (one pending application at a time)',
        params: idParams,
        body: applicationInput,
        response: { 200: envelope(application) },
      },
    },
    async (req) => ok(req, await applyToProject(app.ctx, actor(req), auditActor(req), req.params.id, req.body)),
  )

  app.get(
    '/projects/:id/applications',
    {
      config: { action: 'project.members' },
      schema: {
        tags,
        summary: 'Applications to join the project, newest first',
        params: idParams,
        response: { 200: envelope(applicationList) },
      },
    },
    async (req) => ok(req, await listProjectApplications(app.ctx, req.params.id)),
  )

  app.post(
    '/projects/:id/applications/:applicationId/approve',
    {
      config: { action: 'project.members' },
      schema: {
        tags,
        summary: 'Approve an application: the applicant becomes a member with the role, in one transaction',
        params: applicationParams,
        body: approveInput,
        response: { 200: envelope(application) },
      },
    },
    async (req) =>
      ok(req, await approveApplication(app.ctx, actor(req), auditActor(req), req.params.id, req.params.applicationId, req.body.roleId)),
  )

  app.post(
    '/projects/:id/applications/:applicationId/refuse',
    {
      config: { action: 'project.members' },
      schema: {
        tags,
        summary: 'Refuse an application with a reason',
        params: applicationParams,
        body: refuseInput,
        response: { 200: envelope(application) },
      },
    },
    async (req) =>
      ok(req, await refuseApplication(app.ctx, actor(req), auditActor(req), req.params.id, req.params.applicationId, req.body.reason)),
  )
}

export default routes
