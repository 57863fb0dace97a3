/**
 * How a DenseTable follows the size setting (SPEC §2 global size: default / medium / small /
 * mini) and fits its pane. Pure: the table measures, these answer.
 */
import type { Size } from '../../../commands/context.ts'

/** Row height in px per size: a fixed height per setting (DESIGN §8: the table's scroll math needs one). */
export const denseRowHeight: Readonly<Record<Size, number>> = { default: 36, medium: 32, small: 28, mini: 24 }

/** Cell text size in px per size. */
export const denseFontSize: Readonly<Record<Size, number>> = { default: 14, medium: 13, small: 12, mini: 11 }

/** No column is squeezed below this (or below its own width, if smaller) to fit. */
export const minColumnWidth = 56

/**
 * Nor below this share of its declared width: squeezed further, most cells of a wide list (the
 * sample list's 14 columns on a 1440 px screen) showed only their first letters; the pane
 * scrolls sideways instead, its identifying column frozen.
 */
export const minColumnShare = 0.7

export interface Fittable {
  /** The width the list declares: a share of the pane, not a promise. */
  width: number
  /** Holds controls of a set width (actions, a switch): never scaled. */
  fixed?: boolean
}

/**
 * Column widths that fill `available` px: fixed columns keep their width, the others share the
 * rest in proportion to their declared widths (whole pixels; the remainder goes to the widest). A
 * column whose share falls below its floor (`minColumnShare` of its declared width, at least
 * `minColumnWidth`) keeps its floor and the others share what is left: scaled all alike, the floors
 * pushed the sum past the pane by a few pixels and the table scrolled for nothing. When the floors
 * themselves do not fit, the sum exceeds `available` and the table scrolls, its identifying column
 * frozen. Without a measurement (`available` ≤ 0) the declared widths stand.
 */
export function fitWidths(columns: readonly Fittable[], available: number): number[] {
  const declared = columns.map((c) => c.width)
  if (!(available > 0) || columns.length === 0) return declared
  const floor = (w: number) => Math.min(w, Math.max(minColumnWidth, Math.ceil(w * minColumnShare)))
  const pinned = columns.map((c) => c.fixed === true)
  if (pinned.every(Boolean)) return declared
  let widths: number[] = []
  for (;;) {
    const taken = columns.reduce((sum, c, i) => sum + (c.fixed ? c.width : pinned[i] ? floor(c.width) : 0), 0)
    const shared = columns.reduce((sum, c, i) => sum + (pinned[i] ? 0 : c.width), 0)
    const scale = shared === 0 ? 0 : Math.max(0, available - taken) / shared
    widths = columns.map((c, i) => (c.fixed ? c.width : pinned[i] ? floor(c.width) : Math.floor(c.width * scale)))
    const under = columns.map((c, i) => !pinned[i] && (widths[i] ?? 0) < floor(c.width))
    if (!under.some(Boolean)) break
    under.forEach((u, i) => {
      if (u) pinned[i] = true
    })
  }
  const left = available - widths.reduce((a, b) => a + b, 0)
  if (left > 0) {
    let widest = -1
    columns.forEach((c, i) => {
      if (!c.fixed && (widest < 0 || c.width > (columns[widest]?.width ?? 0))) widest = i
    })
    if (widest >= 0) widths[widest] = (widths[widest] ?? 0) + left
  }
  return widths
}

/**
 * How many columns stay frozen when the table scrolls sideways: the identifying one and those
 * before it, else the first. Never more than there are columns: a table whose columns have not
 * arrived yet freezes none (Blueprint warns of more, and clamps).
 */
export function frozenCount(columnIds: readonly string[], identifier: string | undefined): number {
  return Math.min(
    columnIds.length,
    Math.max(
      0,
      columnIds.findIndex((id) => id === identifier),
    ) + 1,
  )
}
