/**
 * Keyset paging for DenseTable (DESIGN §6, §8), as a plain module: no React, no DOM, no proxies.
 *
 * The server pages by cursor (`after` = the previous page's `next`), never by offset, so rows can
 * only be read in order. The pager holds one *window* of rows in a plain array and grows it a
 * page at a time, only when the table shows a row past the loaded ones:
 *
 *   rows fetched ≤ last visible row + 1 + page size      (never more than the visible window plus a page)
 *
 * The table shows the loaded rows plus at most one page of placeholder rows, so the scroll extent
 * grows with what was read; the total comes from the server. A window holds at most `maxRows`
 * rows (the browser caps an element's height near 17.9 M px): past that, `nextWindow()` starts a
 * fresh window at the cursor, so a million rows are walked window by window.
 *
 * `refresh()` re-reads the loaded rows of the window (after an edit) and swaps them in at once,
 * keeping the scroll position; `reset()` starts over (new filter or sort). A stale answer (from
 * before a reset) is dropped, and its request aborted.
 */

export interface Page<R> {
  rows: readonly R[]
  /** Cursor of the next page; null on the last one. */
  next: string | null
  total: number
}

/** Reads `limit` rows after `after` (null: from the start). */
export type Fetcher<R> = (after: string | null, limit: number, signal: AbortSignal) => Promise<Page<R>>

export interface PagerOptions {
  /** Rows per request (the server allows at most 1,000). */
  pageSize: number
  /** Rows one window may hold before `nextWindow()` is needed. */
  maxRows: number
}

export interface PagerState<R> {
  /** The loaded rows of the window; rows[i] is row `offset + i` of the whole list. */
  readonly rows: readonly R[]
  /** Index in the whole list of the window's first row. */
  readonly offset: number
  /** From the server's last answer; null before the first one. */
  readonly total: number | null
  readonly loading: boolean
  /** The last request's failure, until a retry or a reset. */
  readonly error: unknown
  /** More rows exist after the loaded ones. */
  readonly hasMore: boolean
  /** The window is full and more rows exist: `nextWindow()` continues. */
  readonly windowFull: boolean
  /** Rows the table shows: loaded plus at most one page of placeholders. */
  readonly rowCount: number
  /** Changes on every change: the table's `cellRendererDependencies`. */
  readonly version: number
}

const maxLimit = 1000

export class KeysetPager<R> {
  private fetcher: Fetcher<R>
  private readonly options: PagerOptions
  private rows: R[] = []
  private offset = 0
  /** Cursor the window started from (null: the list's start). */
  private windowCursor: string | null = null
  private next: string | null = null
  private total: number | null = null
  private loading = false
  private error: unknown = null
  /** The first page of the window has been asked for (a fresh pager has none). */
  private started = false
  private generation = 0
  private controller: AbortController | null = null
  private lastVisible = -1
  private version = 0
  private state: PagerState<R>
  private readonly listeners = new Set<() => void>()
  /** Total rows requested since construction (tests read it). */
  requested = 0

  constructor(fetcher: Fetcher<R>, options: Partial<PagerOptions> = {}) {
    this.fetcher = fetcher
    const pageSize = Math.min(Math.max(1, options.pageSize ?? 100), maxLimit)
    this.options = { pageSize, maxRows: Math.max(pageSize, options.maxRows ?? 200_000) }
    this.state = this.compute()
  }

  get pageSize(): number {
    return this.options.pageSize
  }

  /** The current state; the same object until something changes (useSyncExternalStore). */
  snapshot = (): PagerState<R> => this.state

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  /** The row at `index` of the window, or undefined while it is a placeholder. */
  row(index: number): R | undefined {
    return this.rows[index]
  }

  /** Starts over: a new query (filters, sort), optionally with a new fetcher. Loads the first page. */
  reset(fetcher?: Fetcher<R>): Promise<void> {
    if (fetcher) this.fetcher = fetcher
    this.abort()
    this.rows = []
    this.offset = 0
    this.windowCursor = null
    this.next = null
    this.total = null
    this.error = null
    this.lastVisible = -1
    this.started = false
    return this.loadMore()
  }

  /**
   * The table shows rows up to `lastRow` (an index in the window). Loads the next page only when
   * a placeholder row is on screen, so the rows read never exceed the visible ones plus a page.
   */
  visible(lastRow: number): Promise<void> {
    // The table cannot show more than rowCount rows; a stray report past them loads one page at most.
    this.lastVisible = Math.max(-1, Math.min(lastRow, this.state.rowCount - 1))
    if (!this.started) return this.loadMore()
    if (this.lastVisible >= this.rows.length && this.canGrow()) return this.loadMore()
    return Promise.resolve()
  }

