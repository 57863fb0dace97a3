import type { MessageKey } from '../i18n/messages.ts'
import { ServiceError } from './errors.ts'

/** A caller's bounds and the keys of its refusals (each import speaks of its own file in its own words). */
export interface InflateLimits {
  maxInflatedBytes: number
  maxCellChars: number
  /** Parameters: the megabytes allowed. */
  tooLarge: MessageKey
  /** Parameters: the stretch's limit in kB, the longest cell allowed. */
  textTooLong: MessageKey
}

/**
 * The inflated bytes of one workbook, all entries together, and the longest stretch between two
 * '<': a tag or a text node. What a zip bomb claims in its headers is never trusted; the bytes
 * actually inflated are counted. A cell of Excel's maximum length, every character escaped
 * (&quot;), stays within the stretch; a bomb's one giant cell is stopped before any XML parser
 * holds it. Such a stretch is no cell that is merely too long (a readable one is refused later,
 * naming the cell): the file is told it expands past what a workbook may, by the stretch's limit.
 */
export class InflateBudget {
  private total = 0
  private run = 0
  private readonly maxRun: number

  constructor(private readonly limits: InflateLimits) {
    this.maxRun = limits.maxCellChars * 6 + 1024
  }

  take(chunk: Buffer): void {
    const { maxInflatedBytes, maxCellChars, tooLarge, textTooLong } = this.limits
    this.total += chunk.length
    if (this.total > maxInflatedBytes) throw new ServiceError('tooLarge', tooLarge, [Math.round(maxInflatedBytes / 1024 / 1024)])
    let from = 0
    for (;;) {
      const lt = chunk.indexOf(0x3c, from)
      this.run += (lt < 0 ? chunk.length : lt) - from
      if (this.run > this.maxRun) throw new ServiceError('tooLarge', textTooLong, [Math.round(this.maxRun / 1024), maxCellChars])
      if (lt < 0) return
      this.run = 0
      from = lt + 1
    }
  }
}
