import { z } from 'zod'
import { usernameMaxLength, usernamePattern } from './auth.ts'
import { envelope } from './envelope.ts'
import { idParam, idValue, integerParam } from './ids.ts'
import { mobilePhonePattern } from './phone.ts'

/**
 * People, their accounts and the administrator's actions on them (issue 8 items 1 and 4), and the
 * picture field of SPEC §2 / §5 (the user's avatar). Lists are keyset-paged with an opaque cursor
 * (DESIGN §6), sorted and filtered on the server.
 */

export const userPaths = {
  users: 'api/admin/users',
  user: (id: number) => `api/admin/users/${id}`,
  userStatus: (id: number) => `api/admin/users/${id}/status`,
  userRoles: (id: number) => `api/admin/users/${id}/roles`,
  accounts: 'api/admin/accounts',
  resetPassword: (id: number) => `api/admin/accounts/${id}/reset-password`,
  lock: (id: number) => `api/admin/accounts/${id}/lock`,
  unlock: (id: number) => `api/admin/accounts/${id}/unlock`,
  accountStatus: (id: number) => `api/admin/accounts/${id}/status`,
  pictureUpload: 'api/admin/picture/upload',
  pictureDelete: 'api/admin/picture/delete',
  /** The roles a person can be given (the role picker), named in the caller's language. */
  /** A stored file by its SHA-256; the picture field's `path` is this. */
  file: (hash: string) => `api/admin/files/${hash}`,
} as const

/** 1 active (enabled), 0 disabled: people and accounts alike. */
export const statusValue = z.union([z.literal(0), z.literal(1)])
const statusParam = integerParam(statusValue)

export const userNameMax = 64
export const userDescriptionMax = 500

/** `department` and `career` group people by the record (its id, none first), as their indexes hold them. */
export const userSortKeys = ['name', 'created', 'department', 'career'] as const
export type UserSortKey = (typeof userSortKeys)[number]

const cursor = z.string().max(500).optional()
const limit = integerParam(z.number().int().min(1).max(1000)).default(50)
const order = z.enum(['asc', 'desc']).default('asc')

export const userListQuery = z.object({
  /** Prefix of the name, of a username (any case) or of the mobile number. */
  q: z.string().trim().max(64).optional(),
  departmentId: idParam.optional(),
  /** With departmentId: its sub-departments' people too. */
  subDepartments: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  careerId: idParam.optional(),
  status: statusParam.optional(),
  roleId: idParam.optional(),
  sort: z.enum(userSortKeys).default('name'),
  order,
  /** The `next` of the previous page. */
  after: cursor,
  limit,
})
export type UserListQuery = z.infer<typeof userListQuery>

export const userRow = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The picture field's path ('' when none). */
  image: z.string(),
  departmentId: z.number().int().nullable(),
  department: z.string().nullable(),
  careerId: z.number().int().nullable(),
  career: z.string().nullable(),
  mobile: z.string(),
  email: z.string(),
  status: z.number().int(),
  roles: z.array(z.object({ id: z.number().int(), name: z.string(), builtin: z.string().nullable() })),
  usernames: z.array(z.string()),
  createdAt: z.string(),
})
export type UserRow = z.infer<typeof userRow>

export const userPage = z.object({
  rows: z.array(userRow),
  next: z.string().nullable(),
  total: z.number().int(),
})
export type UserPage = z.infer<typeof userPage>

export const userDetail = userRow.extend({
  description: z.string(),
  updatedAt: z.string(),
})
export type UserDetail = z.infer<typeof userDetail>

const optionalText = (max: number) => z.string().trim().max(max).default('')

