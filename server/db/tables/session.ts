import type { Generated, Selectable } from 'kysely'

/** A sign-in: only the SHA-256 of the token is kept, so a leaked table grants nothing. */
export interface SessionTable {
  id: Generated<number>
  token_hash: string
  account_id: number
  created_at: string
  expires_at: string
  ended_at: string | null
  ended_reason: string | null
  ip: string
}

export type Session = Selectable<SessionTable>
