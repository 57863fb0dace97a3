import type { Permission } from '../../contract/permissions.ts'
import type { ListScope } from '../db/scope.ts'
import type { ProjectAuthority } from '../../contract/projects.ts'
import type { Actor, Membership } from './actor.ts'
import { ServiceError } from './errors.ts'

/**
 * The one place that decides who may do what (after Outline's server/policies): every /api
 * route declares its action in its route config, and the /api guard (server/plugins/auth.ts)
 * calls `authorize` with it before the handler runs. Most actions need one permission that a
 * system role grants (contract/permissions.ts); projects and centers are added by changing the
 * rules below, never the routes.
 *
 * Closed by default: an action without a rule is refused, and so is any action for a caller
 * who is not signed in.
 */

/** The kinds of thing an action is done to; the first part of an action's name. */
export const resourceTypes = [
  'account',
  'disease',
  'timeline',
  'indicator',
  'template',
  'dictionary',
  'user',
  'department',
  'career',
  'role',
  'catalog',
  'audit',
  'project',
  'center',
  'subject',
  'dataLoad',
] as const
export type ResourceType = (typeof resourceTypes)[number]

/** What a route does (its `config.action`). Each maps to a rule below, most to one permission a role grants. */
export const actions = [
  'account.read',
  'account.logout',
  'account.changePassword',
  'disease.list',
  'disease.read',
  'disease.create',
  'disease.update',
  'disease.delete',
  'timeline.list',
  'indicator.list',
  'indicator.read',
  'indicator.create',
  'indicator.update',
  'indicator.delete',
  'template.list',
  'template.read',
  'template.create',
  'template.update',
  'template.delete',
  'template.publish',
  'dictionary.import',
  'dictionary.export',
  'user.list',
  'user.read',
  'user.create',
  'user.update',
  'user.delete',
  'user.avatar',
  'user.resetPassword',
  'user.lock',
  'user.disable',
  'user.assignRoles',
  'department.list',
  'department.create',
  'department.update',
  'department.delete',
  'career.list',
  'career.create',
  'career.update',
  'career.delete',
  'role.list',
  'role.read',
  'role.create',
  'role.update',
  'role.delete',
  'catalog.list',
  'catalog.update',
  'audit.list',
  'audit.export',
  'project.list',
  'project.open',
  'project.read',
  'project.create',
  'project.update',
  'project.delete',
  'project.close',
  'project.submit',
  'project.approve',
  'project.members',
  'project.apply',
  'project.myApplications',
  'project.randomizationRead',
  'project.randomizationUpdate',
  'center.list',
  'center.create',
  'center.update',
  'center.delete',
  'subject.buttonAuthority',
  'subject.groupList',
  'subject.centerList',
  'subject.enrol',
  'subject.list',
  'subject.read',
  'subject.enter',
  'subject.deleteForm',
  'subject.sign',
  'subject.unblind',
  'subject.sampleWrite',
  'subject.sampleDelete',
  'subject.followUp',
  'project.visitPlanUpdate',
  'project.progress',
  'dataLoad.crfs',
  'dataLoad.template',
  'dataLoad.upload',
  'dataLoad.download',
  'dataLoad.records',
] as const satisfies readonly `${ResourceType}.${string}`[]
export type Action = (typeof actions)[number]

/**
 * What an action is done to: its type, and its id when the request names one (for project and
 * subject actions, the project's id). `preflight`: the guard's check before any input is read,
 * which can only ask whether the actor's grants could allow the action at all.
 */
export interface Resource {
  type: ResourceType
  id?: number
  preflight?: boolean
}

type Rule = (actor: Actor, resource: Resource) => boolean

/** Holds the permission through one of their roles; the system administrator holds all. */
export const holds = (actor: Actor, permission: Permission): boolean => actor.superuser || actor.permissions.has(permission)

const granted =
  (...any: Permission[]): Rule =>
  (actor) =>
    any.some((p) => holds(actor, p))

/** Account actions act on one's own account only; the services check the ids the body names. */
const ownAccount: Rule = (actor, resource) => resource.id === undefined || resource.id === actor.user.id

/** One's own avatar, or anyone's with the right to edit users. */
const ownUserOr =
  (permission: Permission): Rule =>
  (actor, resource) =>
    resource.id === actor.user.id || holds(actor, permission)

/** The actor's membership of the project, if any. */
export const membershipOf = (actor: Actor, projectId: number): Membership | undefined => actor.memberships.get(projectId)

/** Whether the actor may see subjects' randomization groups: the administrator and unblinded members. */
export const seesGroups = (actor: Actor, projectId: number): boolean => actor.superuser || membershipOf(actor, projectId)?.blinded === false

/**
 * A call inside one project: the system permission (any of `permission`), and in that project a
 * membership whose project role holds `authority` (any membership when null). The system
 * administrator needs no membership. Without a project id it is refused: a project call that
 * names no project must not fall back to the permission alone.
 */
