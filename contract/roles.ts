import { z } from 'zod'
import { envelope } from './envelope.ts'
import { permissionSchema } from './permissions.ts'

/**
 * System roles and their grants (issue 8 item 2): screens of the catalog and permissions of
 * contract/permissions.ts. The system administrator role holds everything; its grants are not
 * stored and cannot be edited.
 */

export const rolePaths = {
  roles: 'api/admin/roles',
  role: (id: number) => `api/admin/roles/${id}`,
} as const

export const roleNameMax = 64
export const roleRemarksMax = 500

export const roleSummary = z.object({
  id: z.number().int(),
  nameZh: z.string(),
  nameEn: z.string(),
  remarks: z.string(),
  /** The key of a built-in role (contract/permissions.ts builtinRoleKeys), null for others. */
  builtin: z.string().nullable(),
  /** The system administrator: holds every screen and permission, grants not editable. */
  superuser: z.boolean(),
  screenCount: z.number().int(),
  permissionCount: z.number().int(),
  userCount: z.number().int(),
})
export type RoleSummary = z.infer<typeof roleSummary>

export const roleList = z.object({ items: z.array(roleSummary) })
export type RoleList = z.infer<typeof roleList>

export const roleDetail = roleSummary.extend({
  screens: z.array(z.string()),
  permissions: z.array(permissionSchema),
})
export type RoleDetail = z.infer<typeof roleDetail>

/**
 * What an administrator edits. Grants are replaced as a set; names are checked by the server so
 * an unknown screen or permission is refused by name. On update, absent grants stay as they are.
 */
export const roleInput = z.object({
  nameZh: z.string().trim().min(1).max(roleNameMax),
  nameEn: z.string().trim().max(roleNameMax).default(''),
  remarks: z.string().trim().max(roleRemarksMax).default(''),
  screens: z.array(z.string().max(64)).max(500).optional(),
  permissions: z.array(z.string().max(64)).max(500).optional(),
})
export type RoleInput = z.infer<typeof roleInput>

export const roleListResponse = envelope(roleList)
export const roleResponse = envelope(roleDetail)
