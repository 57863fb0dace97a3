import type { Generated, Selectable } from 'kysely'

/** A system role. `builtin` names the seeded ones (contract/permissions.ts builtinRoleKeys). */
export interface RoleTable {
  id: Generated<number>
  name_zh: string
  name_en: string
  remarks: Generated<string>
  builtin: string | null
  created_at: string
  updated_at: string
}

/** What a role grants: a screen of the catalog, or a permission (contract/permissions.ts). */
export interface RoleGrantTable {
  role_id: number
  kind: 'screen' | 'permission'
  name: string
}

export interface UserRoleTable {
  user_id: number
  role_id: number
}

export type Role = Selectable<RoleTable>
