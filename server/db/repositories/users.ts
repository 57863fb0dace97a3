import type { Q } from '../query.ts'
import { insertAccount } from './accounts.ts'
import { addUserRoles } from './roles.ts'
import type { NewUser, User } from '../tables/user.ts'

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
  passwordHash: string
  roleIds: readonly number[]
  mustChangePassword?: boolean
  status?: number
  now: string
}

/** A person with one account and their roles; call inside a transaction. */
export async function insertUserWithAccount(db: Q, p: NewPerson): Promise<{ userId: number; accountId: number }> {
  const userId = await insertUser(db, { name: p.name, department_id: null, career_id: null, created_at: p.now, updated_at: p.now })
  const accountId = await insertAccount(db, {
    user_id: userId,
    username: p.username,
    password_hash: p.passwordHash,
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
