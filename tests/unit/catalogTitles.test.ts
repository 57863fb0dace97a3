/** src/state/catalog.ts: titles, order, icons and hidden flags as the administrator arranged the catalog. */
import { describe, expect, it } from 'vitest'
import type { CatalogEntry } from '../../contract/catalog.ts'
import { screenTitle, sidebarMenus, titleOfKey } from '../../src/state/catalog.ts'

const entry = (name: string, over: Partial<CatalogEntry> = {}): CatalogEntry => ({
  name,
  kind: name.startsWith('menu:') ? 'menu' : 'screen',
  menu: name.startsWith('menu:') ? null : 'management',
  sort: 0,
  icon: '',
  hidden: false,
  titleZh: '',
  titleEn: '',
  ...over,
})

describe('screenTitle', () => {
  it('is the catalog title in that language when given, else the built-in translation', () => {
    const catalog = [entry('role', { titleZh: '权限角色' }), entry('menu:management', { titleEn: 'Back office' })]
    expect(screenTitle('role', 'zh', catalog)).toBe('权限角色')
    expect(screenTitle('role', 'en', catalog)).toBe('Role')
    expect(screenTitle('menu:management', 'en', catalog)).toBe('Back office')
    expect(screenTitle('menu:management', 'zh', catalog)).toBe('后台管理')
    expect(screenTitle('dictionaryList', 'en', [])).toBe('System Index')
  })

  it('titleOfKey maps a screen title key to the catalog title, and leaves other keys to the dictionaries', () => {
    const catalog = [entry('role', { titleEn: 'Access roles' })]
    expect(titleOfKey('route.role', 'en', catalog)).toBe('Access roles')
    expect(titleOfKey('command.palette', 'en', catalog)).not.toBe('command.palette')
  })
})

describe('sidebarMenus', () => {
  const allowed = new Set(['user', 'role', 'career', 'dashboard'])

  it('orders screens by the catalog, drops hidden and ungranted ones, and takes the catalog icon', () => {
    const catalog = [
      entry('menu:management', { sort: 0 }),
      entry('menu:dashboard', { sort: 1 }),
      entry('role', { sort: 0, icon: 'shield' }),
      entry('user', { sort: 1 }),
      entry('career', { sort: 2, hidden: true }),
      entry('dashboard', { sort: 0, menu: 'dashboard' }),
    ]
    const menus = sidebarMenus(catalog, allowed)
    expect(menus.map((m) => m.id)).toEqual(['management', 'dashboard'])
    expect(menus[0]!.items.map((i) => [i.screen.name, i.icon])).toEqual([
      ['role', 'shield'],
      ['user', 'user'],
    ])
  })

  it('hides a whole menu the catalog hides', () => {
    const menus = sidebarMenus([entry('menu:management', { hidden: true })], allowed)
    expect(menus.map((m) => m.id)).toEqual(['dashboard'])
  })
})
