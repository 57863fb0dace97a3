import type { Q } from '../query.ts'
import type { NewUser, User } from '../tables/user.ts'

export function findUserByUsername(db: Q, username: string): Promise<User | undefined> {
  return db.selectFrom('app_user').selectAll().where('username', '=', username).executeTakeFirst()
}

export function findUserById(db: Q, id: number): Promise<User | undefined> {
  return db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function countUsers(db: Q): Promise<number> {
  const row = await db
    .selectFrom('app_user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function insertUser(db: Q, user: NewUser): Promise<number> {
  const row = await db.insertInto('app_user').values(user).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function setPasswordHash(db: Q, id: number, hash: string, now: string): Promise<void> {
  await db.updateTable('app_user').set({ password_hash: hash, updated_at: now }).where('id', '=', id).execute()
}