/** What a create and an edit both take. */
export const userInput = z.object({
  name: z.string().trim().min(1).max(userNameMax),
  departmentId: idValue.nullable().default(null),
  careerId: idValue.nullable().default(null),
  /** SPEC §5 mobile phone, or empty. */
  mobile: z
    .string()
    .trim()
    .max(16)
    .default('')
    .refine((v) => v === '' || mobilePhonePattern.test(v)),
  email: z.union([z.literal(''), z.email().max(254)]).default(''),
  description: optionalText(userDescriptionMax),
  status: statusValue.default(1),
})
export type UserInput = z.infer<typeof userInput>

export const platformMax = 32

export const createUserBody = userInput.extend({
  username: z.string().trim().min(1).max(usernameMaxLength).regex(usernamePattern),
  platform: z.string().trim().min(1).max(platformMax).default('web'),
  roleIds: z.array(idValue).max(50).default([]),
})
export type CreateUserBody = z.infer<typeof createUserBody>

/** A password the administrator reads once: it is never stored in clear, logged or audited. */
export const oneTimePassword = z.object({
  userId: z.number().int(),
  accountId: z.number().int(),
  username: z.string(),
  password: z.string(),
})
export type OneTimePassword = z.infer<typeof oneTimePassword>

export const statusBody = z.object({ status: statusValue })
export type StatusBody = z.infer<typeof statusBody>

/** Replaces the set of roles. */
export const rolesBody = z.object({ roleIds: z.array(idValue).max(50) })
export type RolesBody = z.infer<typeof rolesBody>

/** Without `until`: locked until an administrator unlocks it. */
export const lockBody = z.object({ until: z.iso.datetime({ offset: true }).optional() })
export type LockBody = z.infer<typeof lockBody>
/** What a lock without a time stores: far enough to mean "until unlocked". */
export const lockedForever = '9999-12-31T23:59:59.999Z'

export const accountSortKeys = ['username', 'lastLogin'] as const
export type AccountSortKey = (typeof accountSortKeys)[number]

export const accountListQuery = z.object({
  /** Prefix of the username, any case. */
  q: z.string().trim().max(64).optional(),
  userId: idParam.optional(),
  status: statusParam.optional(),
  sort: z.enum(accountSortKeys).default('username'),
  order,
  after: cursor,
  limit,
})
export type AccountListQuery = z.infer<typeof accountListQuery>

export const accountRow = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userName: z.string(),
  username: z.string(),
  platform: z.string(),
  status: z.number().int(),
  lockedUntil: z.string().nullable(),
  lastLoginAt: z.string().nullable(),
  lastLoginIp: z.string().nullable(),
  mustChangePassword: z.boolean(),
  createdAt: z.string(),
})
export type AccountRow = z.infer<typeof accountRow>

export const accountPage = z.object({
  rows: z.array(accountRow),
  next: z.string().nullable(),
  total: z.number().int(),
})
export type AccountPage = z.infer<typeof accountPage>

// ---------------------------------------------------------------------------------------------
// The picture field (SPEC §2, §5 Image upload, §9): type 3 is a user's avatar.

export const pictureTypes = { userAvatar: 3 } as const
export const pictureLimits = {
  /** SPEC §9: 5 MB (upload default 5120 KB). */
  maxBytes: 5 * 1024 * 1024,
  /** SPEC §5: jpeg, jpg, png, bmp (the file picker's filter; the server checks the content). */
  accept: 'image/jpeg,image/png,image/bmp,.jpeg,.jpg,.png,.bmp',
} as const

export const pictureQuery = z.object({
  type: integerParam(z.literal(pictureTypes.userAvatar)),
  objectId: idParam,
  token: z.string().max(256).optional(),
})
export const pictureDeleteBody = z.object({
  type: z.literal(pictureTypes.userAvatar),
  objectId: idValue,
})
export const picturePath = z.object({ path: z.string() })

export const fileParams = z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/) })

export const userPageResponse = envelope(userPage)
export const userDetailResponse = envelope(userDetail)
export const oneTimePasswordResponse = envelope(oneTimePassword)
export const accountPageResponse = envelope(accountPage)
export const accountResponse = envelope(accountRow)
export const picturePathResponse = envelope(picturePath)
