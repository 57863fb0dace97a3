/**
 * What the bench page (bench/palette/main.tsx) exposes as `window.__bench` to the driver
 * (bench/palette.ts). Times are the page's performance.now(), in milliseconds.
 */
export type Variant = 'ours' | 'cmdk'

export interface Mark {
  kind: 'open' | 'key'
  /** The keydown that opens the palette, or the input event of a keystroke (window, capture phase). */
  start: number
  /** The last React commit inside the <Command> before the frame (a probe's layout effect). */
  commit: number
  /** A setTimeout(0) queued from the first animation frame after that commit: that frame is painted. */
  paint: number
  /** The input's value the keystroke produced ('' for an open). */
  search: string
  /** [cmdk-item]s in the DOM after the frame. */
  items: number
}

export interface Snapshot {
  open: boolean
  search: string
  items: number
  first: string | null
}

export interface BenchApi {
  variant: Variant
  /** Entries the next open lists (?n=, default 5,000). */
  entryCount(): number
  /** Switches to the first `n` synthetic entries for the next open (the warm-up uses a few). */
  setEntries(n: number): number
  marks: Mark[]
  errors: string[]
  /** Resolves once at least `n` marks are complete (rejects after `timeoutMs`). */
  whenMarks(n: number, timeoutMs: number): Promise<void>
  snapshot(): Snapshot
}

declare global {
  interface Window {
    __bench?: BenchApi
  }
}
