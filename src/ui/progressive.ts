import { useEffect, useState } from 'react'

/**
 * Progressive rendering of long forms (issue 7 item 2: REDCap forms reach 3,000 fields). Mounting
 * thousands of controls in one task freezes the page for seconds; mounting them a slice per task
 * lets the browser paint and answer input in between, while every field still ends up in the
 * document, so Tab, Enter and find-in-page reach all of them (a virtual list would not).
 */

/** Fields mounted in the first render, and added per later task. */
export const progressiveStep = 150

/**
 * How many of each part's `counts` to render when `limit` things may be rendered in all, filling
 * the parts in order.
 */
export function splitBudget(counts: readonly number[], limit: number): number[] {
  let left = Math.max(0, limit)
  return counts.map((n) => {
    const take = Math.min(n, left)
    left -= take
    return take
  })
}

/** How many of `total` things to render now; grows by `step` per task until it reaches `total`. */
export function useProgressiveLimit(total: number, step = progressiveStep): number {
  const [limit, setLimit] = useState(step)
  useEffect(() => {
    if (limit >= total) return
    const timer = setTimeout(() => setLimit((l) => l + step), 0)
    return () => clearTimeout(timer)
  }, [limit, total, step])
  return Math.min(limit, total)
}
