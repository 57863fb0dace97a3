import { ContextMenu, Menu, MenuItem, Tag } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { workspace, visibleLeaves } from '../state/workspace.ts'
import { published } from '../state/focus.ts'
import { useT } from '../i18n/useT.ts'
import { CommandMenuItem } from '../ui/CommandButton.tsx'

/**
 * Visited views. A click shows the tab (alone, or focuses its pane if on screen); the context
 * menu and the × run the same commands as the palette and the hotkeys.
 */
export function TabBar({
  onSelect,
  onOpenBeside,
  onClose,
}: {
  onSelect: (path: string) => void
  onOpenBeside: (path: string) => void
  onClose: (path: string) => void
}) {
  const snap = useSnapshot(workspace)
  const names = useSnapshot(published)
  const t = useT()
  const visible = new Set(visibleLeaves())
  return (
    <div className="tab-bar" role="tablist" data-testid="tab-bar">
      {snap.tabs.map((tab) => {
        const focused = snap.focused === tab.path
        return (
          <ContextMenu
            key={tab.path}
            content={
              <Menu>
                <MenuItem icon="split-columns" text={t('command.openToSide')} onClick={() => onOpenBeside(tab.path)} />
                {!tab.affix && <CommandMenuItem id="workspace.closeTab" args={{ path: tab.path }} icon="cross" />}
                <CommandMenuItem id="workspace.closeOthers" icon="small-cross" />
                <CommandMenuItem id="workspace.closeAll" icon="delete" />
              </Menu>
            }
          >
            <Tag
              role="tab"
              aria-selected={focused}
              data-testid="tab"
              data-path={tab.path}
              interactive
              minimal={!focused}
              intent={focused ? 'primary' : visible.has(tab.path) ? 'success' : 'none'}
              className="tab"
              onClick={() => onSelect(tab.path)}
              onAuxClick={(e) => {
                if (e.button === 1 && !tab.affix) onClose(tab.path)
              }}
              onRemove={
                tab.affix
                  ? undefined
                  : (e) => {
                      e.stopPropagation()
                      onClose(tab.path)
                    }
              }
            >
              {t(tab.title)}
              {names[tab.path]?.record ? ` · ${names[tab.path]?.record?.name}` : ''}
            </Tag>
          </ContextMenu>
        )
      })}
    </div>
  )
}
