import type { ProgressView } from '../../../contract/followUp.ts'

/** What the progress charts and tables show, computed from the server's counts (pure, no React). */

/** Every month from the first to the last (YYYY-MM), so a month without enrolment still shows. */
export function monthsBetween(first: string, last: string): string[] {
  const out: string[] = []
  let [y, m] = first.split('-').map(Number) as [number, number]
  const [ly, lm] = last.split('-').map(Number) as [number, number]
  while (y < ly || (y === ly && m <= lm)) {
    out.push(`${y}-${String(m).padStart(2, '0')}`)
    m += 1
    if (m > 12) {
      m = 1
      y += 1
    }
  }
  return out
}

export interface MonthRow {
  month: string
  /** Enrolments of the month per center id. */
  byCenter: Map<number, number>
  count: number
  cumulative: number
}

export function monthRows(p: ProgressView): MonthRow[] {
  if (p.enrolment.length === 0) return []
  const months = monthsBetween(p.enrolment[0]!.month, p.enrolment.at(-1)!.month)
  let cumulative = 0
  return months.map((month) => {
    const byCenter = new Map<number, number>()
    let count = 0
    for (const e of p.enrolment) {
      if (e.month !== month) continue
      byCenter.set(e.centerId, (byCenter.get(e.centerId) ?? 0) + e.count)
      count += e.count
    }
    cumulative += count
    return { month, byCenter, count, cumulative }
  })
}

/** Enrolments per center and queue: cell(centerId, queueId). */
export function crossTable(p: ProgressView): (centerId: number, queueId: number | null) => number {
  return (centerId, queueId) =>
    p.enrolment.filter((e) => e.centerId === centerId && (queueId === null || e.queueId === queueId)).reduce((n, e) => n + e.count, 0)
}

export const queueTotal = (p: ProgressView, queueId: number) =>
  p.enrolment.filter((e) => e.queueId === queueId).reduce((n, e) => n + e.count, 0)

/** Completed share of the expected records, 0–100, or null when nothing is expected. */
export function completion(f: ProgressView['forms'][number]): number | null {
  if (f.expected === null || f.expected === 0) return null
  return Math.min(100, Math.round(((f.saved + f.signed) / f.expected) * 100))
}

/** SPEC §9: the progress colours change at 30, 70 and 100 percent. */
export function rateBand(percent: number): 'low' | 'mid' | 'high' | 'full' {
  if (percent >= 100) return 'full'
  if (percent >= 70) return 'high'
  if (percent >= 30) return 'mid'
  return 'low'
}

/**
 * The ticks of a count axis, from 0 to the first tick at or above `max`: the smallest step of 1,
 * 2, 2.5 or 5 × 10^n (whole numbers: counts) that needs at most `most` intervals, so a plan of
 * 1,200 ends the axis at 1,200, not at a power of ten's 2,000.
 */
export function niceTicks(max: number, most = 6): number[] {
  if (max <= 0) return [0, 1]
  const step = niceStep(max, most)
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, i) => i * step)
}

function niceStep(max: number, most: number): number {
  for (let power = 1; ; power *= 10)
    for (const m of [1, 2, 2.5, 5]) {
      const step = m * power
      if (Number.isInteger(step) && Math.ceil(max / step) <= most) return step
    }
}

/**
 * A chart label cut to `room` as `measure` (the drawn width) gives it, ending in '…' when cut: a
 * count of characters let a Chinese name, or an English one in a wide font, run out of the chart.
 */
export function clipToWidth(text: string, room: number, measure: (s: string) => number): string {
  if (measure(text) <= room) return text
  // The longest start that fits with its ellipsis (the width grows with the length).
  let fits = 0
  let over = text.length
  while (over - fits > 1) {
    const mid = (fits + over) >> 1
    if (measure(`${text.slice(0, mid)}…`) <= room) fits = mid
    else over = mid
  }
  return `${text.slice(0, fits)}…`
}
