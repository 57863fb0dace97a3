import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

/** A person who works in the system; they sign in through one or more accounts (./account.ts). */
export interface UserTable {
  id: Generated<number>
  name: string
  image: Generated<string>
  description: Generated<string>
  department_id: number | null
  career_id: number | null
  mobile: Generated<string>
  email: Generated<string>
  /** 1 active, 0 disabled: a disabled person's accounts cannot sign in and their sessions end. */
  status: Generated<number>
  created_at: string
  updated_at: string
}

export type User = Selectable<UserTable>
export type NewUser = Insertable<UserTable>
export type UserUpdate = Updateable<UserTable>
