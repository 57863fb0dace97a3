import type { CommandContext, Intent, Lang, Size } from '../../commands/context.ts'
import { settings, setSize, toggleSidebar, setLangSetting } from '../state/settings.ts'
import { session } from '../state/session.ts'
import { ui } from '../state/ui.ts'
import * as ws from '../state/workspace.ts'
import { workspace } from '../state/workspace.ts'
import { setLang, t } from '../i18n/index.ts'
import { logout } from '../features/auth/api/logout.ts'
import { toast } from '../ui/toaster.ts'
import { toggleFullscreen } from './fullscreen.ts'
import { screenOf, tabMeta } from './screenViews.tsx'

/** How the context reaches the router: set by the shell, which owns navigation. */
export interface Navigator {
  navigate(path: string, options?: { replace?: boolean }): void
  /** The URL follows the focused pane; null when no pane is left. */
  follow(focused: string | null): void
}

let nav: Navigator = {
  navigate: (path) => window.history.pushState(null, '', path),
  follow: () => undefined,
}

export function setNavigator(next: Navigator) {
  nav = next
}

/** The real context: a fresh read of the stores each time a command is shown or run. */
export function commandContext(): CommandContext {
  const path = workspace.focused ?? window.location.pathname + window.location.search
  return {
    t: (key, params) => t(key, params),
    signedIn: session.token !== '' && session.roles.length > 0,
    path,
    lang: settings.lang,
    size: settings.size,
    navigate: (p) => nav.navigate(p),
    settings: {
      setLang(lang: Lang) {
        setLangSetting(lang)
        setLang(lang)
      },
      setSize(size: Size) {
        setSize(size)
        // SPEC §2: the view refreshes through /redirect.
        if (workspace.focused) nav.navigate(`/redirect${workspace.focused}`, { replace: true })
      },
      toggleSidebar,
      toggleFullscreen,
    },
    session: { logout: () => logout() },
    panes: {
      tabs: workspace.tabs,
      visibleCount: ws.visibleLeaves().length,
      show: (p) => nav.navigate(p),
      openToSide: (p, direction) => {
        const screen = screenOf(p)
        if (!screen) return
        if (ws.openBeside(p, tabMeta(screen), direction)) nav.follow(workspace.focused)
        else nav.navigate(p)
      },
      close: (p) => nav.follow(ws.close(p)),
      closeOthers: () => nav.follow(ws.closeOthers()),
      closeAll: () => nav.follow(ws.closeAll()),
      split: (direction, p) => {
        if (ws.split(direction, p)) nav.follow(workspace.focused)
      },
      focusNext: () => nav.follow(ws.focusNext()),
      focusPrevious: () => nav.follow(ws.focusPrevious()),
      canReopen: ws.canReopen(),
      reopenClosed: () => nav.follow(ws.reopenClosed()),
    },
    ui: {
      toast: (message: string, intent?: Intent) => toast(message, intent),
      openPalette: () => {
        ui.paletteOpen = true
      },
      openChangePassword: () => {
        ui.changePasswordOpen = true
      },
      openShortcuts: () => {
        ui.shortcutsOpen = true
      },
    },
  }
}
