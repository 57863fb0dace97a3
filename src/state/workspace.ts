/**
 * The workspace (DESIGN §5, SPEC §2 Layout / tab bar, SPEC §3 tab bar state).
 *
 * Every tab of the tab bar is a view shown as a react-mosaic pane; the mosaic tree's leaves are
 * tab ids, and a tab's id is its full path ('/project/multi-list?id=3'). A plain open (a sidebar
 * click, a go-to hotkey, a link) shows that tab alone when one pane is on screen; inside a split
 * it takes the focused pane's place and the split stays (a data manager comparing two records
 * navigates in one of them). The other tabs stay as tabs, hidden (the UI keeps their views
 * mounted, keyed by path, unless the tab is noCache). Split and open-to-the-side put a pane
 * beside the focused one. The focused pane's path is what the URL shows: operations that move the focus answer
 * the new focused path so the caller can navigate.
 *
 * Plain functions over a valtio proxy; no React here. `bindWorkspace(state)` gives the same
 * operations over any state object (tests use fresh ones); the module-level functions act on
 * the app's `workspace` proxy.
 *
 * Invariants every operation keeps:
 * - no two tabs share a path; every leaf of the tree is a tab, once;
 * - `focused` is a visible leaf of the tree, and is null exactly when the tree is null;
 * - an affixed tab is never removed;
 * - `closed` holds at most `closedLimit` entries, most recent first, none of them an open tab.
 */
import { proxy, subscribe } from 'valtio/vanilla'
import { z } from 'zod'
import { screens } from '../../contract/screens.ts'
import * as mosaic from './mosaicTree.ts'
import type { MosaicDirection, ReadonlyTree, Tree } from './mosaicTree.ts'

export type { MosaicDirection, ReadonlyTree, Tree }

export interface Tab {
  /** Full path with query: the tab's id, the tree leaf, the cached view's key. */
  path: string
  /** i18n key; the UI translates. */
  title: string
  /** Stays on closeOthers/closeAll and cannot be closed. */
  affix: boolean
  /** The view is not kept alive while hidden. */
  noCache: boolean
}

export interface ClosedTab {
  path: string
  title: string
  noCache: boolean
}

export interface TabMeta {
  title: string
  affix?: boolean
  noCache?: boolean
}

export interface WorkspaceState {
  tabs: Tab[]
  tree: Tree | null
  focused: string | null
  /** Most recently closed first, at most `closedLimit`. */
  closed: ClosedTab[]
  /** Tab paths, most recently focused first: split's default partner comes from here. */
  recent: string[]
}

/** What localStorage needs: the real one, or a fake in tests. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem'>

export interface AffixTab {
  path: string
  title: string
  noCache?: boolean
}

export interface RestoreOptions {
  storage?: StorageLike | null
  /** Tabs opened (affixed) whatever was stored; by default the affix screens of contract/screens.ts. */
  affix?: readonly AffixTab[]
}

export const closedLimit = 20
/** More tabs than this in storage is not a layout a person made: treated as corrupt. */
export const maxStoredTabs = 500

/** The affix screens of contract/screens.ts, in table order. */
export const affixTabs: readonly AffixTab[] = screens
  .filter((s) => s.affix === true)
  .map((s) => ({ path: s.path, title: s.title, noCache: s.noCache === true }))

export function storageKey(userId: string | number): string {
  return `workspace.v1.${String(userId)}`
}

export function emptyWorkspace(): WorkspaceState {
  return { tabs: [], tree: null, focused: null, closed: [], recent: [] }
}

const storedTab = z.object({
  path: z.string().min(1).max(4096),
  title: z.string().max(1000),
  affix: z.boolean(),
  noCache: z.boolean().optional(),
})
const storedClosed = z.object({
  path: z.string().min(1).max(4096),
  title: z.string().max(1000),
  noCache: z.boolean().optional(),
})
const storedWorkspace = z.object({
  version: z.literal(1),
  tabs: z.array(storedTab).max(maxStoredTabs),
  tree: z.unknown(),
  focused: z.string().nullable(),
  closed: z.array(storedClosed).max(maxStoredTabs),
  recent: z.array(z.string()).max(maxStoredTabs).optional(),
})
type StoredWorkspace = z.infer<typeof storedWorkspace>

