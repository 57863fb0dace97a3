/**
 * The keyset paging of DenseTable (DESIGN §6, §8) without React: a fake server of N rows that
 * answers by cursor, and a table that reports the last visible row as a person scrolls.
 */
import { describe, expect, it } from 'vitest'
import { KeysetPager, type Fetcher, type Page } from '../../../src/ui/denseTable/pager.ts'

interface Row {
  id: number
}

/** A keyset server: the cursor is the last id; it counts the rows it sent. */
function server(total: number, options: { delay?: number; failAt?: number } = {}) {
  const calls: { after: string | null; limit: number }[] = []
  let sent = 0
  let fail = options.failAt
  const fetcher: Fetcher<Row> = async (after, limit, signal) => {
    calls.push({ after, limit })
    if (options.delay) await new Promise((r) => setTimeout(r, options.delay))
    if (signal.aborted) throw new Error('aborted')
    const start = after === null ? 0 : Number(after)
    if (fail !== undefined && start >= fail) {
      fail = undefined
      throw new Error('boom')
    }
    const rows = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => ({ id: start + i + 1 }))
    sent += rows.length
    const end = start + rows.length
    const page: Page<Row> = { rows, next: end < total ? String(end) : null, total }
    return page
  }
  return { fetcher, calls, sent: () => sent }
}

