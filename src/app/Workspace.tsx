import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { Button, NonIdealState } from '@blueprintjs/core'
import { Mosaic, MosaicWindow } from 'react-mosaic-component'
// With the mosaic, not in main.tsx: the sign-in page does not need it (bench first-load budget).
import 'react-mosaic-component/react-mosaic-component.css'
import { useSnapshot } from 'valtio'
import { workspace, setTree, setFocused, visibleLeaves, type Tree } from '../state/workspace.ts'
import { published, useLandingFocus } from '../state/focus.ts'
import { useT } from '../i18n/useT.ts'
import { tabLabel } from './tabLabel.ts'

/**
 * The mosaic of panes (DESIGN §5). Each tab's view renders once, through a portal, into a DOM
 * element of its own; a visible pane adopts that element, a hidden tab's element waits in a
 * parking lot. So a hidden view keeps its state (the cached view keyed by full path) and a
 * view moved by a drag is not remounted.
 */
export function Workspace({
  renderView,
  onFocusPane,
  onClosePane,
  refreshKey,
}: {
  renderView: (path: string) => ReactNode
  onFocusPane: (path: string) => void
  onClosePane: (path: string) => void
  refreshKey: (path: string) => number
}) {
  const snap = useSnapshot(workspace)
  const names = useSnapshot(published)
  const t = useT()
  const hosts = useRef(new Map<string, HTMLDivElement>())
  const parking = useRef<HTMLDivElement>(null)
  const visible = visibleLeaves()

  const hostFor = (path: string) => {
    let el = hosts.current.get(path)
    if (!el) {
      el = document.createElement('div')
      el.className = 'pane-host'
      hosts.current.set(path, el)
    }
    return el
  }

  // A new tab's element goes to the parking lot until a pane adopts it, so it is in the document.
  useLayoutEffect(() => {
    for (const el of hosts.current.values()) if (!el.parentElement) parking.current?.appendChild(el)
  })

  useEffect(() => {
    const open = new Set(snap.tabs.map((tab) => tab.path))
    for (const [path, el] of hosts.current) {
      if (!open.has(path)) {
        el.remove()
        hosts.current.delete(path)
      }
    }
  }, [snap.tabs])

  const kept = snap.tabs.filter((tab) => !tab.noCache || visible.includes(tab.path))
  const single = visible.length <= 1

  return (
    <div className="workspace" data-testid="workspace" data-panes={visible.length}>
      {snap.tree === null ? (
        <NonIdealState icon="applications" title={t('workspace.empty')} description={t('workspace.emptyHint')} />
      ) : (
        <Mosaic<string>
          // A snapshot is deeply readonly; Mosaic only reads it and answers new trees.
          value={snap.tree as Tree}
          onChange={(tree) => {
            const focused = setTree(tree)
            if (focused) onFocusPane(focused)
          }}
          blueprintNamespace="bp6"
          className="mosaic-blueprint-theme bp6-light"
          renderTile={(id, path) => {
            const tab = snap.tabs.find((x) => x.path === id)
            const slot = (
              <PaneSlot
                host={hostFor(id)}
                parking={parking}
                focused={snap.focused === id && !single}
                onFocus={() => {
                  if (setFocused(id)) onFocusPane(id)
                }}
                path={id}
              />
            )
            if (single) return slot
            return (
              <MosaicWindow<string>
                title={tab ? tabLabel(tab, t, names[id]?.record?.name) : id}
                path={path}
                toolbarControls={
                  tab?.affix
                    ? []
                    : [<Button key="close" variant="minimal" icon="cross" aria-label={t('tabs.close')} onClick={() => onClosePane(id)} />]
                }
              >
                {slot}
              </MosaicWindow>
            )
          }}
          zeroStateView={<div />}
        />
      )}
      <div ref={parking} className="pane-parking" hidden />
      {kept.map((tab) =>
        createPortal(
          <ViewFrame key={refreshKey(tab.path)} path={tab.path}>
            {renderView(tab.path)}
          </ViewFrame>,
          hostFor(tab.path),
          tab.path,
        ),
      )}
    </div>
  )
}

function ViewFrame({ path, children }: { path: string; children: ReactNode }) {
  const root = useRef<HTMLDivElement>(null)
  useLandingFocus(path, root)
  return (
    <div className="view-frame" ref={root}>
      {children}
    </div>
  )
}

/** Where a visible pane shows its view: adopts the tab's element while mounted. */
function PaneSlot({
  host,
  parking,
  focused,
  onFocus,
  path,
}: {
  host: HTMLDivElement
  parking: React.RefObject<HTMLDivElement | null>
  focused: boolean
  onFocus: () => void
  path: string
}) {
  const slot = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    slot.current?.appendChild(host)
    return () => {
      if (host.parentElement === slot.current) parking.current?.appendChild(host)
    }
  }, [host, parking])
  return (
    <div
      ref={slot}
      className={`pane-slot ${focused ? 'pane-focused' : ''}`}
      data-testid="pane"
      data-path={path}
      onMouseDownCapture={onFocus}
      onFocusCapture={onFocus}
    />
  )
}