function defaultStorage(): StorageLike | null {
  try {
    const storage: unknown = (globalThis as { localStorage?: unknown }).localStorage
    if (typeof storage !== 'object' || storage === null) return null
    const s = storage as Partial<StorageLike>
    return typeof s.getItem === 'function' && typeof s.setItem === 'function' ? (storage as StorageLike) : null
  } catch {
    return null
  }
}

export interface WorkspaceActions {
  /**
   * Adds the tab if missing (needs `meta` then; answers false without it), updates its title
   * and flags when `meta` is given, and focuses it. A tab already on screen keeps the layout;
   * otherwise, inside a split it replaces the focused pane (the split stays), and with one pane
   * the tree becomes that tab alone.
   */
  open(path: string, meta?: TabMeta): boolean
  /**
   * Closes `path` (default: the focused tab); an affixed or unknown tab is refused. When the
   * focused pane closes, the focus goes to the next pane still on screen, or, when it was
   * alone, to the tab right of it in the tab bar, else left (shown alone). Answers the focused
   * path afterwards, or null.
   */
  close(path?: string): string | null
  /** Closes every tab but `keep` (default: focused) and the affixed ones; `keep` is shown alone. */
  closeOthers(keep?: string): string | null
  /** Closes every tab but the affixed ones; the first affixed tab is shown alone, or nothing. */
  closeAll(): string | null
  /**
   * Puts `path` (default: the most recently focused tab not on screen, else the tab left of the
   * focused one in the tab bar, else right) beside the focused pane: 'row' to its right,
   * 'column' below it, and focuses it. A pane already on screen moves. Answers false, changing
   * nothing, when there is no focused pane or no such other tab.
   */
  split(direction: MosaicDirection, path?: string): boolean
  /**
   * Opens `path` (adding the tab from `meta` if needed) in a new pane beside the focused one,
   * whether the tab is new, hidden or on screen elsewhere (then its pane moves). The focused
   * pane keeps its content. With nothing on screen it is a plain open; `path` being the
   * focused tab itself answers false, changing nothing (a tab is one pane).
   */
  openBeside(path: string, meta: TabMeta, direction?: MosaicDirection): boolean
  /** Moves the focus to the next visible pane in tree order, cycling; answers the focused path. */
  focusNext(): string | null
  focusPrevious(): string | null
  /** Reopens the most recently closed tab as a plain open does; answers its path, or null. */
  reopenClosed(): string | null
  canReopen(): boolean
  /** The panes on screen, in tree order. */
  visibleLeaves(): string[]
  /**
   * Takes the tree react-mosaic's onChange gives (a resize, a drag, a removal). Leaves that are
   * not tabs are dropped; tabs whose leaves left the tree stay as tabs, hidden. If the focused
   * pane left, the most recently focused pane still on screen gets the focus. Answers the
   * focused path.
   */
  setTree(tree: ReadonlyTree | null): string | null
  /** Focuses a pane on screen (a click in it); false for anything else. */
  setFocused(path: string): boolean
  /** Changes a tab's title (an i18n key). */
  setTitle(path: string, title: string): boolean
  /** Saves the layout under the user's key; false when there is no storage or it refuses. */
  persist(userId: string | number, storage?: StorageLike | null): boolean
  /**
   * Replaces the state with the user's saved layout (validated; anything corrupt falls back to
   * the default), and opens the affix tabs. Answers true when a saved layout was used.
   */
  restore(userId: string | number, options?: RestoreOptions): boolean
  /** Back to no tabs at all. */
  reset(): void
  /**
   * Persists after every change, at most once per `wait` ms. Answers a stop function that
   * writes any pending change.
   */
  autoPersist(userId: string | number, options?: { storage?: StorageLike | null; wait?: number }): () => void
}

