import { z } from 'zod'
import { idParam, idValue } from './ids.ts'
import { envelope, emptyEnvelope } from './envelope.ts'
import { passwordMaxLength } from './password.ts'
import { catalogEntry } from './catalog.ts'
import { permissionSchema } from './permissions.ts'

/** Usernames: what an administrator can type, no markup; the server trims. */
export const usernameMaxLength = 64
/** Letters (any script), digits and . _ @ -: no quotes, brackets, spaces or semicolons. */
export const usernamePattern = /^[\p{L}\p{N}._@-]+$/u

export const loginBody = z.object({
  username: z.string().trim().min(1).max(usernameMaxLength).regex(usernamePattern),
  password: z.string().min(1).max(passwordMaxLength),
  platform: z.union([z.string().max(32), z.number().int()]).optional(),
})
export type LoginBody = z.infer<typeof loginBody>

export const loginData = z.object({
  token: z.string(),
  userId: z.number().int(),
  expiresAt: z.string(),
  /** An administrator set the password: every call but the password change is refused until it changes. */
  mustChangePassword: z.boolean(),
})
export const loginResponse = envelope(loginData)
export type LoginData = z.infer<typeof loginData>

export const tokenQuery = z.object({
  token: z.string().max(256).optional(),
})

export const userInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string(),
  image: z.string(),
  description: z.string(),
  /** Names of the user's system roles, in the caller's language. */
  roles: z.array(z.string()),
  mustChangePassword: z.boolean(),
})
export type UserInfo = z.infer<typeof userInfo>
export const userInfoResponse = envelope(userInfo)

/**
 * GET api/admin/user/front/permissions: what this user's roles grant: the screens they may open
 * (contract/screens.ts names), the permissions buttons and commands check, and the catalog the
 * sidebar, breadcrumb and palette are drawn from.
 */
export const permissionsData = z.object({
  screens: z.array(z.string()),
  permissions: z.array(permissionSchema),
  catalog: z.array(catalogEntry),
})
export type PermissionsData = z.infer<typeof permissionsData>
export const permissionsResponse = envelope(permissionsData)

export const logoutQuery = z.object({
  token: z.string().max(256).optional(),
  userId: idParam.optional(),
})
export const logoutResponse = emptyEnvelope

export const changePwdBody = z.object({
  id: idValue,
  oldPwd: z.string().max(passwordMaxLength),
  password: z.string().max(passwordMaxLength),
})
export type ChangePwdBody = z.infer<typeof changePwdBody>
export const changePwdResponse = emptyEnvelope