describe('KeysetPager', () => {
  it('reads the first page on reset and shows one page of placeholders after it', async () => {
    const s = server(100_000)
    const pager = new KeysetPager(s.fetcher, { pageSize: 100 })
    await pager.reset()
    const st = pager.snapshot()
    expect(st.rows.length).toBe(100)
    expect(st.total).toBe(100_000)
    expect(st.rowCount).toBe(200)
    expect(st.hasMore).toBe(true)
    expect(s.calls).toEqual([{ after: null, limit: 100 }])
  })

  it('loads the next page only when a placeholder row becomes visible', async () => {
    const s = server(100_000)
    const pager = new KeysetPager(s.fetcher, { pageSize: 100 })
    await pager.reset()
    await pager.visible(40)
    await pager.visible(99)
    expect(s.calls.length).toBe(1)
    await pager.visible(100)
    expect(s.calls.map((c) => c.after)).toEqual([null, '100'])
    expect(
      pager
        .snapshot()
        .rows.map((r) => r.id)
        .slice(98, 102),
    ).toEqual([99, 100, 101, 102])
  })

  it('never reads more than the visible rows plus one page while scrolling through 100,000 rows', async () => {
    const s = server(100_000)
    const pager = new KeysetPager(s.fetcher, { pageSize: 100, maxRows: 200_000 })
    await pager.reset()
    let last = 0
    // A person scrolling 30 rows at a time, faster and faster, as far as the table lets them.
    for (let step = 30; last < 99_999; step = Math.min(step + 7, 90)) {
      last = Math.min(last + step, pager.snapshot().rowCount - 1)
      await pager.visible(last)
      expect(s.sent()).toBeLessThanOrEqual(last + 1 + 100)
    }
    const st = pager.snapshot()
    expect(st.rows.length).toBe(100_000)
    expect(st.rows[99_999]?.id).toBe(100_000)
    expect(st.hasMore).toBe(false)
    expect(st.rowCount).toBe(100_000)
    expect(new Set(st.rows.map((r) => r.id)).size).toBe(100_000)
  })

  it('cannot be scrolled past one page of placeholders, so a jump cannot trigger a burst of requests', async () => {
    const s = server(100_000)
    const pager = new KeysetPager(s.fetcher, { pageSize: 50 })
    await pager.reset()
    // The table cannot show row 5,000 (rowCount is 100) but a stray report must not load 100 pages.
    await pager.visible(5_000)
    expect(s.calls.length).toBeLessThanOrEqual(2)
  })

  it('keeps loading while a tall table still shows placeholders after a page arrives', async () => {
    const s = server(1_000)
    const pager = new KeysetPager(s.fetcher, { pageSize: 20 })
    await pager.reset()
    // The table reports its visible rows again whenever the row count changes (a new grid).
    for (let i = 0; i < 5; i++) await pager.visible(59)
    expect(pager.snapshot().rows.length).toBe(60)
    expect(s.sent()).toBeLessThanOrEqual(60 + 20)
  })

  it('drops the answer of a request made before a reset', async () => {
    const slow = server(1_000, { delay: 30 })
    const pager = new KeysetPager(slow.fetcher, { pageSize: 10 })
    const first = pager.reset()
    const fast = server(5)
    const second = pager.reset(fast.fetcher)
    await Promise.all([first, second])
    const st = pager.snapshot()
    expect(st.total).toBe(5)
    expect(st.rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5])
    expect(st.hasMore).toBe(false)
    expect(st.rowCount).toBe(5)
  })

  it('shows no placeholders and no total before the first answer, and an empty list as empty', async () => {
    const s = server(0)
    const pager = new KeysetPager(s.fetcher, { pageSize: 10 })
    expect(pager.snapshot()).toMatchObject({ total: null, rowCount: 0, loading: false })
    const p = pager.reset()
    expect(pager.snapshot()).toMatchObject({ total: null, rowCount: 0, loading: true })
    await p
    expect(pager.snapshot()).toMatchObject({ total: 0, rowCount: 0, loading: false, hasMore: false })
  })

  it('keeps the loaded rows on a failure, stops growing, and retries the same page', async () => {
    const s = server(300, { failAt: 100 })
    const pager = new KeysetPager(s.fetcher, { pageSize: 100 })
    await pager.reset()
    await pager.visible(100)
    let st = pager.snapshot()
    expect((st.error as Error).message).toBe('boom')
    expect(st.rows.length).toBe(100)
    expect(st.rowCount).toBe(100)
    await pager.visible(100)
    expect(s.calls.length).toBe(2)
    await pager.retry()
    st = pager.snapshot()
    expect(st.error).toBeNull()
    expect(st.rows.length).toBe(200)
    expect(s.calls.map((c) => c.after)).toEqual([null, '100', '100'])
  })

  it('holds at most maxRows in a window, then walks on window by window from the cursor', async () => {
    const s = server(1_000)
    const pager = new KeysetPager(s.fetcher, { pageSize: 100, maxRows: 300 })
    await pager.reset()
    await pager.visible(100)
    await pager.visible(200)
    let st = pager.snapshot()
    expect(st.rows.length).toBe(300)
    expect(st.windowFull).toBe(true)
    expect(st.rowCount).toBe(300)
    await pager.visible(299)
    expect(s.calls.length).toBe(3)

    await pager.nextWindow()
    st = pager.snapshot()
    expect(st.offset).toBe(300)
    expect(st.rows[0]?.id).toBe(301)
    expect(st.rows.length).toBe(100)
    expect(s.calls.at(-1)).toEqual({ after: '300', limit: 100 })
  })

  it('refreshes the loaded rows of the window in place, in requests of at most 1,000 rows', async () => {
    let version = 0
    const total = 5_000
    const calls: number[] = []
    const fetcher: Fetcher<{ id: number; v: number }> = async (after, limit) => {
      calls.push(limit)
      const start = after === null ? 0 : Number(after)
      const rows = Array.from({ length: Math.min(limit, total - start) }, (_, i) => ({ id: start + i + 1, v: version }))
      const end = start + rows.length
      return { rows, next: end < total ? String(end) : null, total }
    }
    const pager = new KeysetPager(fetcher, { pageSize: 500 })
    await pager.reset()
    for (let last = 0; last < 1_400; last += 100) await pager.visible(last)
    expect(pager.snapshot().rows.length).toBe(1_500)
    calls.length = 0
    version = 1
    await pager.refresh()
    const st = pager.snapshot()
    expect(calls).toEqual([1_000, 500])
    expect(st.rows.length).toBe(1_500)
    expect(st.rows.every((r) => r.v === 1)).toBe(true)
    expect(st.hasMore).toBe(true)
  })

  it('changes its snapshot (and version) on every change and keeps it otherwise', async () => {
    const s = server(10)
    const pager = new KeysetPager(s.fetcher, { pageSize: 5 })
    const seen: number[] = []
    pager.subscribe(() => seen.push(pager.snapshot().version))
    await pager.reset()
    const a = pager.snapshot()
    expect(pager.snapshot()).toBe(a)
    pager.replace((r) => r.id === 3, { id: 3 })
    expect(pager.snapshot()).not.toBe(a)
    expect(pager.snapshot().version).toBeGreaterThan(a.version)
    expect(seen.length).toBeGreaterThanOrEqual(3)
  })
})
