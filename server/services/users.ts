import type {
  CreateUserBody,
  OneTimePassword,
  UserDetail,
  UserInput,
  UserListQuery,
  UserPage,
  UserRow,
  UserSortKey,
} from '../../contract/users.ts'
import { accountsOfUser, findAccountByUsername } from '../db/repositories/accounts.ts'
import { isUniqueViolation } from '../db/errors.ts'
import { rolesOfUsers, replaceUserRoles } from '../db/repositories/roles.ts'
import { endSessionsOfAccounts } from '../db/repositories/sessions.ts'
import {
  careerExists,
  countUserRows,
  deleteUserRow,
  departmentExists,
  departmentParents,
  findUserListRow,
  insertUserWithAccount,
  listUserRows,
  updateUserRow,
  takesPartInStudies,
  usernamesOfUsers,
  type UserFilter,
  type UserListRow,
} from '../db/repositories/users.ts'
import type { HeldRole } from '../db/repositories/roles.ts'
import type { Q } from '../db/query.ts'
import type { Lang } from '../i18n/messages.ts'
import { audit } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'
import { decodeCursor, encodeCursor } from './keysetCursor.ts'
import { hashPassword, randomPassword } from './passwordHash.ts'
import { holds } from './policy.ts'
import { assertMayActOn, assertMayGrant, denied, keepingAnAdmin, type Admin } from './userRules.ts'

/**
 * People (issue 8 item 1) and the administrator's actions on a person (item 4): the list, one
 * person, create with a one-time password, edit, disable and enable, delete, assign roles.
 */

const numericSort: ReadonlySet<UserSortKey> = new Set(['department', 'career'])

function sortValue(r: UserListRow, sort: UserSortKey): string {
  switch (sort) {
    case 'name':
      return r.name
    case 'created':
      return r.created_at
    case 'department':
      return String(r.department_id ?? 0)
    case 'career':
      return String(r.career_id ?? 0)
  }
}

function toRow(r: UserListRow, roles: readonly HeldRole[], usernames: readonly string[], lang: Lang): UserRow {
  return {
    id: r.id,
    name: r.name,
    image: r.image,
    departmentId: r.department_id,
    department: r.department,
    careerId: r.career_id,
    career: r.career,
    mobile: r.mobile,
    email: r.email,
    status: r.status,
    roles: roles.map((h) => ({ id: h.id, name: lang === 'en' ? h.nameEn : h.nameZh, builtin: h.builtin })),
    usernames: [...usernames],
    createdAt: r.created_at,
  }
}

/** The department and every department under it. */
async function withSubDepartments(db: Q, id: number): Promise<number[]> {
  const all = await departmentParents(db)
  const out = [id]
  for (let i = 0; i < out.length; i++) for (const d of all) if (d.parent_id === out[i] && !out.includes(d.id)) out.push(d.id)
  return out
}

export async function listUsers(ctx: ServiceContext, q: UserListQuery, lang: Lang): Promise<UserPage> {
  const filter: UserFilter = {
    q: q.q === '' ? undefined : q.q,
    departmentIds:
      q.departmentId === undefined ? undefined : q.subDepartments ? await withSubDepartments(ctx.db, q.departmentId) : [q.departmentId],
    careerId: q.careerId,
    status: q.status,
    roleId: q.roleId,
  }
  const decoded = q.after === undefined ? null : decodeCursor(q.after)
  if (decoded && numericSort.has(q.sort) && !/^\d{1,10}$/.test(decoded[0])) throw new ServiceError('badRequest', 'field.invalid', ['after'])
  const after = decoded && numericSort.has(q.sort) ? ([Number(decoded[0]), decoded[1]] as const) : decoded
  // One row more than asked tells whether a next page exists.
  const rows = await listUserRows(ctx.db, { filter, sort: q.sort, order: q.order, after, limit: q.limit + 1 })
  const more = rows.length > q.limit
  const page = more ? rows.slice(0, q.limit) : rows
  const ids = page.map((r) => r.id)
  const [roles, usernames, total] = await Promise.all([
    rolesOfUsers(ctx.db, ids),
    usernamesOfUsers(ctx.db, ids),
    countUserRows(ctx.db, filter),
  ])
  const last = page[page.length - 1]
  return {
    rows: page.map((r) => toRow(r, roles.get(r.id) ?? [], usernames.get(r.id) ?? [], lang)),
    next: more && last ? encodeCursor(sortValue(last, q.sort), last.id) : null,
    total,
  }
}

async function mustFind(db: Q, id: number): Promise<UserListRow> {
  const row = await findUserListRow(db, id)
  if (!row) throw new ServiceError('notFound', 'user.notFound', [id])
  return row
}

export async function getUser(ctx: ServiceContext, id: number, lang: Lang): Promise<UserDetail> {
  const row = await mustFind(ctx.db, id)
  const [roles, usernames] = await Promise.all([rolesOfUsers(ctx.db, [id]), usernamesOfUsers(ctx.db, [id])])
  return { ...toRow(row, roles.get(id) ?? [], usernames.get(id) ?? [], lang), description: row.description, updatedAt: row.updated_at }
}

/** Department and career must exist: a 400 naming the missing one. */
async function assertReferences(db: Q, input: UserInput): Promise<void> {
  if (input.departmentId !== null && !(await departmentExists(db, input.departmentId))) {
    throw new ServiceError('badRequest', 'user.departmentMissing', [input.departmentId])
  }
  if (input.careerId !== null && !(await careerExists(db, input.careerId))) {
    throw new ServiceError('badRequest', 'user.careerMissing', [input.careerId])
  }
}

