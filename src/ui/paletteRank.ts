/** One line of the palette: a command now, records (projects, subjects, CRFs) later. */
export interface PaletteEntry {
  id: string
  section: string
  title: string
  /** The title in the other language, shown dimmed. */
  alt?: string
  /** Matched too: both titles, synonyms, codes. */
  keywords: readonly string[]
  hotkey?: string | null
  disabled?: boolean
}

/**
 * How well `search` matches: every typed word must start a word of, or stand inside, one of the
 * texts; a text that starts with the whole search ranks first. cmdk's default scorer matches
 * scattered letters, so 'split' would find 'Single-center Projects'; people type words.
 */
export function paletteScore(texts: readonly string[], search: string): number {
  const whole = search.trim().toLowerCase()
  if (whole === '') return 1
  const lower = texts.map((k) => k.toLowerCase())
  if (lower.some((k) => k.startsWith(whole))) return 1
  let score = 0.8
  for (const word of whole.split(/\s+/)) {
    if (lower.some((k) => k.split(/[\s\-_./:：,()（）]+/).some((part) => part.startsWith(word)))) continue
    if (lower.some((k) => k.includes(word))) score -= 0.2
    else return 0
  }
  return Math.max(score, 0.1)
}

/** The best `limit` entries for `search`, best first, ties in their given order. */
export function rankEntries(entries: readonly PaletteEntry[], search: string, limit: number): PaletteEntry[] {
  if (search.trim() === '') return entries.slice(0, limit)
  const scored: { e: PaletteEntry; s: number; i: number }[] = []
  entries.forEach((e, i) => {
    const s = paletteScore([e.title, e.alt ?? '', ...e.keywords, e.id], search)
    if (s > 0) scored.push({ e, s, i })
  })
  scored.sort((a, b) => b.s - a.s || a.i - b.i)
  return scored.slice(0, limit).map((x) => x.e)
}
