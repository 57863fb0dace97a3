import type { ListScope } from '../db/scope.ts'
import type { Actor } from './actor.ts'
import { ServiceError } from './errors.ts'

/**
 * The one place that decides who may do what (after Outline's server/policies): every /api
 * route declares its action in its route config, and the /api guard (server/plugins/auth.ts)
 * calls `authorize` with it before the handler runs. Later issues add roles, projects and centers
 * by changing the rules below, never the routes.
 *
 * Closed by default: an action without a rule is refused, and so is any action for a caller
 * who is not signed in.
 */

/** The kinds of thing an action is done to; the first part of an action's name. */
export const resourceTypes = ['account', 'disease', 'timeline', 'indicator', 'template', 'dictionary', 'audit'] as const
export type ResourceType = (typeof resourceTypes)[number]

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
  'audit.list',
  'audit.export',
] as const satisfies readonly `${ResourceType}.${string}`[]
export type Action = (typeof actions)[number]

/** What an action is done to: its type, and its id when the request names one. */
export interface Resource {
  type: ResourceType
  id?: number
}

type Rule = (actor: Actor, resource: Resource) => boolean

/**
 * SPEC §6: today every signed-in user is effectively an administrator. The roles issue replaces
 * this rule action by action.
 */
const anySignedInUser: Rule = () => true

/** Account actions act on one's own account only; the services check the ids the body names. */
const ownAccount: Rule = (actor, resource) => resource.id === undefined || resource.id === actor.user.id

const rules: Record<Action, Rule> = {
  'account.read': ownAccount,
  'account.logout': ownAccount,
  'account.changePassword': ownAccount,
  'disease.list': anySignedInUser,
  'disease.read': anySignedInUser,
  'disease.create': anySignedInUser,
  'disease.update': anySignedInUser,
  'disease.delete': anySignedInUser,
  'timeline.list': anySignedInUser,
  'indicator.list': anySignedInUser,
  'indicator.read': anySignedInUser,
  'indicator.create': anySignedInUser,
  'indicator.update': anySignedInUser,
  'indicator.delete': anySignedInUser,
  'template.list': anySignedInUser,
  'template.read': anySignedInUser,
  'template.create': anySignedInUser,
  'template.update': anySignedInUser,
  'template.delete': anySignedInUser,
  'template.publish': anySignedInUser,
  'dictionary.import': anySignedInUser,
  'dictionary.export': anySignedInUser,
  'audit.list': anySignedInUser,
  'audit.export': anySignedInUser,
}

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
  return rules[action](actor, resource ?? { type: resourceTypeOf(action) })
}

/** `can`, or a 403 the caller reads in their language. */
export function authorize(actor: Actor | null, action: string, resource?: Resource): asserts actor is Actor {
  if (!can(actor, action, resource)) throw new ServiceError('forbidden', 'error.forbidden')
}

/**
 * The rows of a list action the actor may see, for the repository to put inside the list's SQL
 * (server/db/scope.ts). Nothing when the action itself is refused. Dictionary lists are global,
 * so today any permitted list sees all rows; project lists will answer their projects here.
 */
export function listScope(actor: Actor | null, action: Action): ListScope {
  return can(actor, action) ? { kind: 'all' } : { kind: 'none' }
}
