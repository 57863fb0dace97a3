import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
} from 'react'
import { Button, ButtonGroup, HotkeysProvider, NonIdealState, Spinner, Tag } from '@blueprintjs/core'
import { HTMLSelect } from './HTMLSelect.tsx'
import {
  Cell,
  Column,
  ColumnHeaderCell,
  FocusMode,
  RegionCardinality,
  Regions,
  RenderMode,
  RowHeaderCell,
  Table,
  type Region,
  type TableProps,
} from '@blueprintjs/table'
import '@blueprintjs/table/lib/css/table.css'
import { useSnapshot } from 'valtio'
import { useT } from '../i18n/useT.ts'
import type { KeyLike } from '../i18n/index.ts'
import { KeysetPager, type Fetcher } from './denseTable/pager.ts'
import { denseFontSize, denseRowHeight, fitWidths, frozenCount } from './denseTable/sizing.ts'
import { settings } from '../state/settings.ts'
import { isKey, tableKeys } from './keyReference.ts'

export type { Fetcher, Page } from './denseTable/pager.ts'

type FocusedRegion = NonNullable<TableProps['focusedRegion']>

export type SortOrder = 'asc' | 'desc'
export interface Sort<K extends string = string> {
  key: K
  order: SortOrder
}

export interface DenseColumn<R> {
  id: string
  /** i18n key of the header. */
  header: KeyLike
  /** Declared width: the table scales the columns to fill its pane (see `fixed`). */
  width: number
  /** Holds content of a set width (actions, a switch, a time to the second): keeps `width` when the table fits its pane. */
  fixed?: boolean
  /** The server's sort key when the column is sortable. */
  sortKey?: string
  /** Content of the cell; the row is always loaded here. */
  render: (row: R) => ReactNode
  /** The cell holds controls (a switch, a button) that take the pointer. */
  interactive?: boolean
}

export interface DenseTableProps<R> {
  columns: readonly DenseColumn<R>[]
  /** The id of the column that identifies a row (a code, a name): it and the columns before it stay frozen when scrolled right. */
  identifier: string
  /** Reads a page of the current query (filters and sort bound by the caller). */
  fetchPage: Fetcher<R>
  /** Changes whenever the query does (filters, sort): the table starts over. */
  queryKey: string
  /** Changes when the data changed elsewhere: the loaded rows are read again in place. */
  reloadKey?: number
  sort: Sort
  onSort: (sort: Sort) => void
  /** Enter or a double click on a row; Ctrl/⌘ asks for a pane to the side. */
  onOpen?: (row: R, toSide: boolean) => void
  /** The selected row changed (null: none): for commands that act on it. */
  onSelect?: (row: R | null) => void
  /** Filter inputs supplied by the caller, shown above the table. */
  filters?: ReactNode
  /** Buttons shown at the right of the toolbar. */
  actions?: ReactNode
  pageSize?: number
  /** Rows one window may hold (the browser's element height cap); past it the table pages by windows. */
  maxRows?: number
  emptyText?: string
  testId?: string
}

/**
 * The one large list of the app (DESIGN §6, §8), on @blueprintjs/table's Table (Table2 is its
 * deprecated alias in v6): fixed row height, columns from the caller, server-side sort and
 * filters, keyset paging through `KeysetPager` (a page is read only when a placeholder row comes
 * into view), the rows in a plain array outside any proxy, and `cellRendererDependencies` bumped
 * on every change of the data. The row height and text follow the size setting; the columns fill
 * the pane (fixed ones keep their width) with the identifying column frozen. Keys (src/ui/keyReference.ts
 * `tableKeys`): ↑/↓ move the selected row, Home/End/PageUp/PageDown jump, Enter opens it
 * (Ctrl+Enter to the side), Ctrl+C copies it; the sort selector and the sortable headers are
 * buttons reachable with Tab.
 */
