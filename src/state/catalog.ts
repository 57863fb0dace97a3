/**
 * The menu/route catalog as administrators arranged it (session.catalog, from the permission
 * list): the one place that says what a screen or menu is called, in which order menus and
 * screens come, with which icon, and whether the sidebar shows them. The sidebar, breadcrumb,
 * tab titles and the palette's go-to commands all read titles through `screenTitle`.
 */
import type { CatalogEntry } from '../../contract/catalog.ts'
import { menuEntryName } from '../../contract/catalog.ts'
import { menus, screens, type Screen } from '../../contract/screens.ts'
import { translate, type Lang } from '../i18n/index.ts'
import { session } from './session.ts'

type Catalog = readonly CatalogEntry[]

/** The built-in i18n key of a screen name or a menu (`menu:<id>`). */
function builtinKey(name: string): string | undefined {
  const menu = menus.find((m) => menuEntryName(m.id) === name)
  return menu ? menu.title : screens.find((s) => s.name === name)?.title
}

/** The catalog's title in that language when an administrator gave one, else the built-in translation. */
export function screenTitle(name: string, lang: Lang, catalog: Catalog = session.catalog): string {
  const entry = catalog.find((e) => e.name === name)
  const custom = lang === 'zh' ? entry?.titleZh : entry?.titleEn
  if (custom) return custom
  const key = builtinKey(name)
  return key ? translate(lang, key) : name
}

/**
 * The title of an i18n key that may be a screen's or a menu's (tabs and go-to commands keep the
 * key): the catalog's title for it, else the key's translation.
 */
export function titleOfKey(key: string, lang: Lang, catalog: Catalog = session.catalog): string {
  const screen = screens.find((s) => s.title === key)
  if (screen) return screenTitle(screen.name, lang, catalog)
  const menu = menus.find((m) => m.title === key)
  return menu ? screenTitle(menuEntryName(menu.id), lang, catalog) : translate(lang, key)
}

export interface SidebarItem {
  screen: Screen
  icon: string
}

export interface SidebarMenu {
  id: Screen['menu']
  icon: string
  items: SidebarItem[]
}

/**
 * The sidebar's menus and their screens in catalog order, without hidden ones or screens not in
 * `allowed`; an entry missing from the catalog keeps its built-in place, icon and flag.
 */
export function sidebarMenus(catalog: Catalog, allowed: ReadonlySet<string>): SidebarMenu[] {
  const byName = new Map(catalog.map((e) => [e.name, e]))
  const order = (name: string, fallback: number) => byName.get(name)?.sort ?? fallback
  return menus
    .map((m, i) => ({ m, i, e: byName.get(menuEntryName(m.id)) }))
    .filter(({ m, e }) => !(e ? e.hidden : m.hidden))
    .sort((a, b) => order(menuEntryName(a.m.id), a.i) - order(menuEntryName(b.m.id), b.i))
    .map(({ m, e }) => ({
      id: m.id,
      icon: e?.icon || m.icon,
      items: screens
        .map((s, i) => ({ s, i, e: byName.get(s.name) }))
        .filter(({ s, e }) => s.menu === m.id && allowed.has(s.name) && !(e ? e.hidden : s.hidden))
        .sort((a, b) => order(a.s.name, a.i) - order(b.s.name, b.i))
        .map(({ s, e }) => ({ screen: s, icon: e?.icon || s.icon || m.icon })),
    }))
    .filter((m) => m.items.length > 0)
}