const inProject =
  (authority: ProjectAuthority | null, ...permission: Permission[]): Rule =>
  (actor, resource) => {
    if (!permission.some((p) => holds(actor, p))) return false
    if (resource.preflight) return true
    if (resource.id === undefined) return false
    if (actor.superuser) return true
    const m = membershipOf(actor, resource.id)
    return m !== undefined && (authority === null || m.authorities.has(authority))
  }

/** Allowed when any of the rules allows. */
const anyOf =
  (...options: Rule[]): Rule =>
  (actor, resource) =>
    options.some((rule) => rule(actor, resource))

/** Reading a project: its members, and auditors (who pass projects they are not members of). */
const readsProject: Rule = anyOf(
  inProject(null, 'project.view'),
  (actor, resource) => holds(actor, 'project.approve') && (resource.preflight === true || resource.id !== undefined),
)

const rules: Record<Action, Rule> = {
  'account.read': ownAccount,
  'account.logout': ownAccount,
  'account.changePassword': ownAccount,
  'disease.list': granted('dictionary.view', 'template.view'),
  'disease.read': granted('dictionary.view', 'template.view'),
  'disease.create': granted('dictionary.create'),
  'disease.update': granted('dictionary.edit'),
  'disease.delete': granted('dictionary.delete'),
  'timeline.list': granted('dictionary.view', 'template.view'),
  'indicator.list': granted('dictionary.view', 'template.view'),
  'indicator.read': granted('dictionary.view', 'template.view'),
  'indicator.create': granted('dictionary.create'),
  'indicator.update': granted('dictionary.edit'),
  'indicator.delete': granted('dictionary.delete'),
  'template.list': granted('template.view'),
  'template.read': granted('template.view'),
  'template.create': granted('template.create'),
  'template.update': granted('template.edit'),
  'template.delete': granted('template.delete'),
  'template.publish': granted('template.publish'),
  'dictionary.import': granted('dictionary.import'),
  'dictionary.export': granted('dictionary.export'),
  'user.list': granted('user.view'),
  'user.read': granted('user.view'),
  'user.create': granted('user.create'),
  'user.update': granted('user.edit'),
  'user.delete': granted('user.delete'),
  'user.avatar': ownUserOr('user.edit'),
  'user.resetPassword': granted('user.manage'),
  'user.lock': granted('user.manage'),
  'user.disable': granted('user.manage'),
  'user.assignRoles': granted('user.manage'),
  // Users are filed under departments and careers: whoever sees users sees those lists.
  'department.list': granted('organization.view', 'user.view'),
  'department.create': granted('organization.create'),
  'department.update': granted('organization.edit'),
  'department.delete': granted('organization.delete'),
  'career.list': granted('organization.view', 'user.view'),
  'career.create': granted('organization.create'),
  'career.update': granted('organization.edit'),
  'career.delete': granted('organization.delete'),
  // Assigning roles needs their list.
  'role.list': granted('role.view', 'user.manage'),
  'role.read': granted('role.view', 'user.manage'),
  'role.create': granted('role.create'),
  'role.update': granted('role.edit'),
  'role.delete': granted('role.delete'),
  'catalog.list': granted('catalog.view'),
  'catalog.update': granted('catalog.edit'),
  'audit.list': granted('audit.view'),
  'audit.export': granted('audit.export'),
  // Whoever works with research objects may ask which of their buttons apply.
  'subject.buttonAuthority': granted('subject.view', 'project.view'),
  // Projects: a system permission and, inside a project, the member's project role.
  'project.list': granted('project.view', 'project.approve'),
  'project.open': granted('project.view'),
  'project.read': readsProject,
  'project.create': granted('project.create'),
  'project.update': inProject('configure', 'project.edit'),
  'project.delete': inProject('configure', 'project.delete'),
  'project.close': inProject('configure', 'project.edit'),
  'project.submit': inProject('configure', 'project.edit'),
  // Auditors pass or unpass projects they are not members of.
  'project.approve': (actor, resource) => holds(actor, 'project.approve') && (resource.preflight === true || resource.id !== undefined),
  'project.members': inProject('manageMembers', 'project.manageMembers'),
  'project.apply': granted('project.view'),
  'project.myApplications': granted('project.view'),
  'project.randomizationRead': inProject(null, 'project.view'),
  'project.randomizationUpdate': inProject('configure', 'project.edit'),
  // The center directory serves every project: whoever sets up projects keeps it.
  'center.list': granted('project.view', 'project.create', 'project.edit', 'organization.view'),
  'center.create': granted('project.create', 'project.edit', 'organization.create'),
  'center.update': granted('project.edit', 'organization.edit'),
  'center.delete': granted('organization.delete', 'project.delete'),
  'subject.groupList': inProject(null, 'subject.view', 'project.view'),
  'subject.centerList': inProject(null, 'subject.view', 'project.view'),
  'subject.enrol': inProject('enrol', 'subject.create'),
  // Research objects and their data (issue 10): the project role's queues and centers narrow
  // every list and lookup inside the SQL (projectScope); these rules decide the call itself.
  'subject.list': inProject(null, 'subject.view'),
  'subject.read': inProject(null, 'subject.view'),
  // Entering data; changing a value already saved also needs the role's editData (the service checks).
  'subject.enter': inProject('enterData', 'subject.edit'),
  'subject.deleteForm': inProject('delete', 'subject.delete'),
  'subject.sign': inProject('sign', 'subject.sign'),
  'subject.unblind': inProject('unblind', 'subject.unblind'),
  'subject.sampleWrite': inProject('enterData', 'subject.edit'),
  'subject.sampleDelete': inProject('delete', 'subject.delete'),
  'subject.followUp': inProject(null, 'subject.view'),
  'project.visitPlanUpdate': inProject('configure', 'project.edit'),
  'project.progress': inProject(null, 'project.view', 'subject.view'),
  // Loading writes entered data; the service also checks enrol for new subjects and editData for changes.
  // Both sides choose among the project's CRFs: who loads data and who downloads it.
  'dataLoad.crfs': anyOf(inProject('enterData', 'dataLoad.import'), inProject('export', 'dataLoad.export')),
  'dataLoad.template': inProject('enterData', 'dataLoad.import'),
  'dataLoad.upload': inProject('enterData', 'dataLoad.import'),
  'dataLoad.download': inProject('export', 'dataLoad.export'),
  // Each record list and re-fetch is narrowed by the service: uploads to importers, downloads to exporters.
  'dataLoad.records': inProject(null, 'dataLoad.import', 'dataLoad.export'),
}

