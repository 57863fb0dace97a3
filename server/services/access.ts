import { permissions } from '../../contract/permissions.ts'
import type { CatalogEntry } from '../../contract/catalog.ts'
import type { PermissionsData } from '../../contract/auth.ts'
import { listCatalog } from '../db/repositories/catalog.ts'
import type { Q } from '../db/query.ts'
import type { Actor } from './actor.ts'

/** The landing screen: everyone who may sign in may open it. */
const alwaysOpen = new Set(['dashboard'])

export async function catalog(db: Q): Promise<CatalogEntry[]> {
  const rows = await listCatalog(db)
  return rows.map((r) => ({
    name: r.name,
    kind: r.kind,
    menu: r.menu,
    sort: r.sort,
    icon: r.icon,
    hidden: r.hidden === 1,
    titleZh: r.title_zh,
    titleEn: r.title_en,
  }))
}

/** The permission list (SPEC §6): from the user's roles only; the catalog is the same for everyone. */
export async function permissionList(db: Q, actor: Actor): Promise<PermissionsData> {
  const entries = await catalog(db)
  const screens = entries
    .filter((e) => e.kind === 'screen' && (actor.superuser || actor.screens.has(e.name) || alwaysOpen.has(e.name)))
    .map((e) => e.name)
  return {
    screens,
    permissions: actor.superuser ? [...permissions] : permissions.filter((p) => actor.permissions.has(p)),
    catalog: entries,
  }
}