export function DenseTable<R>({
  columns,
  identifier,
  fetchPage,
  queryKey,
  reloadKey = 0,
  sort,
  onSort,
  onOpen,
  onSelect,
  filters,
  actions,
  pageSize = 100,
  maxRows = 200_000,
  emptyText,
  testId = 'dense-table',
}: DenseTableProps<R>) {
  const t = useT()
  const fetchRef = useRef(fetchPage)
  fetchRef.current = fetchPage
  const pager = useMemo(
    () => new KeysetPager<R>((after, limit, signal) => fetchRef.current(after, limit, signal), { pageSize, maxRows }),
    [pageSize, maxRows],
  )
  const state = useSyncExternalStore(pager.subscribe, pager.snapshot, pager.snapshot)
  const [focusedRow, setFocusedRow] = useState<number | null>(null)
  const { size } = useSnapshot(settings)
  const rowHeight = denseRowHeight[size]
  const body = useRef<HTMLDivElement>(null)
  const table = useRef<Table>(null)
  // The width the columns may fill; widths the user dragged replace the fitted ones.
  const [available, setAvailable] = useState(0)
  const [dragged, setDragged] = useState<number[] | null>(null)
  const fitted = useMemo(() => fitWidths(columns, available), [columns, available])
  const widths = dragged ?? fitted
  const frozen = frozenCount(
    columns.map((c) => c.id),
    identifier,
  )
  const lastVisible = useRef(-1)

  useEffect(() => () => pager.dispose(), [pager])
  useEffect(() => {
    setFocusedRow(null)
    void pager.reset()
  }, [pager, queryKey])
  const firstReload = useRef(reloadKey)
  useEffect(() => {
    if (reloadKey === firstReload.current) return
    firstReload.current = reloadKey
    void pager.refresh()
  }, [pager, reloadKey])
  useEffect(() => setDragged(null), [columns])
  // Placeholders may still be on screen after a page arrived (a tall pane): ask again.
  useEffect(() => {
    if (lastVisible.current >= state.rows.length) void pager.visible(lastVisible.current)
  }, [pager, state])

  // The pane's width less the row numbers and a vertical scroll bar: what the columns may fill.
  const measure = useCallback(() => {
    const el = body.current
    if (!el) return
    const scroller = el.querySelector<HTMLElement>('.bp6-table-quadrant-main .bp6-table-quadrant-scroll-container')
    const rowHeaders = el.querySelector<HTMLElement>('.bp6-table-quadrant-main .bp6-table-row-headers')
    const width = (scroller?.clientWidth ?? el.clientWidth) - (rowHeaders?.offsetWidth ?? 0) - 1
    setAvailable((old) => (Math.abs(old - width) > 1 ? width : old))
  }, [])
  // After the table's own render the row numbers widen as the count gains digits, and a vertical
  // scroll bar takes its width once the rows outgrow the pane: watch both, not just the pane.
  const observer = useMemo(() => (typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure)), [measure])
  useEffect(() => {
    const el = body.current
    if (!el || !observer) return
    observer.observe(el)
    return () => observer.disconnect()
  }, [observer])
  useLayoutEffect(() => {
    measure()
    for (const part of ['.bp6-table-quadrant-scroll-container', '.bp6-table-row-headers']) {
      const el = body.current?.querySelector<HTMLElement>(`.bp6-table-quadrant-main ${part}`)
      if (el && observer) observer.observe(el)
    }
  }, [measure, observer, state.rowCount, state.total])

  const onVisible = useCallback(
    (rows: { rowIndexEnd: number }) => {
      lastVisible.current = rows.rowIndexEnd
      void pager.visible(rows.rowIndexEnd)
    },
    [pager],
  )

  const selectRef = useRef(onSelect)
  selectRef.current = onSelect
  useEffect(() => selectRef.current?.(focusedRow === null ? null : (pager.row(focusedRow) ?? null)), [focusedRow, pager, state.version])

  const open = useCallback(
    (toSide: boolean) => {
      if (focusedRow === null || !onOpen) return
      const row = pager.row(focusedRow)
      if (row !== undefined) onOpen(row, toSide)
    },
    [focusedRow, onOpen, pager],
  )

  const jumpTo = (row: number) => {
    const target = Math.max(0, Math.min(row, state.rowCount - 1))
    setFocusedRow(target)
    table.current?.scrollToRegion(Regions.row(target))
  }

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target instanceof HTMLElement && ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON'].includes(e.target.tagName)) return
    const page = Math.max(1, Math.floor((body.current?.clientHeight ?? rowHeight) / rowHeight) - 1)
    const at = focusedRow ?? 0
    if (isKey(tableKeys.open, e)) open(false)
    else if (isKey(tableKeys.openToSide, e)) open(true)
    else if (isKey(tableKeys.first, e)) jumpTo(0)
    else if (isKey(tableKeys.last, e)) jumpTo(state.rows.length - 1)
    else if (isKey(tableKeys.pageUp, e)) jumpTo(at - page)
    else if (isKey(tableKeys.pageDown, e)) jumpTo(at + page)
    else return
    e.preventDefault()
  }

  const focusedRegion: FocusedRegion | undefined =
    focusedRow === null ? undefined : { type: FocusMode.ROW, row: focusedRow, focusSelectionIndex: 0 }
  const selectedRegions: Region[] = focusedRow === null ? [] : [Regions.row(focusedRow)]

  const sortable = columns.filter((c) => c.sortKey)
  const toggleSort = (key: string) => onSort({ key, order: sort.key === key && sort.order === 'asc' ? 'desc' : 'asc' })
  // The header a key sorted by: the table draws its headers anew for the new order, and the focus
  // went to the page, so a second Enter (the other way round) did nothing. It goes back to the header.
  const sortedFrom = useRef<string | null>(null)
  useEffect(() => {
    const id = sortedFrom.current
    if (id === null) return
    let frame = 0
    const selector = `[data-testid="sort-${id}"]`
    const attempt = (left: number) => {
      const active = document.activeElement
      const header = [...(body.current?.querySelectorAll<HTMLElement>(selector) ?? [])].find((el) => el.getClientRects().length > 0)
      if (header && active === document.body) {
        sortedFrom.current = null
        header.focus()
      } else if (left === 0 || (active !== document.body && !active?.matches(selector))) sortedFrom.current = null
      // Still on the header the table is about to draw anew, or between the two: a frame later.
      else frame = requestAnimationFrame(() => attempt(left - 1))
    }
    attempt(120)
    return () => cancelAnimationFrame(frame)
  }, [sort.key, sort.order, state])

  const headerCell = (c: DenseColumn<R>) => () => {
    const active = c.sortKey !== undefined && sort.key === c.sortKey
    return (
      <ColumnHeaderCell
        nameRenderer={() =>
          c.sortKey ? (
            <button
              type="button"
              className={`dense-sort ${active ? 'dense-sort-active' : ''}`}
              data-testid={`sort-${c.id}`}
              data-sort={active ? sort.order : 'none'}
              onClick={(e) => {
                if (e.currentTarget === document.activeElement) sortedFrom.current = c.id
                toggleSort(c.sortKey as string)
              }}
            >
              <span className="dense-sort-name" title={t(c.header)}>
                {t(c.header)}
              </span>
              {/* Blueprint's header cell has no columnheader role to carry aria-sort: the state is read out instead. */}
              {active && (
                <span className="sr-only">{t(sort.order === 'asc' ? 'dictionary.table.ascending' : 'dictionary.table.descending')}</span>
              )}
              <span className="dense-sort-mark" aria-hidden>
                {active ? (sort.order === 'asc' ? '▲' : '▼') : '↕'}
              </span>
            </button>
          ) : (
            // Focusable, not a tab stop: a header row that scrolls sideways holds focusable
            // content even without a sortable column (axe's scrollable-region rule, as the row numbers).
            <span className="dense-header" title={t(c.header)} tabIndex={-1}>
              {t(c.header)}
            </span>
          )
        }
      />
    )
  }

  const cellRenderer = (c: DenseColumn<R>) => (rowIndex: number) => {
    const row = pager.row(rowIndex)
    if (row === undefined) return <Cell loading />
    const content = c.render(row)
    // A text cut to its column's width is read in full on hover.
    return (
      <Cell
        interactive={c.interactive === true}
        className={rowIndex === focusedRow ? 'dense-row-focused' : undefined}
        tooltip={typeof content === 'string' ? content : undefined}
      >
        {content}
      </Cell>
    )
  }

  const loaded = state.rows.length
  const first = state.total === null
  const empty = state.total === 0 && !state.loading

  return (
    <div
      className="dense-table"
      data-testid={testId}
      data-total={state.total ?? ''}
      data-loaded={loaded}
      data-row-height={rowHeight}
      style={{ '--dense-row-height': `${rowHeight}px`, '--dense-font-size': `${denseFontSize[size]}px` } as CSSProperties}
    >
      <div className="dense-toolbar">
        <div className="dense-filters">{filters}</div>
        {sortable.length > 0 && (
          <ButtonGroup className="dense-sort-control">
            <HTMLSelect
              aria-label={t('dictionary.table.sortBy')}
              value={sort.key}
              data-testid={`${testId}-sort`}
              onChange={(e) => onSort({ key: e.currentTarget.value, order: sort.order })}
              options={sortable.map((c) => ({ value: c.sortKey as string, label: t(c.header) }))}
            />
            <Button
              icon={sort.order === 'asc' ? 'sort-asc' : 'sort-desc'}
              aria-label={t(sort.order === 'asc' ? 'dictionary.table.ascending' : 'dictionary.table.descending')}
              title={t(sort.order === 'asc' ? 'dictionary.table.ascending' : 'dictionary.table.descending')}
              data-testid={`${testId}-order`}
              onClick={() => onSort({ key: sort.key, order: sort.order === 'asc' ? 'desc' : 'asc' })}
            />
          </ButtonGroup>
        )}
        {actions && <div className="dense-actions">{actions}</div>}
      </div>
      <div
        className="dense-body"
        ref={body}
        onKeyDown={onKeyDown}
        onDoubleClick={() => open(false)}
        onFocus={(e) => {
          // Tabbing into the table selects its first row, so the arrow keys have a place to start.
          if (focusedRow === null && pager.row(0) !== undefined && e.target.classList.contains('bp6-table-container')) setFocusedRow(0)
        }}
      >
        {first ? (
          state.error ? (
            <NonIdealState
              icon="error"
              title={t('dictionary.table.loadError')}
              action={<Button text={t('dictionary.table.retry')} onClick={() => void pager.retry()} />}
            />
          ) : (
            <Spinner className="dense-spinner" />
          )
        ) : empty ? (
          <NonIdealState icon="search" title={emptyText ?? t('dictionary.table.empty')} />
        ) : (
          <HotkeysProvider renderDialog={() => <></>}>
            <Table
              // Blueprint reads the row height once: a new size is a new table.
              key={rowHeight}
              ref={table}
              numRows={state.rowCount}
              numFrozenColumns={frozen}
              defaultRowHeight={rowHeight}
              enableRowResizing={false}
              enableMultipleSelection={false}
              enableColumnResizing
              columnWidths={widths}
              onColumnWidthChanged={(i, w) => setDragged(widths.map((x, j) => (j === i ? w : x)))}
              selectionModes={[RegionCardinality.CELLS, RegionCardinality.FULL_ROWS]}
              selectedRegionTransform={(region) => Regions.row(region.rows?.[0] ?? 0, region.rows?.[1] ?? region.rows?.[0] ?? 0)}
              selectedRegions={selectedRegions}
              // With a focus mode and no focused region Blueprint focuses (and outlines) the first
              // row: until a row is chosen there is no focus mode, so nothing looks selected.
              focusMode={focusedRow === null ? undefined : FocusMode.ROW}
              focusedRegion={focusedRegion}
              onFocusedRegion={(r) => setFocusedRow(r.row)}
              onSelection={(regions) => {
                const r = regions[0]?.rows?.[0]
                if (r !== undefined) setFocusedRow(r)
              }}
              onVisibleCellsChange={onVisible}
              // Batched rendering keeps cells drawn before a re-fit at their old width (a sideways
              // scroll appears); a window of visible cells is small enough to draw at once.
              renderMode={RenderMode.NONE}
              cellRendererDependencies={[state.version, columns, t, focusedRow, widths]}
              // The row numbers are focusable without being tab stops: each scrolling part of the table
              // (frozen and main) then holds focusable content, as axe's scrollable-region rule asks,
              // however many rows it shows and whatever its cells hold.
              rowHeaderCellRenderer={(i) => (
                <RowHeaderCell
                  name={String(state.offset + i + 1)}
                  nameRenderer={(name) => (
                    <div className="bp6-table-row-name-text" tabIndex={-1}>
                      {name}
                    </div>
                  )}
                />
              )}
              getCellClipboardData={(row, col) => {
                const r = pager.row(row)
                const c = columns[col]
                return r === undefined || !c ? '' : textOf(c.render(r))
              }}
            >
              {columns.map((c) => (
                <Column key={c.id} id={c.id} cellRenderer={cellRenderer(c)} columnHeaderCellRenderer={headerCell(c)} />
              ))}
            </Table>
          </HotkeysProvider>
        )}
      </div>
      <div className="dense-footer" data-testid={`${testId}-footer`}>
        <span>
          {state.total === null
            ? t('app.loading')
            : t('dictionary.table.count', { loaded: (state.offset + loaded).toLocaleString(), total: state.total.toLocaleString() })}
        </span>
        {state.loading && <Spinner size={14} />}
        {state.error !== null && !first && (
          <>
            <Tag intent="danger" minimal>
              {t('dictionary.table.loadError')}
            </Tag>
            <Button size="small" variant="minimal" text={t('dictionary.table.retry')} onClick={() => void pager.retry()} />
          </>
        )}
        {(state.windowFull || state.offset > 0) && (
          <span className="dense-window">
            {state.offset > 0 && (
              <Button
                size="small"
                variant="minimal"
                icon="double-chevron-up"
                text={t('dictionary.table.firstWindow')}
                onClick={() => void pager.reset()}
              />
            )}
            {state.windowFull && (
              <Button
                size="small"
                variant="minimal"
                icon="double-chevron-down"
                text={t('dictionary.table.nextWindow')}
                onClick={() => void pager.nextWindow()}
              />
            )}
          </span>
        )}
      </div>
    </div>
  )
}

/** Plain text of a cell's content, for copying. */
function textOf(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === 'boolean') return ''
  if (typeof node === 'string' || typeof node === 'number') return String(node)
  if (Array.isArray(node)) return node.map(textOf).join('')
  return ''
}
