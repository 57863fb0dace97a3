import { z } from 'zod'

/**
 * What a system role may grant besides screens: a fixed list of verbs per area. The server's
 * policy maps every route action to one of these (server/services/policy.ts); the client hides
 * or disables a command whose permission the user lacks. Areas of later issues (projects,
 * subjects, data loading) are listed now so role grants do not change shape when they land.
 */
export const permissionAreas = {
  dictionary: ['view', 'create', 'edit', 'delete', 'import', 'export'],
  template: ['view', 'create', 'edit', 'delete', 'publish'],
  project: ['view', 'create', 'edit', 'delete', 'approve', 'manageMembers'],
  subject: ['view', 'create', 'edit', 'delete', 'sign', 'export', 'unblind'],
  dataLoad: ['import', 'export'],
  user: ['view', 'create', 'edit', 'delete', 'manage'],
  organization: ['view', 'create', 'edit', 'delete'],
  role: ['view', 'create', 'edit', 'delete'],
  catalog: ['view', 'edit'],
  audit: ['view', 'export'],
} as const

type Areas = typeof permissionAreas
export type PermissionArea = keyof Areas
export type Permission = { [A in PermissionArea]: `${A}.${Areas[A][number]}` }[PermissionArea]

export const permissions: readonly Permission[] = (Object.keys(permissionAreas) as PermissionArea[]).flatMap((area) =>
  permissionAreas[area].map((verb) => `${area}.${verb}` as Permission),
)

export const permissionSchema = z.enum(permissions as [Permission, ...Permission[]])

/** The built-in roles seeded on first start; their grants are data afterwards (but see `sysAdmin`). */
export const builtinRoleKeys = ['sysAdmin', 'researchAdmin', 'researcher', 'dataEntry', 'monitor'] as const
export type BuiltinRoleKey = (typeof builtinRoleKeys)[number]

/**
 * The system administrator holds every screen and permission, always: its grants are not stored
 * and cannot be narrowed, so nobody can lock the whole system out by editing one role.
 */
export const superRoleKey: BuiltinRoleKey = 'sysAdmin'