export function bindWorkspace(ws: WorkspaceState): WorkspaceActions {
  const findTab = (path: string): Tab | undefined => ws.tabs.find((t) => t.path === path)
  const visible = (): string[] => mosaic.visibleLeaves(ws.tree)

  const focus = (path: string | null): void => {
    ws.focused = path
    if (path !== null && ws.recent[0] !== path) ws.recent = [path, ...ws.recent.filter((p) => p !== path)]
  }

  const rememberClosed = (tab: Tab): void => {
    const entry: ClosedTab = { path: tab.path, title: tab.title, noCache: tab.noCache }
    ws.closed = [entry, ...ws.closed.filter((c) => c.path !== tab.path)].slice(0, closedLimit)
  }

  /** Removes the given (non-affixed) tabs and their leaves; the caller fixes the focus. */
  const removeTabs = (gone: readonly Tab[]): void => {
    if (gone.length === 0) return
    const paths = new Set(gone.map((t) => t.path))
    for (const tab of gone) rememberClosed(tab)
    ws.tabs = ws.tabs.filter((t) => !paths.has(t.path))
    ws.recent = ws.recent.filter((p) => !paths.has(p))
    ws.tree = mosaic.filterLeaves(ws.tree, (l) => !paths.has(l))
  }

  /** Shows `path` alone and focuses it (null: nothing on screen). */
  const showAlone = (path: string | null): string | null => {
    ws.tree = path
    focus(path)
    return ws.focused
  }

  /** After the tree changed: keep the focus if still on screen, else the most recent pane on screen. */
  const refocus = (): string | null => {
    const shown = visible()
    if (ws.focused !== null && shown.includes(ws.focused)) return ws.focused
    const next = ws.recent.find((p) => shown.includes(p)) ?? shown[0] ?? null
    focus(next)
    return ws.focused
  }

  const open = (path: string, meta?: TabMeta): boolean => {
    if (typeof path !== 'string' || path === '') return false
    const tab = findTab(path)
    if (tab === undefined) {
      if (meta === undefined) return false
      ws.tabs.push({ path, title: meta.title, affix: meta.affix === true, noCache: meta.noCache === true })
    } else if (meta !== undefined) {
      if (tab.title !== meta.title) tab.title = meta.title
      if (meta.affix === true && !tab.affix) tab.affix = true
      if (meta.noCache !== undefined && tab.noCache !== meta.noCache) tab.noCache = meta.noCache
    }
    if (ws.closed.some((c) => c.path === path)) ws.closed = ws.closed.filter((c) => c.path !== path)
    const shown = visible()
    if (mosaic.containsLeaf(ws.tree, path)) {
      const activated = mosaic.activateLeaf(ws.tree, path)
      if (activated !== ws.tree) ws.tree = activated
      focus(path)
    } else if (shown.length > 1 && ws.focused !== null && shown.includes(ws.focused)) {
      ws.tree = mosaic.replaceLeaf(ws.tree, ws.focused, path)
      focus(path)
    } else {
      showAlone(path)
    }
    return true
  }

  const close = (path: string | undefined = ws.focused ?? undefined): string | null => {
    if (path === undefined) return ws.focused
    const index = ws.tabs.findIndex((t) => t.path === path)
    const tab = ws.tabs[index]
    if (tab === undefined || tab.affix) return ws.focused
    const wasFocused = ws.focused === path
    const shownBefore = visible()
    removeTabs([tab])
    if (!wasFocused) return refocus()
    const shown = visible()
    if (shown.length > 0) {
      // The pane after the closed one on screen, else the one before it.
      const at = shownBefore.indexOf(path)
      const after = shownBefore.slice(at + 1).find((p) => shown.includes(p))
      const before = shownBefore
        .slice(0, Math.max(at, 0))
        .reverse()
        .find((p) => shown.includes(p))
      focus(after ?? before ?? shown[0] ?? null)
      return ws.focused
    }
    // It was alone: the tab to its right in the tab bar (now at its index), else left.
    const neighbour = ws.tabs[index] ?? ws.tabs[index - 1]
    return showAlone(neighbour?.path ?? null)
  }

  const closeAll = (): string | null => {
    removeTabs(ws.tabs.filter((t) => !t.affix))
    return showAlone(ws.tabs[0]?.path ?? null)
  }

  const closeOthers = (keep: string | undefined = ws.focused ?? undefined): string | null => {
    if (keep === undefined || findTab(keep) === undefined) return closeAll()
    removeTabs(ws.tabs.filter((t) => !t.affix && t.path !== keep))
    return showAlone(keep)
  }

  const defaultPartner = (focused: string): string | undefined => {
    const shown = new Set(visible())
    const candidate = (p: string) => p !== focused && !shown.has(p) && findTab(p) !== undefined
    const recent = ws.recent.find(candidate)
    if (recent !== undefined) return recent
    const at = ws.tabs.findIndex((t) => t.path === focused)
    const left = ws.tabs
      .slice(0, Math.max(at, 0))
      .reverse()
      .find((t) => candidate(t.path))
    const right = ws.tabs.slice(at + 1).find((t) => candidate(t.path))
    return (left ?? right)?.path
  }

  const split = (direction: MosaicDirection, path?: string): boolean => {
    if (direction !== 'row' && direction !== 'column') return false
    const focused = ws.focused
    if (focused === null || !visible().includes(focused)) return false
    const partner = path ?? defaultPartner(focused)
    if (partner === undefined || partner === focused || findTab(partner) === undefined) return false
    const without = mosaic.removeLeaf(ws.tree, partner) ?? focused
    ws.tree = mosaic.insertBeside(without, focused, partner, direction)
    focus(partner)
    return true
  }

  const openBeside = (path: string, meta: TabMeta, direction: MosaicDirection = 'row'): boolean => {
    if (typeof path !== 'string' || path === '') return false
    const focused = ws.focused
    if (focused === null || !visible().includes(focused)) return open(path, meta)
    if (focused === path) return false
    if (findTab(path) === undefined) {
      ws.tabs.push({ path, title: meta.title, affix: meta.affix === true, noCache: meta.noCache === true })
    } else {
      const tab = findTab(path)
      if (tab !== undefined && tab.title !== meta.title) tab.title = meta.title
    }
    if (ws.closed.some((c) => c.path === path)) ws.closed = ws.closed.filter((c) => c.path !== path)
    return split(direction, path)
  }

  const cycle = (step: 1 | -1): string | null => {
    const shown = visible()
    if (shown.length === 0) return ws.focused
    const at = ws.focused === null ? -1 : shown.indexOf(ws.focused)
    const next = at < 0 ? (step === 1 ? 0 : shown.length - 1) : (at + step + shown.length) % shown.length
    focus(shown[next] ?? null)
    return ws.focused
  }

  const reopenClosed = (): string | null => {
    const entry = ws.closed[0]
    if (entry === undefined) return null
    ws.closed = ws.closed.slice(1)
    open(entry.path, { title: entry.title, noCache: entry.noCache })
    return entry.path
  }

  const setTree = (tree: ReadonlyTree | null): string | null => {
    const known = new Set(ws.tabs.map((t) => t.path))
    ws.tree = mosaic.sanitizeTree(tree, (l) => known.has(l))
    return refocus()
  }

  const setFocused = (path: string): boolean => {
    if (!visible().includes(path)) return false
    focus(path)
    return true
  }

  const setTitle = (path: string, title: string): boolean => {
    const tab = findTab(path)
    if (tab === undefined) return false
    if (tab.title !== title) tab.title = title
    return true
  }

  const toStored = (): StoredWorkspace => ({
    version: 1,
    tabs: ws.tabs.map((t) => ({ path: t.path, title: t.title, affix: t.affix, noCache: t.noCache })),
    tree: ws.tree === null ? null : mosaic.copyTree(ws.tree),
    focused: ws.focused,
    closed: ws.closed.map((c) => ({ path: c.path, title: c.title, noCache: c.noCache })),
    recent: [...ws.recent],
  })

  const persist = (userId: string | number, storage: StorageLike | null = defaultStorage()): boolean => {
    if (storage === null) return false
    try {
      storage.setItem(storageKey(userId), JSON.stringify(toStored()))
      return true
    } catch {
      return false
    }
  }

  const read = (userId: string | number, storage: StorageLike | null): StoredWorkspace | null => {
    if (storage === null) return null
    try {
      const raw = storage.getItem(storageKey(userId))
      if (raw === null) return null
      const parsed = storedWorkspace.safeParse(JSON.parse(raw))
      return parsed.success ? parsed.data : null
    } catch {
      return null
    }
  }

  const replace = (next: WorkspaceState): void => {
    ws.tabs = next.tabs
    ws.tree = next.tree
    ws.focused = next.focused
    ws.closed = next.closed
    ws.recent = next.recent
  }

  const restore = (userId: string | number, options: RestoreOptions = {}): boolean => {
    const storage = options.storage === undefined ? defaultStorage() : options.storage
    const affix = options.affix ?? affixTabs
    const stored = read(userId, storage)
    const next = emptyWorkspace()

    // Affixed tabs first, in table order; then the stored tabs, once each.
    for (const a of affix) {
      if (a.path === '' || next.tabs.some((t) => t.path === a.path)) continue
      const was = stored?.tabs.find((t) => t.path === a.path)
      next.tabs.push({ path: a.path, title: was?.title ?? a.title, affix: true, noCache: a.noCache === true })
    }
    for (const t of stored?.tabs ?? []) {
      if (next.tabs.some((x) => x.path === t.path)) continue
      next.tabs.push({ path: t.path, title: t.title, affix: t.affix, noCache: t.noCache === true })
    }
    const known = new Set(next.tabs.map((t) => t.path))
    next.tree = mosaic.sanitizeTree(stored?.tree ?? null, (l) => known.has(l))
    next.recent = [...new Set(stored?.recent ?? [])].filter((p) => known.has(p))
    const seenClosed = new Set<string>()
    for (const c of stored?.closed ?? []) {
      if (known.has(c.path) || seenClosed.has(c.path) || next.closed.length >= closedLimit) continue
      seenClosed.add(c.path)
      next.closed.push({ path: c.path, title: c.title, noCache: c.noCache === true })
    }
    replace(next)

    const shown = visible()
    const focused = stored?.focused
    if (focused != null && shown.includes(focused)) focus(focused)
    else if (shown.length > 0) refocus()
    else showAlone((ws.tabs.find((t) => t.affix) ?? ws.tabs[0])?.path ?? null)
    return stored !== null
  }

  const reset = (): void => replace(emptyWorkspace())

  const autoPersist = (userId: string | number, options: { storage?: StorageLike | null; wait?: number } = {}): (() => void) => {
    const storage = options.storage === undefined ? defaultStorage() : options.storage
    const wait = options.wait ?? 250
    let timer: ReturnType<typeof setTimeout> | null = null
    const flush = () => {
      if (timer !== null) clearTimeout(timer)
      timer = null
      persist(userId, storage)
    }
    const unsubscribe = subscribe(ws, () => {
      if (timer === null) timer = setTimeout(flush, wait)
    })
    return () => {
      unsubscribe()
      if (timer !== null) flush()
    }
  }

  return {
    open,
    close,
    closeOthers,
    closeAll,
    split,
    openBeside,
    focusNext: () => cycle(1),
    focusPrevious: () => cycle(-1),
    reopenClosed,
    canReopen: () => ws.closed.length > 0,
    visibleLeaves: visible,
    setTree,
    setFocused,
    setTitle,
    persist,
    restore,
    reset,
    autoPersist,
  }
}

/** The app's workspace. */
export const workspace: WorkspaceState = proxy(emptyWorkspace())

const actions = bindWorkspace(workspace)

export const {
  open,
  close,
  closeOthers,
  closeAll,
  split,
  openBeside,
  focusNext,
  focusPrevious,
  reopenClosed,
  canReopen,
  visibleLeaves,
  setTree,
  setFocused,
  setTitle,
  persist,
  restore,
  autoPersist,
} = actions

/** Back to no tabs at all (sign-out, tests). */
export const resetWorkspace = actions.reset
