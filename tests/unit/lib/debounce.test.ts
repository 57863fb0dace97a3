import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { debounce } from '../../../src/lib/debounce.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('debounce (trailing)', () => {
  it('runs once, wait ms after the last call, with the last arguments', () => {
    const fn = vi.fn()
    const d = debounce(fn, 100)
    d(1)
    vi.advanceTimersByTime(60)
    d(2)
    vi.advanceTimersByTime(60)
    d(3)
    vi.advanceTimersByTime(99)
    expect(fn).not.toHaveBeenCalled()
    expect(d.pending()).toBe(true)
    vi.advanceTimersByTime(1)
    expect(fn).toHaveBeenCalledTimes(1)
    expect(fn).toHaveBeenCalledWith(3)
    expect(d.pending()).toBe(false)
  })
  it('runs again for a later burst', () => {
    const fn = vi.fn()
    const d = debounce(fn, 50)
    d('a')
    vi.advanceTimersByTime(50)
    d('b')
    vi.advanceTimersByTime(50)
    expect(fn.mock.calls).toEqual([['a'], ['b']])
  })
  it('cancel drops the pending call', () => {
    const fn = vi.fn()
    const d = debounce(fn, 50)
    d('a')
    d.cancel()
    vi.advanceTimersByTime(500)
    expect(fn).not.toHaveBeenCalled()
    expect(d.pending()).toBe(false)
  })
  it('flush runs the pending call now, once', () => {
    const fn = vi.fn()
    const d = debounce(fn, 50)
    d('a')
    d.flush()
    expect(fn).toHaveBeenCalledWith('a')
    vi.advanceTimersByTime(500)
    expect(fn).toHaveBeenCalledTimes(1)
    d.flush()
    expect(fn).toHaveBeenCalledTimes(1)
  })
  it('for any burst of calls closer than wait, runs exactly once with the last arguments', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 1, maxLength: 30 }), (gaps) => {
        const calls: number[] = []
        const d = debounce((i: number) => calls.push(i), 100)
        gaps.forEach((gap, i) => {
          vi.advanceTimersByTime(gap)
          d(i)
        })
        vi.advanceTimersByTime(99)
        const early = calls.length
        vi.advanceTimersByTime(1)
        return early === 0 && calls.length === 1 && calls[0] === gaps.length - 1
      }),
    )
  })
})

describe('debounce (immediate)', () => {
  it('runs at the start of a burst and not at its end', () => {
    const fn = vi.fn()
    const d = debounce(fn, 100, true)
    d(1)
    expect(fn).toHaveBeenCalledWith(1)
    d(2)
    vi.advanceTimersByTime(90)
    d(3)
    vi.advanceTimersByTime(500)
    expect(fn).toHaveBeenCalledTimes(1)
  })
  it('extends the burst with each call and runs again after a quiet wait', () => {
    const fn = vi.fn()
    const d = debounce(fn, 100, true)
    d('a')
    vi.advanceTimersByTime(90)
    d('b')
    vi.advanceTimersByTime(90)
    d('c') // still inside the burst: 90 ms after the last call
    expect(fn).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(100)
    d('d')
    expect(fn.mock.calls).toEqual([['a'], ['d']])
  })
  it('cancel ends the burst, so the next call runs at once', () => {
    const fn = vi.fn()
    const d = debounce(fn, 100, true)
    d('a')
    d.cancel()
    d('b')
    expect(fn.mock.calls).toEqual([['a'], ['b']])
  })
})
