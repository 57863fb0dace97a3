import { z } from 'zod'

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
