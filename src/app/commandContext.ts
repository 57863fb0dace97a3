import type { CommandApi, CommandContext, Focus, Intent, Lang, Size } from '../../commands/context.ts'
import { canonicalPath, parseScreenPath } from '../../contract/screenPaths.ts'
import { isApiError, post, uploadWithProgress, type ApiError, type Envelope } from '../api/client.ts'
import { call } from '../api/call.ts'
import { saveDownload } from '../api/download.ts'
import { openDialog } from '../state/dialogs.ts'
import { published, requestViewFocus } from '../state/focus.ts'
import { invalidate } from '../api/query.ts'
import { confirmDialog } from './ConfirmDialog.tsx'
import { reasonPrompt } from './ReasonPrompt.tsx'
import { pickFile } from './pickFile.ts'
import { settings, setSize, toggleSidebar, setLangSetting } from '../state/settings.ts'
import { holds, mayOpen, session } from '../state/session.ts'
import { ui } from '../state/ui.ts'
import { currentProject, setCurrentProject } from '../state/currentProject.ts'
import * as ws from '../state/workspace.ts'
import { workspace } from '../state/workspace.ts'
import { setLang, t } from '../i18n/index.ts'
import { logout } from '../features/auth/api/logout.ts'
import { toast } from '../ui/toaster.ts'
import { toggleFullscreen } from './fullscreen.ts'
import { formatTime } from '../lib/time.ts'
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

/** The data of a code-0 answer. A refusal was toasted (or answered by the re-login dialog) by the client. */
const data = async <T>(p: Promise<Envelope<T>>) => {
  try {
    return (await p).data as T
  } catch (e) {
    if (isApiError(e)) Object.assign(e, { shown: true })
    throw e
  }
}

/** A refusal was toasted (or answered by the re-login dialog) by the client: say so to `execute`. */
const shown = async <T>(p: Promise<T>) => {
  try {
    return await p
  } catch (e) {
    if (isApiError(e)) Object.assign(e, { shown: true })
    throw e
  }
}

const commandApi: CommandApi = {
  call: (endpoint, input) => shown(call(endpoint, input)),
  upload: (path, file, query, onProgress, answers) => {
    const form = new FormData()
    form.append('file', file)
    const options = { toast: (e: ApiError) => !answers?.(e.envelope?.data) }
    return data(onProgress ? uploadWithProgress(path, form, query, onProgress, options) : post(path, form, query, options))
  },
  download: (path, query) => shown(saveDownload(path, query)),
}

/** The same record always has the same path (contract/screenPaths.ts): one tab, one draft. */
const canonical = (path: string) => canonicalPath(path) ?? path

/** Where a command sends the user, the focus follows (the view takes it when it shows). */
const arrive = (path: string) => {
  const p = canonical(path)
  requestViewFocus(p)
  return p
}

/** The focused pane's screen, parameters and what its view published. */
function focusOf(path: string): Focus | null {
  const parsed = parseScreenPath(path)
  if (!parsed) return null
  const entry = published[path]
  return {
    path,
    screen: parsed.screen.name,
    params: parsed.params,
    record: entry?.record,
    use: <T>(cap: { id: string }) => entry?.capabilities[cap.id]?.() as T | undefined,
  }
}

/** The real context: a fresh read of the stores each time a command is shown or run. */
export function commandContext(): CommandContext {
  const path = workspace.focused ?? window.location.pathname + window.location.search
  return {
    t: (key, params) => t(key, params),
    signedIn: session.token !== '' && session.loaded,
    can: holds,
    canOpen: mayOpen,
    path,
    focus: focusOf(path),
    lang: settings.lang,
    size: settings.size,
    time: (at) => formatTime(at, '{y}-{m}-{d} {h}:{i}', settings.lang) ?? at,
    navigate: (p) => nav.navigate(arrive(p)),
    api: commandApi,
    invalidate,
    settings: {
      setLang(lang: Lang) {
        setLangSetting(lang)
        return setLang(lang)
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
    currentProject: { value: currentProject.project, set: setCurrentProject },
    panes: {
      tabs: workspace.tabs,
      visibleCount: ws.visibleLeaves().length,
      show: (p) => nav.navigate(arrive(p)),
      openToSide: (to, direction) => {
        const p = arrive(to)
        const screen = screenOf(p)
        if (!screen) return
        if (ws.openBeside(p, tabMeta(screen), direction)) nav.follow(workspace.focused)
        else nav.navigate(p)
      },
      close: (p) => nav.follow(ws.close(p)),
      closeOthers: () => nav.follow(ws.closeOthers()),
      closeAll: () => nav.follow(ws.closeAll()),
      split: (direction, p) => {
        if (ws.split(direction, p === undefined ? p : canonical(p))) nav.follow(workspace.focused)
      },
      focusNext: () => nav.follow(ws.focusNext()),
      focusPrevious: () => nav.follow(ws.focusPrevious()),
      canReopen: ws.canReopen(),
      reopenClosed: () => nav.follow(ws.reopenClosed()),
    },
    ui: {
      toast: (message: string, intent?: Intent) => toast(message, intent),
      openPalette: (mode) => {
        ui.paletteMode = mode ?? null
        ui.paletteOpen = true
      },
      pickFile,
      confirm: (message, detail, yes, cautious) => confirmDialog(message, detail, yes, cautious),
      reason: (question, detail) => reasonPrompt(question, detail),
      open: openDialog,
      openChangePassword: () => {
        ui.changePasswordOpen = true
      },
      openShortcuts: () => {
        ui.shortcutsOpen = true
      },
    },
  }
}
