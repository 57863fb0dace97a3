import type { Selectable } from 'kysely'

/** The menu/route catalog: a menu group or a screen (contract/screens.ts), as an administrator arranged it. */
export interface CatalogEntryTable {
  name: string
  kind: 'menu' | 'screen'
  /** The menu group of a screen; null for a menu. */
  menu: string | null
  sort: number
  icon: string
  hidden: number
  title_zh: string
  title_en: string
  updated_at: string
}

export type CatalogEntry = Selectable<CatalogEntryTable>
