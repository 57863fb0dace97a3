import { useEffect, useRef } from 'react'
import { Icon, Menu, MenuDivider, MenuItem, type IconName } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { menuEntryName } from '../../contract/catalog.ts'
import type { Screen } from '../../contract/screens.ts'
import { useReloadKey } from '../api/query.ts'
import { getPermissions } from '../features/auth/api/permissions.ts'
import { screenTitle, sidebarMenus } from '../state/catalog.ts'
import { settings } from '../state/settings.ts'
import { session } from '../state/session.ts'
import { useLang, useT } from '../i18n/useT.ts'

/** Re-reads the permission list when a command changed the catalog or roles ('permissions' invalidated). */
function usePermissionsReload() {
  const key = useReloadKey('permissions')
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    getPermissions().catch(() => undefined)
  }, [key])
}

/**
 * The 224 px sidebar: permitted, non-hidden screens grouped by menu, in the catalog's order with
 * its icons and titles (src/state/catalog.ts). A click opens the screen
 * in the focused pane, a middle/Ctrl-click opens it to the side.
 */
export function Sidebar({ path, onOpen }: { path: string; onOpen: (screen: Screen, toSide: boolean) => void }) {
  const { sidebarOpened, withoutAnimation } = useSnapshot(settings)
  const { screens: permitted, catalog } = useSnapshot(session)
  const t = useT()
  const lang = useLang()
  usePermissionsReload()
  const allowed = new Set(permitted)
  const title = (name: string) => screenTitle(name, lang, catalog)
  const current = path.split('?')[0]
  return (
    <nav
      className={`sidebar ${sidebarOpened ? 'opened' : 'collapsed'} ${withoutAnimation ? 'no-animation' : ''}`}
      aria-label={t('layout.sidebar')}
      data-testid="sidebar"
    >
      <div className="sidebar-logo" title={t('app.title')}>
        <Icon icon="heart" />
        {sidebarOpened && <span>{t('app.shortTitle')}</span>}
      </div>
      <Menu className="sidebar-menu">
        {sidebarMenus(catalog, allowed).map((m, i) => [
          i > 0 ? <MenuDivider key={`${m.id}-d`} title={sidebarOpened ? title(menuEntryName(m.id)) : undefined} /> : null,
          ...m.items.map(({ screen: s, icon }) => (
            <MenuItem
              key={s.name}
              icon={icon as IconName}
              text={sidebarOpened ? title(s.name) : undefined}
              title={title(s.name)}
              active={current === s.path}
              data-testid={`menu-${s.name}`}
              href={s.path}
              onClick={(e: React.MouseEvent) => {
                e.preventDefault()
                onOpen(s, e.ctrlKey || e.metaKey)
              }}
              onAuxClick={(e: React.MouseEvent) => {
                if (e.button === 1) {
                  e.preventDefault()
                  onOpen(s, true)
                }
              }}
            />
          )),
        ])}
      </Menu>
    </nav>
  )
}
