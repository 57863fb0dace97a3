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
  /** The words of the titles alone. */
  titleParts: string[]
}

/** The leading texts that are the entry's titles (its own and the other language's): the rest are keywords and its id. */
const titleTexts = 2

const wordBreak = /[\s\-_./:：,()（）]+/

/** Chinese is typed without spaces between words: such a word is matched by its characters, not as one word. */
const han = /^\p{Script=Han}+$/u

function prepare(texts: readonly string[]): Prepared {
  const lower = texts.map((k) => k.toLowerCase())
  const split = (k: string) => k.split(wordBreak)
  return { lower, parts: lower.flatMap(split), titleParts: lower.slice(0, titleTexts).flatMap(split) }
}

/** Whether the characters of `word` appear in `text` in their order ('下载模板' in '下载数据模板'). */
function inOrder(text: string, word: string): boolean {
  let at = 0
  for (const c of word) {
    at = text.indexOf(c, at)
    if (at < 0) return false
    at += c.length
  }
  return true
}

/**
 * Whether `word` is made of pieces of two or more characters, each inside one of the texts
 * ('查找患者': '查找' and '患者' are both keywords). Single characters would match nearly anything.
 */
function pieced(texts: readonly string[], word: string): boolean {
  const chars = [...word]
  const from = (i: number): boolean => {
    if (i === chars.length) return true
    for (let j = chars.length; j >= i + 2; j--) {
      const piece = chars.slice(i, j).join('')
      if (texts.some((k) => k.includes(piece)) && from(j)) return true
    }
    return false
  }
  return from(0)
}

/**
 * What a typed word costs: nothing when it starts a word of a title, more the looser it matches
 * (a keyword's word, inside a title, inside a keyword, in pieces); null when it does not match.
 */
function wordCost(p: Prepared, word: string): number | null {
  const chinese = han.test(word)
  if (p.titleParts.some((part) => part.startsWith(word))) return 0
  if (p.parts.some((part) => part.startsWith(word))) return 0.05
  if (p.lower.some((k, i) => i < titleTexts && (chinese ? inOrder(k, word) : k.includes(word)))) return 0.1
  if (p.lower.some((k) => k.includes(word))) return 0.2
  return chinese && pieced(p.lower, word) ? 0.3 : null
}

function score(p: Prepared, whole: string, words: readonly string[]): number {
  const titles = p.lower.slice(0, titleTexts)
  if (titles.includes(whole)) return 1
  // 'compare' puts "Compare with…" before "Open project to the side", whose keywords hold it too.
  if (titles.some((k) => k.startsWith(whole))) return 0.95
  // 'enrol' is a keyword of "New research object" and starts one ('enrolment') of "Project progress".
  if (p.lower.includes(whole)) return 0.92
  if (p.lower.some((k) => k.startsWith(whole))) return 0.9
  let s = 0.8
  for (const word of words) {
    const cost = wordCost(p, word)
    if (cost === null) return 0
    s -= cost
  }
  return Math.max(s, 0.1)
}

/**
 * How well `search` matches (`texts`: the title, the other language's title, then keywords and
 * id). A title that is the search ranks first, then one that starts with it, then a keyword or id
 * that is or starts with it. Otherwise every typed word must match: best when it starts a word
 * of a title, then a word of a keyword, then inside a title, then inside a keyword; a Chinese word
 * (typed without spaces) matches a title by its characters in order, or is made of pieces found
 * among the texts. cmdk's
 * default scorer matches scattered letters, so 'split' would find 'Single-center Projects';
 * people type words.
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
