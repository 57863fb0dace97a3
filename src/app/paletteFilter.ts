/**
 * The palette's matcher. cmdk's default scorer matches any scattered subsequence, so 'split'
 * finds 'Single-center Projects'; people type words. Every typed word must start a word of, or
 * stand inside, the command's titles or keywords; a match at the start of a title ranks first.
 */
export function paletteScore(value: string, search: string, keywords: readonly string[] = []): number {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return 1
  const texts = [...keywords, value].map((k) => k.toLowerCase())
  const whole = search.trim().toLowerCase()
  if (texts.some((k) => k.startsWith(whole))) return 1
  let score = 0.8
  for (const word of words) {
    const wordStart = texts.some((k) => k.split(/[\s\-_./:：,()（）]+/).some((part) => part.startsWith(word)))
    if (wordStart) continue
    if (texts.some((k) => k.includes(word))) score -= 0.2
    else return 0
  }
  return Math.max(score, 0.1)
}
