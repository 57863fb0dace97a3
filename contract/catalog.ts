import { z } from 'zod'
import { envelope } from './envelope.ts'

/**
 * One entry of the menu/route catalog: a menu group (`menu:<id>`) or a screen of
 * contract/screens.ts, as an administrator arranged it. Empty titles mean the built-in
 * translation of the screen or menu.
 */
export const catalogEntry = z.object({
  name: z.string(),
  kind: z.enum(['menu', 'screen']),
  menu: z.string().nullable(),
  sort: z.number().int(),
  icon: z.string(),
  hidden: z.boolean(),
  titleZh: z.string(),
  titleEn: z.string(),
})
export type CatalogEntry = z.infer<typeof catalogEntry>

/** The catalog name of a menu group. */
export const menuEntryName = (menuId: string) => `menu:${menuId}`

export const catalogPaths = {
  list: 'api/admin/catalog',
  entry: (name: string) => `api/admin/catalog/${encodeURIComponent(name)}`,
} as const

export const catalogTitleMax = 32
/** A Blueprint icon name ('folder-close', 'th'), or empty for the menu's icon. */
export const catalogIconPattern = /^$|^[a-z][a-z0-9]*(-[a-z0-9]+)*$/

export const catalogList = z.object({ items: z.array(catalogEntry) })
export type CatalogList = z.infer<typeof catalogList>

/**
 * What an administrator changes on one entry; absent fields stay. Empty titles = the built-in
 * translation. Strict: with every field optional, a misspelt one would otherwise change nothing, silently.
 */
export const catalogUpdate = z.strictObject({
  sort: z.number().int().min(0).max(100_000).optional(),
  icon: z.string().trim().max(48).regex(catalogIconPattern).optional(),
  hidden: z.boolean().optional(),
  titleZh: z.string().trim().max(catalogTitleMax).optional(),
  titleEn: z.string().trim().max(catalogTitleMax).optional(),
})
export type CatalogUpdate = z.infer<typeof catalogUpdate>

export const catalogNameParams = z.object({ name: z.string().min(1).max(64) })

export const catalogListResponse = envelope(catalogList)
export const catalogEntryResponse = envelope(catalogEntry)
