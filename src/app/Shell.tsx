import { useEffect, useMemo, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { QueryClientProvider } from '@tanstack/react-query'
import { queryClient } from '../api/query.ts'
import { useLocation, useSearch } from 'wouter'
import { getCommand, execute, hotkeyLabel, isEnabled } from '../../commands/registry.ts'
import type { Screen } from '../../contract/screens.ts'
import { canonicalPath } from '../../contract/screenPaths.ts'
import { settings, closeSidebar, setDevice, isMobileWidth } from '../state/settings.ts'
import { session } from '../state/session.ts'
import * as ws from '../state/workspace.ts'
import { workspace } from '../state/workspace.ts'
import { CommandHostContext, type CommandHost } from '../ui/commandHost.tsx'
import { commandContext, setNavigator } from './commandContext.ts'
import { bindHotkeys } from './hotkeys.ts'
import { Sidebar } from './Sidebar.tsx'
import { Navbar } from './Navbar.tsx'
import { TabBar } from './TabBar.tsx'
import { Workspace } from './Workspace.tsx'
import { Palette } from './Palette.tsx'
import { ConfirmDialog } from './ConfirmDialog.tsx'
import { ReasonPrompt } from './ReasonPrompt.tsx'
import { ShortcutsSheet } from './ShortcutsSheet.tsx'
import { ChangePasswordDialog } from '../features/auth/ChangePasswordDialog.tsx'
import { EnrolDialogHost } from '../features/subjects/EnrolDialog.tsx'
import { entryPipeline } from '../features/subjects/entry/entryPipeline.ts'
import { renderView, screenOf, tabMeta } from './screenViews.tsx'
import { refresh, refreshKeys } from './refresh.ts'
import { chooseOnlyProject } from './onlyProject.ts'

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/** The main layout: sidebar, navbar, tab bar and the mosaic; the URL is the focused pane. */
export function Shell() {
  const [location, navigate] = useLocation()
  const search = useSearch()
  const fullPath = search ? `${location}?${search}` : location
  const { sidebarOpened, device, size } = useSnapshot(settings)
  const { userId, loaded } = useSnapshot(session)
  useSnapshot(workspace)
  useSnapshot(refreshKeys)
  const [, rerender] = useState(0)
  const lastPath = useRef<string | null>(null)

  useEffect(() => {
    setNavigator({
      navigate: (p, options) => navigate(p, options),
      follow: (focused) => navigate(focused ?? '/dashboard'),
    })
  }, [navigate])

  // The layout is remembered per user.
  useEffect(() => {
    if (userId === null) return
    ws.restore(userId)
    rerender((n) => n + 1)
    return ws.autoPersist(userId)
  }, [userId])
  useEffect(() => {
    if (userId !== null && loaded) void chooseOnlyProject()
  }, [userId, loaded])
  // Saves this user left queued (before a reload, or an outage) go out now, whatever screen is open.
  useEffect(() => {
    if (userId !== null) void entryPipeline.flush()
  }, [userId])

  // The URL opens (or focuses) its tab; in mobile mode the sidebar closes on every route change.
  useEffect(() => {
    if (fullPath.startsWith('/redirect/')) {
      const target = fullPath.slice('/redirect'.length)
      refresh(target)
      navigate(target, { replace: true })
      return
    }
    // One record, one path: a typed or old link with other parameter order opens the same tab.
    const canonical = canonicalPath(fullPath)
    if (canonical !== null && canonical !== fullPath) {
      navigate(canonical, { replace: true })
      return
    }
    const screen = screenOf(fullPath)
    if (!screen) return
    if (workspace.focused !== fullPath) ws.open(fullPath, tabMeta(screen))
    if (lastPath.current !== null && lastPath.current !== fullPath && settings.device === 'mobile' && settings.sidebarOpened) {
      closeSidebar(true)
    }
    lastPath.current = fullPath
  }, [fullPath])

  useEffect(() => {
    const onResize = () => {
      const mobile = isMobileWidth(window.innerWidth)
      setDevice(mobile ? 'mobile' : 'desktop')
      if (mobile) closeSidebar(true)
    }
    onResize()
    window.addEventListener('resize', onResize)
    return () => window.removeEventListener('resize', onResize)
  }, [])

  const host: CommandHost = useMemo(
    () => ({
      context: commandContext,
      run: (id, source, args) => execute(getCommand(id), commandContext(), source, args),
      command: getCommand,
      hotkeyLabel: (c) => (c.hotkey ? hotkeyLabel(c.hotkey, isMac) : null),
    }),
    [],
  )

  useEffect(() => bindHotkeys(host.run, (id) => isEnabled(getCommand(id), commandContext())), [host])

  const openScreen = (screen: Screen, toSide: boolean) =>
    void (toSide ? host.run('workspace.openToSide', 'menu', { path: screen.path }) : host.run(`go.${screen.name}`, 'menu'))

  const closeTab = (path: string) => void host.run('workspace.closeTab', 'button', { path })

  return (
    // The signed-in screens' data (src/api/query.ts): loaded with this lazy shell, not the sign-in page.
    <QueryClientProvider client={queryClient}>
      <CommandHostContext.Provider value={host}>
        <div className={`app-shell size-${size} ${device} ${sidebarOpened ? 'sidebar-open' : 'sidebar-closed'}`} data-testid="shell">
          {device === 'mobile' && sidebarOpened && <div className="sidebar-backdrop" onClick={() => closeSidebar(false)} />}
          <Sidebar path={fullPath} onOpen={openScreen} />
          <main className="main-column">
            <Navbar path={fullPath} />
            <TabBar
              onSelect={(path) => void host.run('workspace.showTab', 'button', { path })}
              onOpenBeside={(path) => void host.run('workspace.openToSide', 'menu', { path })}
              onClose={closeTab}
            />
            <Workspace
              renderView={renderView}
              onFocusPane={(p) => navigate(p)}
              onClosePane={closeTab}
              refreshKey={(p) => refreshKeys[p] ?? 0}
            />
          </main>
          <Palette />
          <ShortcutsSheet />
          <ChangePasswordDialog />
          <EnrolDialogHost />
          <ConfirmDialog />
          <ReasonPrompt />
        </div>
      </CommandHostContext.Provider>
    </QueryClientProvider>
  )
}
