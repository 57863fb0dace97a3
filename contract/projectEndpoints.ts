/** The project calls the client makes (contract/projects.ts holds the schemas and paths). */
import { z } from 'zod'
import { endpoint, noData } from './endpoint.ts'
import { idValue } from './ids.ts'
import {
  applicationInput,
  applicationList,
  approveInput,
  candidateList,
  candidateQuery,
  center,
  centerInput,
  centerListQuery,
  centerPage,
  centersUpdate,
  formsUpdate,
  formUpgradeInput,
  memberInput,
  memberList,
  memberRoleInput,
  openProjectList,
  openProjectQuery,
  optionalReasonInput,
  projectBaseUpdate,
  projectCreateInput,
  projectDetail,
  projectHistory,
  projectListQuery,
  projectPage,
  projectPaths as p,
  projectRole,
  projectRoleInput,
  projectRoleList,
  queue,
  queueInput,
  reasonInput,
  refuseInput,
  application,
  member,
} from './projects.ts'

const id = idValue

/** One keyset page of the projects the caller may see; pass the last page's `next` as `after`. */
export const listProjects = endpoint({
  method: 'GET',
  input: projectListQuery.partial().required({ scope: true }),
  output: projectPage,
  request: (query) => ({ path: p.projects, query }),
})

export const listOpenProjects = endpoint({
  method: 'GET',
  input: openProjectQuery,
  output: openProjectList,
  request: (query) => ({ path: p.open, query }),
})

export const getProject = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: projectDetail,
  request: ({ id }) => ({ path: p.project(id) }),
})

/** The wizard's save: project, queues, pinned forms and centers in one transaction. */
export const createProject = endpoint({
  method: 'POST',
  input: projectCreateInput,
  output: projectDetail,
  request: (body) => ({ path: p.projects, body }),
})

/** Refused once the project has research objects: close it instead. */
export const deleteProject = endpoint({
  method: 'DELETE',
  input: z.object({ id }),
  output: noData,
  request: ({ id }) => ({ path: p.project(id) }),
})

export const updateProjectBase = endpoint({
  method: 'PUT',
  input: z.object({ id, base: projectBaseUpdate }),
  output: projectDetail,
  request: ({ id, base }) => ({ path: p.base(id), body: base }),
})

export const addQueue = endpoint({
  method: 'POST',
  input: z.object({ id, queue: queueInput }),
  output: queue,
  request: ({ id, queue }) => ({ path: p.queues(id), body: queue }),
})

export const updateQueue = endpoint({
  method: 'PUT',
  input: z.object({ id, queueId: id, queue: queueInput }),
  output: queue,
  request: ({ id, queueId, queue }) => ({ path: p.queue(id, queueId), body: queue }),
})

/** Refused (409, SPEC §8) while research objects are in the queue. */
export const deleteQueue = endpoint({
  method: 'DELETE',
  input: z.object({ id, queueId: id }),
  output: noData,
  request: ({ id, queueId }) => ({ path: p.queue(id, queueId) }),
})

/** Replaces the set of centers; a center with research objects cannot be removed. */
export const setProjectCenters = endpoint({
  method: 'PUT',
  input: centersUpdate.extend({ id }),
  output: projectDetail,
  request: ({ id, centerIds }) => ({ path: p.centers(id), body: { centerIds } }),
})

export const setProjectForms = endpoint({
  method: 'PUT',
  input: formsUpdate.extend({ id }),
  output: projectDetail,
  request: ({ id, forms }) => ({ path: p.forms(id), body: { forms } }),
})

/** Moves one pinned CRF or question group to a newer published version; logged. */
export const upgradeProjectForm = endpoint({
  method: 'POST',
  input: formUpgradeInput.extend({ id, templateId: id }),
  output: projectDetail,
  request: ({ id, templateId, versionId }) => ({ path: p.formUpgrade(id, templateId), body: { versionId } }),
})

export const getProjectHistory = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: projectHistory,
  request: ({ id }) => ({ path: p.history(id) }),
})

export const submitProject = endpoint({
  method: 'POST',
  input: z.object({ id }),
  output: projectDetail,
  request: ({ id }) => ({ path: p.submit(id) }),
})