const profileOf = (input: UserInput) => ({
  department_id: input.departmentId,
  career_id: input.careerId,
  mobile: input.mobile,
  email: input.email,
  description: input.description,
})

/**
 * A person with one account and a one-time password, answered once: only its scrypt hash is
 * stored, and neither the log nor the audit row holds it. The account must change it first.
 */
export async function createUser(ctx: ServiceContext, admin: Admin, body: CreateUserBody): Promise<OneTimePassword> {
  await assertMayGrant(ctx, admin, 'user.create', null, body.roleIds)
  await assertReferences(ctx.db, body)
  const exists = () => new ServiceError('conflict', 'user.exists', [body.username])
  if (await findAccountByUsername(ctx.db, body.username)) throw exists()
  const password = randomPassword()
  const passwordHash = await hashPassword(password)
  const now = ctx.now().toISOString()
  try {
    const ids = await ctx.db.transaction().execute(async (trx) => {
      const created = await insertUserWithAccount(trx, {
        name: body.name,
        username: body.username,
        platform: body.platform,
        profile: profileOf(body),
        passwordHash,
        roleIds: [...new Set(body.roleIds)],
        mustChangePassword: true,
        status: body.status,
        now,
      })
      await audit(
        trx,
        admin.who,
        'user.create',
        'ok',
        ctx.now(),
        { username: body.username, roleIds: body.roleIds },
        { type: 'user', id: created.userId },
      )
      return created
    })
    return { ...ids, username: body.username, password }
  } catch (err) {
    // Another request took the name between the check and the insert.
    if (isUniqueViolation(err)) throw exists()
    throw err
  }
}

/** Name, department, career, contact, description; a status change is the disable action's. */
export async function updateUser(ctx: ServiceContext, admin: Admin, id: number, input: UserInput, lang: Lang): Promise<UserDetail> {
  const current = await mustFind(ctx.db, id)
  const object = { type: 'user', id } as const
  if (input.status !== current.status && !holds(admin.actor, 'user.manage')) {
    throw await denied(ctx, admin, 'user.update', object, 'status', new ServiceError('forbidden', 'error.forbidden'))
  }
  if (input.status !== current.status) await assertMayActOn(ctx, admin, 'user.update', id)
  await assertReferences(ctx.db, input)
  await keepingAnAdmin(ctx, admin, 'user.update', object, async (trx, now) => {
    await updateUserRow(trx, id, { name: input.name, ...profileOf(input), status: input.status, updated_at: now })
    if (input.status === 0 && current.status !== 0) await endAllSessions(trx, id, now, 'userDisabled')
    await audit(trx, admin.who, 'user.update', 'ok', ctx.now(), { status: input.status }, object)
  })
  return getUser(ctx, id, lang)
}

async function endAllSessions(trx: Q, userId: number, now: string, reason: string): Promise<void> {
  const accounts = await accountsOfUser(trx, userId)
  await endSessionsOfAccounts(
    trx,
    accounts.map((a) => a.id),
    now,
    reason,
  )
}

/** Disabling a person ends every session of every account at once: the next call answers 50012. */
export async function setUserStatus(ctx: ServiceContext, admin: Admin, id: number, status: 0 | 1): Promise<void> {
  await mustFind(ctx.db, id)
  const action = status === 0 ? 'user.disable' : 'user.enable'
  await assertMayActOn(ctx, admin, action, id)
  const object = { type: 'user', id } as const
  await keepingAnAdmin(ctx, admin, action, object, async (trx, now) => {
    await updateUserRow(trx, id, { status, updated_at: now })
    if (status === 0) await endAllSessions(trx, id, now, 'userDisabled')
    await audit(trx, admin.who, action, 'ok', ctx.now(), {}, object)
  })
}

/** A hard delete: the person, their accounts and sessions; the audit log keeps every row. */
export async function deleteUser(ctx: ServiceContext, admin: Admin, id: number): Promise<void> {
  const row = await mustFind(ctx.db, id)
  await assertMayActOn(ctx, admin, 'user.delete', id)
  // Their name stays on what they did in studies: they are disabled instead.
  if (await takesPartInStudies(ctx.db, id)) throw new ServiceError('conflict', 'user.inStudies', [row.name])
  const object = { type: 'user', id } as const
  await keepingAnAdmin(ctx, admin, 'user.delete', object, async (trx) => {
    await deleteUserRow(trx, id)
    await audit(trx, admin.who, 'user.delete', 'ok', ctx.now(), { name: row.name }, object)
  })
}

/** Replaces the person's roles; never one's own, never beyond one's own rights. */
export async function assignRoles(
  ctx: ServiceContext,
  admin: Admin,
  id: number,
  roleIds: readonly number[],
  lang: Lang,
): Promise<UserDetail> {
  const object = { type: 'user', id } as const
  if (id === admin.actor.user.id) {
    throw await denied(ctx, admin, 'user.assignRoles', object, 'ownRoles', new ServiceError('forbidden', 'user.ownRoles'))
  }
  await mustFind(ctx.db, id)
  await assertMayActOn(ctx, admin, 'user.assignRoles', id)
  const held = (await rolesOfUsers(ctx.db, [id])).get(id) ?? []
  const wanted = [...new Set(roleIds)]
  await assertMayGrant(
    ctx,
    admin,
    'user.assignRoles',
    id,
    wanted.filter((r) => !held.some((h) => h.id === r)),
  )
  await keepingAnAdmin(ctx, admin, 'user.assignRoles', object, async (trx) => {
    await replaceUserRoles(trx, id, wanted)
    await audit(trx, admin.who, 'user.assignRoles', 'ok', ctx.now(), { from: held.map((h) => h.id), to: wanted }, object)
  })
  return getUser(ctx, id, lang)
}
