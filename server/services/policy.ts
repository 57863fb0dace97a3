import type { Permission } from '../../contract/permissions.ts'
import type { ListScope } from '../db/scope.ts'
import type { Actor } from './actor.ts'
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
  'subject',
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
  'subject.buttonAuthority',
] as const satisfies readonly `${ResourceType}.${string}`[]
export type Action = (typeof actions)[number]

/** What an action is done to: its type, and its id when the request names one. */
export interface Resource {
  type: ResourceType
  id?: number
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
  return can(actor, action) ? { kind: 'all' } : { kind: 'none' }
}