export const passProject = endpoint({
  method: 'POST',
  input: z.object({ id }),
  output: projectDetail,
  request: ({ id }) => ({ path: p.pass(id) }),
})

export const unpassProject = endpoint({
  method: 'POST',
  input: reasonInput.extend({ id }),
  output: projectDetail,
  request: ({ id, reason }) => ({ path: p.unpass(id), body: { reason } }),
})

export const closeProject = endpoint({
  method: 'POST',
  input: optionalReasonInput.extend({ id }),
  output: projectDetail,
  request: ({ id, reason }) => ({ path: p.close(id), body: { reason } }),
})

export const listProjectRoles = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: projectRoleList,
  request: ({ id }) => ({ path: p.roles(id) }),
})

export const createProjectRole = endpoint({
  method: 'POST',
  input: z.object({ id, role: projectRoleInput }),
  output: projectRole,
  request: ({ id, role }) => ({ path: p.roles(id), body: role }),
})

export const updateProjectRole = endpoint({
  method: 'PUT',
  input: z.object({ id, roleId: id, role: projectRoleInput }),
  output: projectRole,
  request: ({ id, roleId, role }) => ({ path: p.role(id, roleId), body: role }),
})

/** Refused while members hold the role, and for the manager role. */
export const deleteProjectRole = endpoint({
  method: 'DELETE',
  input: z.object({ id, roleId: id }),
  output: noData,
  request: ({ id, roleId }) => ({ path: p.role(id, roleId) }),
})

export const listMembers = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: memberList,
  request: ({ id }) => ({ path: p.members(id) }),
})

export const addMember = endpoint({
  method: 'POST',
  input: memberInput.extend({ id }),
  output: member,
  request: ({ id, ...body }) => ({ path: p.members(id), body }),
})

export const changeMemberRole = endpoint({
  method: 'PUT',
  input: memberRoleInput.extend({ id, memberId: id }),
  output: member,
  request: ({ id, memberId, roleId }) => ({ path: p.member(id, memberId), body: { roleId } }),
})

/** Refused for the last member holding the manager role. */
export const removeMember = endpoint({
  method: 'DELETE',
  input: z.object({ id, memberId: id }),
  output: noData,
  request: ({ id, memberId }) => ({ path: p.member(id, memberId) }),
})

export const listCandidates = endpoint({
  method: 'GET',
  input: candidateQuery.partial().extend({ id }),
  output: candidateList,
  request: ({ id, ...query }) => ({ path: p.candidates(id), query }),
})

export const applyToProject = endpoint({
  method: 'POST',
  input: applicationInput.extend({ id }),
  output: application,
  request: ({ id, ...body }) => ({ path: p.applications(id), body }),
})

export const listApplications = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: applicationList,
  request: ({ id }) => ({ path: p.applications(id) }),
})

export const listMyApplications = endpoint({
  method: 'GET',
  input: z.object({}),
  output: applicationList,
  request: () => ({ path: p.myApplications }),
})

export const approveApplication = endpoint({
  method: 'POST',
  input: approveInput.extend({ id, applicationId: id }),
  output: application,
  request: ({ id, applicationId, roleId }) => ({ path: p.approve(id, applicationId), body: { roleId } }),
})

export const refuseApplication = endpoint({
  method: 'POST',
  input: refuseInput.extend({ id, applicationId: id }),
  output: application,
  request: ({ id, applicationId, reason }) => ({ path: p.refuse(id, applicationId), body: { reason } }),
})

export const listCenters = endpoint({
  method: 'GET',
  input: centerListQuery.partial(),
  output: centerPage,
  request: (query) => ({ path: p.centerDirectory, query }),
})

export const createCenter = endpoint({
  method: 'POST',
  input: centerInput,
  output: center,
  request: (body) => ({ path: p.centerDirectory, body }),
})

export const updateCenter = endpoint({
  method: 'PUT',
  input: z.object({ id, center: centerInput }),
  output: center,
  request: ({ id, center }) => ({ path: p.center(id), body: center }),
})

/** Refused while a project uses the center. */
export const deleteCenter = endpoint({
  method: 'DELETE',
  input: z.object({ id }),
  output: noData,
  request: ({ id }) => ({ path: p.center(id) }),
})
