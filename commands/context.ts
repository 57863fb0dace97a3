/**
 * The only door a command has to the world (DESIGN §4). The app builds the real one from its
 * stores and router; tests build one from plain objects and spies.
 */
import type { TemplateKind } from '../contract/crf.ts'

export type Lang = 'zh' | 'en'
export type Size = 'default' | 'medium' | 'small' | 'mini'
export type Intent = 'success' | 'warning' | 'danger' | 'primary' | 'none'
export type SplitDirection = 'row' | 'column'

export interface TabInfo {
  path: string
  title: string
  affix: boolean
}

export type Query = Record<string, string | number | boolean | null | undefined>

/** The API as commands see it: resolves with `data` of a code-0 envelope, rejects otherwise. */
export interface CommandApi {
  get<T>(path: string, query?: Query): Promise<T>
  post<T>(path: string, body?: unknown, query?: Query): Promise<T>
  put<T>(path: string, body?: unknown, query?: Query): Promise<T>
  del<T>(path: string, query?: Query): Promise<T>
  upload<T>(path: string, file: File, query?: Query): Promise<T>
  /** Saves the answer as a file the browser downloads. */
  download(path: string, query?: Query): Promise<void>
}

export interface CommandContext {
  t(key: string, params?: Record<string, string | number> | (string | number)[]): string
  signedIn: boolean
  /** The focused pane's path: what the URL shows. */
  path: string
  lang: Lang
  size: Size
  navigate(path: string): void
  api: CommandApi
  /** Tells every view showing `resource` (e.g. 'indicators', 'templates') to reload. */
  invalidate(resource: string): void
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
    /** `mode` names a record source (e.g. 'indicators'): the palette then searches those records. */
    openPalette(mode?: string): void
    /** Asks for a file; null when the user cancels. */
    pickFile(accept: string): Promise<File | null>
    /** A yes/no question (e.g. SPEC's delete confirmation); true for yes. */
    confirm(message: string, detail?: string): Promise<boolean>
    openChangePassword(): void
    openShortcuts(): void
  }
  /** The CRF / question-group layout designer in the focused pane; absent elsewhere. */
  designer?: DesignerDoor
  /** The template screens' dialogs (src/features/templates). */
  templates?: TemplatesDoor
}

/** What commands may do with the layout designer that has the focus. */
export interface DesignerDoor {
  templateId: number
  kind: TemplateKind
  /** The selected item's indicator id, or null. */
  selected: number | null
  /** The layout has changes not yet saved. */
  dirty: boolean
  /** Whether the selected item can move one place up (-1) or down (+1), across sections too. */
  canMove(delta: -1 | 1): boolean
  moveSelected(delta: -1 | 1): void
  /** Opens the add-indicators picker (search the dictionary, multi-select). */
  openAddIndicators(): void
  /** Writes the layout into the draft (PUT …/layout); rejects when the server refuses. */
  save(): Promise<void>
}

export interface TemplatesDoor {
  /** Opens the create (no id) or edit dialog of a CRF or question group on its manager screen. */
  openEditor(kind: TemplateKind, id?: number): void
}
