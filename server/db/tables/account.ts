import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

/** A sign-in identity of a user: username and password, and what stops it from signing in. */
export interface AccountTable {
  id: Generated<number>
  user_id: number
  /** Unique whatever its case (an expression index on lower(username)). */
  username: string
  password_hash: string
  platform: Generated<string>
  /** 1 enabled, 0 disabled. */
  status: Generated<number>
  locked_until: string | null
  last_login_at: string | null
  last_login_ip: string | null
  /** 1 after an administrator set the password: every call but the password change is refused. */
  must_change_password: Generated<number>
  created_at: string
  updated_at: string
}

export type Account = Selectable<AccountTable>
export type NewAccount = Insertable<AccountTable>
export type AccountUpdate = Updateable<AccountTable>
