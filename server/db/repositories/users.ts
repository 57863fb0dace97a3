import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely'
import type { Database } from '../database.ts'
import type { Q } from '../query.ts'
import { insertAccount } from './accounts.ts'
import { foldAsciiCase, prefixUpperBound } from './indicators.ts'
import { addUserRoles } from './roles.ts'
import type { NewUser, User, UserUpdate } from '../tables/user.ts'

export function findUserById(db: Q, id: number): Promise<User | undefined> {
  return db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function insertUser(db: Q, user: NewUser): Promise<number> {
  const row = await db.insertInto('app_user').values(user).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export interface NewPerson {
  name: string
  username: string
  platform?: string
  profile?: Pick<NewUser, 'department_id' | 'career_id' | 'mobile' | 'email' | 'description'>
  passwordHash: string
  roleIds: readonly number[]
  mustChangePassword?: boolean
  status?: number
  now: string
}

/** A person with one account and their roles; call inside a transaction. */
export async function insertUserWithAccount(db: Q, p: NewPerson): Promise<{ userId: number; accountId: number }> {
  const userId = await insertUser(db, {
    department_id: null,
    career_id: null,
    ...p.profile,
    name: p.name,
    status: p.status ?? 1,
    created_at: p.now,
    updated_at: p.now,
  })
  const accountId = await insertAccount(db, {
    user_id: userId,
    username: p.username,
    password_hash: p.passwordHash,
    platform: p.platform ?? 'web',
    status: p.status ?? 1,
    must_change_password: p.mustChangePassword ? 1 : 0,
    locked_until: null,
    last_login_at: null,
    last_login_ip: null,
    created_at: p.now,
    updated_at: p.now,
  })
  await addUserRoles(db, userId, p.roleIds)
  return { userId, accountId }
}

// ---------------------------------------------------------------------------------------------
// The user list (issue 8 item 1) and the administrator's writes

export interface UserFilter {
  /** Prefix of the name or the mobile number (exact case), or of a username (any case). */
  q?: string | undefined
  /** Any of these departments (one, or one with its sub-departments). */
  departmentIds?: readonly number[] | undefined
  careerId?: number | undefined
  status?: number | undefined
  roleId?: number | undefined
}

/** The sort expression of each key; each is indexed together with id (migrations 0012, 0014). */
export const userSortExpressions = {
  name: sql<string>`name`,
  created: sql<string>`created_at`,
  department: sql<number>`coalesce(department_id, 0)`,
  career: sql<number>`coalesce(career_id, 0)`,
} as const
export type UserSortKey = keyof typeof userSortExpressions

type UserEb = ExpressionBuilder<Database, 'app_user'>

/** A prefix as an index range plus an exact head test (as the indicator list: never LIKE). */
function prefixRange(col: RawBuilder<string>, prefix: string): RawBuilder<SqlBool> {
  const upper = prefixUpperBound(prefix)
  const head = sql<SqlBool>`substr(${col}, 1, ${sql.lit(Array.from(prefix).length)}) = ${prefix}`
  return upper === null
    ? sql<SqlBool>`${col} >= ${prefix} and ${head}`
    : sql<SqlBool>`${col} >= ${prefix} and ${col} < ${upper} and ${head}`
}

function userConditions(eb: UserEb, f: UserFilter): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = []
  if (f.q) {
    const lowered = foldAsciiCase(f.q)
    out.push(
      eb.or([
        prefixRange(sql<string>`app_user.name`, f.q),
        prefixRange(sql<string>`app_user.mobile`, f.q),
        eb(
          'app_user.id',
          'in',
          eb
            .selectFrom('account')
            .select('account.user_id')
            .where(prefixRange(sql<string>`lower(account.username)`, lowered)),
        ),
      ]),
    )
  }
  if (f.departmentIds !== undefined) out.push(eb('app_user.department_id', 'in', f.departmentIds.length ? f.departmentIds : [0]))
  if (f.careerId !== undefined) out.push(eb('app_user.career_id', '=', f.careerId))
  if (f.status !== undefined) out.push(eb('app_user.status', '=', f.status))
  if (f.roleId !== undefined) {
    out.push(eb('app_user.id', 'in', eb.selectFrom('user_role').select('user_role.user_id').where('user_role.role_id', '=', f.roleId)))
  }
  return out
}

export interface UserListRow extends User {
  department: string | null
  career: string | null
}

/** One keyset page in (sort key, id) order; `after` is the last row's (sort value, id). */
export function listUserRows(
  db: Q,
  p: { filter: UserFilter; sort: UserSortKey; order: 'asc' | 'desc'; after: readonly [string | number, number] | null; limit: number },
): Promise<UserListRow[]> {
  const key = userSortExpressions[p.sort]
  const op = sql.raw(p.order === 'asc' ? '>' : '<')
  const dir = sql.raw(p.order)
  return db
    .selectFrom('app_user')
    .selectAll('app_user')
    .select((eb) => [
      eb.selectFrom('department').select('department.name').whereRef('department.id', '=', 'app_user.department_id').as('department'),
      eb.selectFrom('career').select('career.name').whereRef('career.id', '=', 'app_user.career_id').as('career'),
    ])
    .where((eb) => {
      const conds = userConditions(eb, p.filter)
      if (p.after) conds.push(sql<SqlBool>`(${key}, app_user.id) ${op} (${p.after[0]}, ${p.after[1]})`)
      return eb.and(conds)
    })
    .orderBy(sql`${key} ${dir}`)
    .orderBy(sql`app_user.id ${dir}`)
    .limit(p.limit)
    .execute()
}

export async function countUserRows(db: Q, filter: UserFilter): Promise<number> {
  const row = await db
    .selectFrom('app_user')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => eb.and(userConditions(eb, filter)))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function findUserListRow(db: Q, id: number): Promise<UserListRow | undefined> {
  return db
    .selectFrom('app_user')
    .selectAll('app_user')
    .select((eb) => [
      eb.selectFrom('department').select('department.name').whereRef('department.id', '=', 'app_user.department_id').as('department'),
      eb.selectFrom('career').select('career.name').whereRef('career.id', '=', 'app_user.career_id').as('career'),
    ])
    .where('app_user.id', '=', id)
    .executeTakeFirst()
}

/** The usernames of each user, in account order. */
export async function usernamesOfUsers(db: Q, userIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>()
  if (userIds.length === 0) return out
  const rows = await db
    .selectFrom('account')
    .select(['user_id', 'username'])
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('id')
    .execute()
  for (const r of rows) out.set(r.user_id, [...(out.get(r.user_id) ?? []), r.username])
  return out
}

export async function updateUserRow(db: Q, id: number, values: UserUpdate): Promise<void> {
  await db.updateTable('app_user').set(values).where('id', '=', id).execute()
}

/**
 * Whether the person has taken part in studies: a project member, creator or applicant, one who
 * decided an application, enrolled a subject, or changed study data (the data audit trail names
 * them). Checked one table at a time, the indexed ones first, stopping at the first hit; the data
 * audit trail has no index by person and is read last (deleting a person is rare).
 */
export async function takesPartInStudies(db: Q, userId: number): Promise<boolean> {
  const probes = [
    () => db.selectFrom('project_member').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst(),
    () => db.selectFrom('project_application').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst(),
    () => db.selectFrom('project').select('id').where('creator_id', '=', userId).limit(1).executeTakeFirst(),
    () => db.selectFrom('project_application').select('id').where('decided_by', '=', userId).limit(1).executeTakeFirst(),
    () =>
      db
        .selectFrom('subject')
        .select('id')
        .where((eb) => eb.or([eb('created_by', '=', userId), eb('enrolled_by', '=', userId)]))
        .limit(1)
        .executeTakeFirst(),
    () => db.selectFrom('data_audit').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst(),
  ]
  for (const probe of probes) if (await probe()) return true
  return false
}

/**
 * Removes the person, their accounts (sessions go with them) and role holdings. The audit log
 * keeps its rows: they name the user by id and username as text, with no key to this table.
 */
export async function deleteUserRow(db: Q, id: number): Promise<void> {
  await db.deleteFrom('user_role').where('user_id', '=', id).execute()
  const accounts = db.selectFrom('account').select('id').where('user_id', '=', id)
  await db.deleteFrom('session').where('account_id', 'in', accounts).execute()
  await db.deleteFrom('account').where('user_id', '=', id).execute()
  await db.deleteFrom('app_user').where('id', '=', id).execute()
}

/**
 * People who can administer the system now: active, holding the system administrator role, with
 * at least one enabled account that is not locked at `now`.
 */
export async function countActiveSysAdmins(db: Q, superRole: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('app_user')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('app_user.status', '=', 1)
    .where((eb) =>
      eb.and([
        eb.exists(
          eb
            .selectFrom('user_role')
            .innerJoin('role', 'role.id', 'user_role.role_id')
            .select('user_role.user_id')
            .whereRef('user_role.user_id', '=', 'app_user.id')
            .where('role.builtin', '=', superRole),
        ),
        eb.exists(
          eb
            .selectFrom('account')
            .select('account.id')
            .whereRef('account.user_id', '=', 'app_user.id')
            .where('account.status', '=', 1)
            .where((a) => a.or([a('account.locked_until', 'is', null), a('account.locked_until', '<=', now)])),
        ),
      ]),
    )
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Every department as (id, parent), to find a department's sub-departments. */
export function departmentParents(db: Q): Promise<{ id: number; parent_id: number | null }[]> {
  return db.selectFrom('department').select(['id', 'parent_id']).execute()
}

export async function departmentExists(db: Q, id: number): Promise<boolean> {
  return (await db.selectFrom('department').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}

export async function careerExists(db: Q, id: number): Promise<boolean> {
  return (await db.selectFrom('career').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}
