/** SPEC §9 number formatter: 1234 → '1.2k', 1.5e6 → '1.5M', up to E (1e18). */
const units = [
  { value: 1e18, symbol: 'E' },
  { value: 1e15, symbol: 'P' },
  { value: 1e12, symbol: 'T' },
  { value: 1e9, symbol: 'G' },
  { value: 1e6, symbol: 'M' },
  { value: 1e3, symbol: 'k' },
] as const

function trimZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed
}

/**
 * Abbreviates `num` with the largest unit not above it, rounded to `digits` decimals (trailing
 * zeros dropped). Below 1000 the number is returned as it is (String(num)). A value that rounds up to the next
 * unit moves there (999 999 → '1M', not '1000k'). Negative numbers keep their sign.
 */
export function abbreviateNumber(num: number, digits = 1): string {
  if (!Number.isFinite(num)) return String(num)
  const d = Math.min(Math.max(Math.trunc(digits), 0), 20)
  const sign = num < 0 ? '-' : ''
  const abs = Math.abs(num)
  for (let i = 0; i < units.length; i++) {
    const unit = units[i] as (typeof units)[number]
    if (abs >= unit.value) {
      const scaled = Number((abs / unit.value).toFixed(d))
      const bigger = units[i - 1]
      if (scaled >= 1000 && bigger) return sign + trimZeros((abs / bigger.value).toFixed(d)) + bigger.symbol
      return sign + trimZeros(scaled.toFixed(d)) + unit.symbol
    }
  }
  return String(num === 0 ? 0 : num)
}
