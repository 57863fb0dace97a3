import { useEffect, useRef, type KeyboardEvent } from 'react'
import { Classes, ContextMenu, Icon, Menu, MenuItem } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { workspace, visibleLeaves } from '../state/workspace.ts'
import { published } from '../state/focus.ts'
import { useT } from '../i18n/useT.ts'
import { CommandButton, CommandMenuItem } from '../ui/CommandButton.tsx'
import { isKey, tabBarKeys } from '../ui/keyReference.ts'
import { tabLabel } from './tabLabel.ts'

/**
 * Visited views, as an ARIA tablist: one tab stop (the focused tab), ←/→ Home/End move between
 * tabs, Enter/Space show one, Delete closes it (src/ui/keyReference.ts). A click shows the tab
 * (focused where it is on screen, else in the focused pane); the context menu and the × run the same commands as
 * the palette and the hotkeys. The × is not a control of its own (a tab's children are
 * presentational): pointer users click it, keyboard users press Delete or Alt+W. With one pane
 * shown and other tabs open, "split right" follows the tabs: laid over the pane's corner it covered
 * the rightmost button of the view's header.
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
  const bar = useRef<HTMLDivElement>(null)
  const visible = new Set(visibleLeaves())
  const stop = snap.tabs.some((tab) => tab.path === snap.focused) ? snap.focused : snap.tabs[0]?.path

  // The shown tab stays in sight when the bar holds more tabs than fit, also as labels grow
  // (a record's name arrives after its tab) and move it.
  useEffect(() => {
    const tabs = [...(bar.current?.querySelectorAll<HTMLElement>('[role="tab"]') ?? [])]
    const shown = tabs.find((x) => x.dataset.path === snap.focused)
    if (!shown) return
    const keep = new ResizeObserver(() => shown.scrollIntoView({ block: 'nearest', inline: 'nearest' }))
    for (const tab of tabs) keep.observe(tab)
    return () => keep.disconnect()
  }, [snap.focused, snap.tabs.length])

  const focusTab = (index: number) => bar.current?.querySelectorAll<HTMLElement>('[role="tab"]')[index]?.focus()

  const onKeyDown = (e: KeyboardEvent<HTMLElement>, index: number, path: string, affix: boolean) => {
    const count = snap.tabs.length
    if (isKey(tabBarKeys.move, e)) focusTab((index + (e.key === 'ArrowRight' ? 1 : count - 1)) % count)
    else if (isKey(tabBarKeys.ends, e)) focusTab(e.key === 'Home' ? 0 : count - 1)
    else if (isKey(tabBarKeys.show, e)) onSelect(path)
    else if (isKey(tabBarKeys.close, e) && !affix) onClose(path)
    else return
    e.preventDefault()
  }

  return (
    <div className="tab-row">
      <div className="tab-bar" role="tablist" aria-label={t('layout.tabs')} data-testid="tab-bar" ref={bar}>
        {snap.tabs.map((tab, index) => {
          const focused = snap.focused === tab.path
          const intent = focused ? Classes.INTENT_PRIMARY : visible.has(tab.path) ? Classes.INTENT_SUCCESS : ''
          const label = tabLabel(tab, t, names[tab.path]?.record?.name)
          return (
            <ContextMenu
              key={tab.path}
              role="presentation"
              className={tab.affix ? 'tab-holder affix' : 'tab-holder'}
              content={
                <Menu>
                  <MenuItem icon="split-columns" text={t('command.openToSide')} onClick={() => onOpenBeside(tab.path)} />
                  {!tab.affix && <CommandMenuItem id="workspace.closeTab" args={{ path: tab.path }} icon="cross" />}
                  <CommandMenuItem id="workspace.closeOthers" icon="small-cross" />
                  <CommandMenuItem id="workspace.closeAll" icon="delete" />
                </Menu>
              }
            >
              <div
                role="tab"
                aria-selected={focused}
                tabIndex={tab.path === stop ? 0 : -1}
                data-testid="tab"
                data-path={tab.path}
                className={`tab ${Classes.TAG} ${Classes.INTERACTIVE} ${focused ? '' : Classes.MINIMAL} ${intent}`}
                onClick={() => onSelect(tab.path)}
                onKeyDown={(e) => onKeyDown(e, index, tab.path, tab.affix)}
                onAuxClick={(e) => {
                  if (e.button === 1 && !tab.affix) onClose(tab.path)
                }}
              >
                <span className={Classes.TEXT_OVERFLOW_ELLIPSIS} title={label}>
                  {label}
                </span>
                {!tab.affix && (
                  <span
                    className="tab-close"
                    aria-hidden
                    data-testid="tab-close"
                    title={t('tabs.close')}
                    onClick={(e) => {
                      e.stopPropagation()
                      onClose(tab.path)
                    }}
                  >
                    <Icon icon="small-cross" size={14} />
                  </span>
                )}
              </div>
            </ContextMenu>
          )
        })}
      </div>
      {visible.size <= 1 && snap.tabs.length > 1 && (
        <CommandButton id="workspace.splitRight" icon="column-layout" variant="minimal" size="small" iconOnly />
      )}
    </div>
  )
}
