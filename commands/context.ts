/**
 * The only door a command has to the world (DESIGN §4). The app builds the real one from its
 * stores and router; tests build one from plain objects and spies.
 */
import type { Endpoint } from '../contract/endpoint.ts'
import type { Permission } from '../contract/permissions.ts'

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

/** The API as commands see it: resolves with the parsed `data` of a code-0 envelope, rejects otherwise. */
export interface CommandApi {
  /** One typed call: the input and the answer are parsed with the endpoint's schemas. */
  call<I, O>(endpoint: Endpoint<I, O>, input: I): Promise<O>
  /**
   * A multipart upload of `file` (field `file`); `onProgress` hears the fraction sent so far. A
   * refusal whose data `answers` accepts is the command's to answer (a question, not a failure):
   * it is not toasted.
   */
  upload<T>(
    path: string,
    file: File,
    query?: Query,
    onProgress?: (fraction: number) => void,
    answers?: (data: unknown) => boolean,
  ): Promise<T>
  /** Saves the answer as a file the browser downloads. */
  download(path: string, query?: Query): Promise<void>
}

/** The record a view shows, published by the view itself (its tab and pane header name it). */
export interface FocusedRecord {
  kind: string
  id: number
  name: string
}

/**
 * Something a view offers commands while it has the focus (e.g. the designer's edits). Declared
 * next to the commands that use it; the view provides it; no shared file lists them.
 */
export interface Capability<T> {
  readonly id: string
  /** Carries T for the type checker only. */
  readonly type?: (value: T) => T
}
export const capability = <T>(id: string): Capability<T> => ({ id })

/** A dialog a feature answers; commands open it by id with typed arguments. */
export interface DialogId<A> {
  readonly id: string
  readonly type?: (args: A) => A
}
export const dialog = <A = void>(id: string): DialogId<A> => ({ id })

/** The focused pane: its screen and parameters (contract/screenPaths.ts) and what its view published. */
export interface Focus {
  path: string
  screen: string
  params: Readonly<Record<string, unknown>>
  record?: FocusedRecord
  /** What the view offers under `capability`, read now; undefined when it offers nothing. */
  use<T>(capability: Capability<T>): T | undefined
}

/** The project the user works in now (its card is the 'active' one), remembered per user. */
export interface CurrentProject {
  id: number
  name: string
  number: string
}

export interface CommandContext {
  t(key: string, params?: Record<string, string | number> | (string | number)[]): string
  signedIn: boolean
  /** Whether the user's roles grant the permission (the permission list of the session). */
  can(permission: Permission): boolean
  /** Whether the user's roles grant the screen (contract/screens.ts name). */
  canOpen(screen: string): boolean
  /** The focused pane's path: what the URL shows. */
  path: string
  /** The focused pane's screen and record; null when no screen has the focus. */
  focus: Focus | null
  lang: Lang
  size: Size
  /** A moment (ISO text from the server) as the app shows one: local time, 'yyyy-mm-dd hh:mm'. */
  time(at: string): string
  navigate(path: string): void
  api: CommandApi
  /** Tells every view showing `resource` (e.g. 'indicators', 'templates') to reload. */
  invalidate(resource: string): void
  settings: {
    /** Resolves once the language is switched (its dictionary may have to be fetched first). */
    setLang(lang: Lang): Promise<void>
    setSize(size: Size): void
    toggleSidebar(): void
    /** False where the browser has no fullscreen. */
    toggleFullscreen(): boolean
  }
  session: {
    logout(): Promise<void>
  }
  currentProject: {
    /** null: none chosen yet. */
    value: CurrentProject | null
    set(project: CurrentProject | null): void
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
    /**
     * A yes/no question (e.g. SPEC's delete confirmation); true for yes, whose button says `yes`
     * (default: OK). Enter answers yes, unless `cautious`: a question whose no is the safe answer
     * to a reflex (a file loaded before) opens on Cancel.
     */
    confirm(message: string, detail?: string, yes?: string, cautious?: boolean): Promise<boolean>
    /** The reason a change of saved data needs (the question asked, a line under it); null when cancelled. */
    reason(question: string, detail?: string): Promise<string | null>
    /** Opens a dialog a feature registered (its view shows it when on screen). */
    open<A>(dialog: DialogId<A>, args: A): void
    openChangePassword(): void
    openShortcuts(): void
  }
}
