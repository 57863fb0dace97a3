/**
 * The only door a command has to the world (DESIGN §4). The app builds the real one from its
 * stores and router; tests build one from plain objects and spies.
 */
export type Lang = 'zh' | 'en'
export type Size = 'default' | 'medium' | 'small' | 'mini'
export type Intent = 'success' | 'warning' | 'danger' | 'primary' | 'none'
export type SplitDirection = 'row' | 'column'

export interface TabInfo {
  path: string
  title: string
  affix: boolean
}

export interface CommandContext {
  t(key: string, params?: Record<string, string | number> | (string | number)[]): string
  signedIn: boolean
  /** The focused pane's path: what the URL shows. */
  path: string
  lang: Lang
  size: Size
  navigate(path: string): void
  settings: {
    setLang(lang: Lang): void
    setSize(size: Size): void
    toggleSidebar(): void
    /** False where the browser has no fullscreen. */
    toggleFullscreen(): boolean
  }
  session: {
    logout(): Promise<void>
  }
  panes: {
    tabs: readonly TabInfo[]
    /** How many panes are on screen now. */
    visibleCount: number
    close(path?: string): void
    closeOthers(): void
    closeAll(): void
    /** Shows the tab of `path` (opening it when needed): alone, or focused where it is on screen. */
    show(path: string): void
    /** Opens `path` (adding its tab when needed) beside the focused pane. */
    openToSide(path: string, direction?: SplitDirection): void
    /** Puts `path` (default: the tab opened before the focused one) beside the focused pane. */
    split(direction: SplitDirection, path?: string): void
    focusNext(): void
    focusPrevious(): void
    canReopen: boolean
    reopenClosed(): void
  }
  ui: {
    toast(message: string, intent?: Intent): void
    openPalette(): void
    openChangePassword(): void
    openShortcuts(): void
  }
}