/** Actions decided on a project membership: the guard reads the actor's memberships for them. */
export function needsMemberships(action: Action): boolean {
  const type = resourceTypeOf(action)
  return type === 'project' || type === 'subject' || type === 'dataLoad'
}

/** Until an administrator-set password is changed, only these run (the change-password dialog needs them). */
const beforePasswordChange: ReadonlySet<Action> = new Set(['account.read', 'account.logout', 'account.changePassword'])

export function isAction(name: string): name is Action {
  return Object.hasOwn(rules, name)
}

/** The resource type an action is done to: the part of its name before the dot. */
export function resourceTypeOf(action: Action): ResourceType {
  return action.slice(0, action.indexOf('.')) as ResourceType
}

/** Whether the actor may do the action; an unknown action or no actor is always refused. */
export function can(actor: Actor | null, action: string, resource?: Resource): boolean {
  if (!actor || !isAction(action)) return false
  if (actor.account.must_change_password === 1 && !beforePasswordChange.has(action)) return false
  return rules[action](actor, resource ?? { type: resourceTypeOf(action) })
}

/** `can`, or a 403 the caller reads in their language. */
export function authorize(actor: Actor | null, action: string, resource?: Resource): asserts actor is Actor {
  if (can(actor, action, resource)) return
  if (actor?.account.must_change_password === 1 && isAction(action) && !beforePasswordChange.has(action)) {
    throw new ServiceError('forbidden', 'auth.mustChangePassword')
  }
  throw new ServiceError('forbidden', 'error.forbidden')
}

/**
 * The rows of a list action the actor may see, for the repository to put inside the list's SQL
 * (server/db/scope.ts). Nothing when the action itself is refused. Dictionary lists are global,
 * so today any permitted list sees all rows; project lists will answer their projects here.
 */
export function listScope(actor: Actor | null, action: Action): ListScope {
  if (!actor || !can(actor, action, { type: resourceTypeOf(action), preflight: true })) return { kind: 'none' }
  if (action === 'project.list' && !actor.superuser) {
    // Auditors also see every project that has been submitted to audit.
    return { kind: 'memberOf', userId: actor.user.id, statuses: holds(actor, 'project.approve') ? ['auditing', 'active', 'closed'] : [] }
  }
  return { kind: 'all' }
}

/**
 * The rows of one project the actor may see in a list of that project (queues, centers, research
 * objects): the queues and centers their project role grants. Nothing unless `action` is allowed
 * on the project.
 */
export function projectScope(actor: Actor | null, action: Action, projectId: number): ListScope {
  if (!actor || !can(actor, action, { type: resourceTypeOf(action), id: projectId })) return { kind: 'none' }
  const m = membershipOf(actor, projectId)
  if (actor.superuser || !m) return { kind: 'project', projectId, queueIds: null, centerIds: null }
  return { kind: 'project', projectId, queueIds: m.queueIds, centerIds: m.centerIds }
}
