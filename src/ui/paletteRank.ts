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

/** An entry's texts, lower-cased and cut into words once, not on every keystroke. */
interface Prepared {
  lower: string[]
  parts: string[]
}

/** The leading texts that are the entry's titles (its own and the other language's): the rest are keywords and its id. */
const titleTexts = 2

const wordBreak = /[\s\-_./:：,()（）]+/

function prepare(texts: readonly string[]): Prepared {
  const lower = texts.map((k) => k.toLowerCase())
  return { lower, parts: lower.flatMap((k) => k.split(wordBreak)) }
}

function score(p: Prepared, whole: string, words: readonly string[]): number {
  // 'compare' puts "Compare with…" before "Open project to the side", whose keywords hold it too.
  if (p.lower.some((k, i) => i < titleTexts && k.startsWith(whole))) return 1
  if (p.lower.some((k) => k.startsWith(whole))) return 0.9
  let s = 0.8
  for (const word of words) {
    if (p.parts.some((part) => part.startsWith(word))) continue
    if (p.lower.some((k) => k.includes(word))) s -= 0.2
    else return 0
  }
  return Math.max(s, 0.1)
}

/**
 * How well `search` matches (`texts`: the title, the other language's title, then keywords and
 * id): every typed word must start a word of, or stand inside, one of the texts; a title that
 * starts with the whole search ranks first, then a keyword or id that does. cmdk's default scorer matches
 * scattered letters, so 'split' would find 'Single-center Projects'; people type words.
 */
export function paletteScore(texts: readonly string[], search: string): number {
  const whole = search.trim().toLowerCase()
  if (whole === '') return 1
  return score(prepare(texts), whole, whole.split(/\s+/))
}

const prepared = new WeakMap<PaletteEntry, Prepared>()
const preparedOf = (e: PaletteEntry) => {
  let p = prepared.get(e)
  if (!p) {
    p = prepare([e.title, e.alt ?? '', ...e.keywords, e.id])
    prepared.set(e, p)
  }
  return p
}

/** The best `limit` entries for `search`, best first, ties in their given order. */
export function rankEntries(entries: readonly PaletteEntry[], search: string, limit: number): PaletteEntry[] {
  const whole = search.trim().toLowerCase()
  if (whole === '') return entries.slice(0, limit)
  const words = whole.split(/\s+/)
  const scored: { e: PaletteEntry; s: number; i: number }[] = []
  entries.forEach((e, i) => {
    const s = score(preparedOf(e), whole, words)
    if (s > 0) scored.push({ e, s, i })
  })
  scored.sort((a, b) => b.s - a.s || a.i - b.i)
  return scored.slice(0, limit).map((x) => x.e)
}
