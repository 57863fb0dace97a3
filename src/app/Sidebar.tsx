import { Icon, Menu, MenuDivider, MenuItem, type IconName } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { menus, screens, type Screen } from '../../contract/screens.ts'
import { settings } from '../state/settings.ts'
import { session } from '../state/session.ts'
import { useT } from '../i18n/useT.ts'

/**
 * The 224 px sidebar: permitted, non-hidden screens grouped by menu. A click opens the screen
 * in the focused pane, a middle/Ctrl-click opens it to the side.
 */
export function Sidebar({ path, onOpen }: { path: string; onOpen: (screen: Screen, toSide: boolean) => void }) {
  const { sidebarOpened, withoutAnimation } = useSnapshot(settings)
  const { screens: permitted } = useSnapshot(session)
  const t = useT()
  const allowed = new Set(permitted)
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
        {menus
          .filter((m) => !m.hidden)
          .map((m, i) => {
            const items = screens.filter((s) => s.menu === m.id && !s.hidden && allowed.has(s.name))
            if (items.length === 0) return null
            return [
              i > 0 ? <MenuDivider key={`${m.id}-d`} title={sidebarOpened ? t(m.title) : undefined} /> : null,
              ...items.map((s) => (
                <MenuItem
                  key={s.name}
                  icon={(s.icon ?? m.icon) as IconName}
                  text={sidebarOpened ? t(s.title) : undefined}
                  title={t(s.title)}
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
            ]
          })}
      </Menu>
    </nav>
  )
}
