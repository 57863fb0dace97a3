import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

export interface UserTable {
  id: Generated<number>
  username: string
  name: string
  password_hash: string
  image: Generated<string>
  description: Generated<string>
  status: Generated<number>
  created_at: string
  updated_at: string
}

export type User = Selectable<UserTable>
export type NewUser = Insertable<UserTable>
export type UserUpdate = Updateable<UserTable>