  /** After a failure: tries the same request again. */
  retry(): Promise<void> {
    this.error = null
    if (this.rows.length === 0) this.started = false
    return this.loadMore()
  }

  /** The next window, starting at the cursor after the loaded rows. */
  nextWindow(): Promise<void> {
    if (this.next === null) return Promise.resolve()
    this.abort()
    this.offset += this.rows.length
    this.windowCursor = this.next
    this.rows = []
    this.lastVisible = -1
    this.started = false
    this.error = null
    return this.loadMore()
  }

  /**
   * Re-reads the window's loaded rows (something was edited) in requests of at most 1,000 rows,
   * and swaps them in when all have come, so nothing flickers and the scroll position stays.
   */
  async refresh(): Promise<void> {
    if (!this.started) return this.loadMore()
    this.abort()
    const generation = ++this.generation
    const controller = new AbortController()
    this.controller = controller
    const want = Math.max(this.rows.length, this.options.pageSize)
    const fresh: R[] = []
    let cursor = this.windowCursor
    let page: Page<R> | null = null
    this.setLoading(true)
    try {
      while (fresh.length < want) {
        const limit = Math.min(maxLimit, want - fresh.length)
        this.requested += limit
        page = await this.fetcher(cursor, limit, controller.signal)
        if (generation !== this.generation) return
        fresh.push(...page.rows)
        cursor = page.next
        if (cursor === null || page.rows.length === 0) break
      }
      if (generation !== this.generation) return
      this.rows = fresh
      this.next = page?.next ?? null
      this.total = page?.total ?? this.total
      this.error = null
    } catch (error) {
      if (generation !== this.generation) return
      this.error = error
    }
    this.loading = false
    this.controller = null
    this.publish()
  }

  /** Replaces loaded rows in place (an optimistic edit); `same` finds the row to replace. */
  replace(same: (row: R) => boolean, next: R): void {
    const i = this.rows.findIndex(same)
    if (i < 0) return
    this.rows = [...this.rows]
    this.rows[i] = next
    this.publish()
  }

  /** Stops any request; the pager can still be reset afterwards. */
  dispose(): void {
    this.abort()
    this.listeners.clear()
  }

  private canGrow(): boolean {
    return this.next !== null && !this.loading && this.error === null && this.rows.length < this.options.maxRows
  }

  private abort(): void {
    this.generation++
    this.controller?.abort()
    this.controller = null
    this.loading = false
  }

  private setLoading(loading: boolean): void {
    this.loading = loading
    this.publish()
  }

  private async loadMore(): Promise<void> {
    if (this.loading) return
    const first = !this.started
    if (!first && !this.canGrow()) return
    this.started = true
    const generation = ++this.generation
    const controller = new AbortController()
    this.controller = controller
    const after = first ? this.windowCursor : this.next
    const limit = Math.min(this.options.pageSize, this.options.maxRows - this.rows.length)
    this.setLoading(true)
    try {
      this.requested += limit
      const page = await this.fetcher(after, limit, controller.signal)
      if (generation !== this.generation) return
      // Appended in place (a copy per page would cost O(n²) over a long scroll); the snapshot
      // object and its version still change, which is what the table watches.
      if (first) this.rows = [...page.rows]
      else for (const row of page.rows) this.rows.push(row)
      this.next = page.rows.length === 0 ? null : page.next
      this.total = page.total
      this.error = null
    } catch (error) {
      if (generation !== this.generation) return
      this.error = error
    }
    this.loading = false
    this.controller = null
    this.publish()
    // A tall table may already show placeholders past the page that just came.
    if (this.lastVisible >= this.rows.length && this.canGrow()) await this.loadMore()
  }

  private compute(): PagerState<R> {
    const loaded = this.rows.length
    const hasMore = this.next !== null
    const windowFull = hasMore && loaded >= this.options.maxRows
    let placeholders = 0
    if (!this.started || (loaded === 0 && this.loading)) placeholders = 0
    else if (hasMore && !windowFull && this.error === null) {
      const remaining = this.total === null ? this.options.pageSize : Math.max(0, this.total - this.offset - loaded)
      placeholders = Math.min(this.options.pageSize, this.options.maxRows - loaded, Math.max(1, remaining))
    }
    return {
      rows: this.rows,
      offset: this.offset,
      total: this.total,
      loading: this.loading,
      error: this.error,
      hasMore,
      windowFull,
      rowCount: loaded + placeholders,
      version: this.version,
    }
  }

  private publish(): void {
    this.version++
    this.state = this.compute()
    for (const listener of [...this.listeners]) listener()
  }
}
