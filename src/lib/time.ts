/**
 * Time helpers of SPEC §9: a pattern formatter (a ten-digit timestamp is seconds), the
 * relative-time helper and the second, coarser "time ago" helper, in Chinese and English.
 * Formatting uses the local time zone. "Now" is injectable for tests.
 */
export type TimeInput = Date | number | string
export type TimeLang = 'zh' | 'en'

export const defaultTimePattern = '{y}-{m}-{d} {h}:{i}:{s}'

const SECOND = 1000
const MINUTE = 60
const HOUR = 3600
const DAY = 86400

/** A number whose integer part has exactly ten digits is a timestamp in seconds; else milliseconds. */
export function timestampToMillis(value: number): number {
  return String(Math.abs(Math.trunc(value))).length === 10 ? value * SECOND : value
}

const localDateTime = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,3}))?)?)?$/

/**
 * Reads a Date, a timestamp (ten digits: seconds; otherwise milliseconds) as a number or a
 * string of digits, 'yyyy-mm-dd[ hh:mm[:ss[.mmm]]]' (also with '/' and 'T'; local time) or any
 * string Date.parse understands (ISO with zone). Null for empty, invalid or impossible dates.
 */
export function parseTime(input: TimeInput | null | undefined): Date | null {
  if (input === null || input === undefined) return null
  let date: Date
  if (input instanceof Date) {
    date = new Date(input.getTime())
  } else if (typeof input === 'number') {
    date = new Date(timestampToMillis(input))
  } else {
    const text = input.trim()
    if (text === '') return null
    if (/^-?\d+$/.test(text)) return parseTime(Number(text))
    const m = localDateTime.exec(text)
    if (m) {
      const num = (part: string | undefined) => (part === undefined ? 0 : Number(part))
      const [y, mo, d, h, i, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(num) as [number, number, number, number, number, number]
      const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0'))
      date = new Date(y, mo - 1, d, h, i, s, ms)
      // new Date rolls impossible parts over (Feb 30 → Mar 2); refuse them instead.
      const fits =
        date.getFullYear() === y &&
        date.getMonth() === mo - 1 &&
        date.getDate() === d &&
        date.getHours() === h &&
        date.getMinutes() === i &&
        date.getSeconds() === s
      if (!fits) return null
    } else {
      date = new Date(Date.parse(text))
    }
  }
  return Number.isNaN(date.getTime()) ? null : date
}

const weekdays: Record<TimeLang, readonly string[]> = {
  zh: ['日', '一', '二', '三', '四', '五', '六'],
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
}
const monthsEn = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const

const pad2 = (n: number) => String(n).padStart(2, '0')

/**
 * Formats a time with a pattern: {y} year, {m} month, {d} day, {h} hour (0-23), {i} minute,
 * {s} second (each two digits at least), {a} weekday ('一' … / 'Mon' …). Null when the input
 * cannot be read (see parseTime).
 */
export function formatTime(
  input: TimeInput | null | undefined,
  pattern: string = defaultTimePattern,
  lang: TimeLang = 'zh',
): string | null {
  const date = parseTime(input)
  if (!date) return null
  const parts: Record<string, number> = {
    y: date.getFullYear(),
    m: date.getMonth() + 1,
    d: date.getDate(),
    h: date.getHours(),
    i: date.getMinutes(),
    s: date.getSeconds(),
  }
  return pattern.replace(/\{([ymdhisa])\}/g, (_, key: string) =>
    key === 'a' ? (weekdays[lang][date.getDay()] as string) : pad2(parts[key] as number),
  )
}

export interface RelativeTimeOptions {
  lang?: TimeLang
  /** The present, in milliseconds or as a Date; Date.now() when left out. */
  now?: Date | number
  /** Pattern for times two days old or more; a short localized date when left out. */
  pattern?: string
}

function nowMillis(now: Date | number | undefined): number {
  if (now === undefined) return Date.now()
  return now instanceof Date ? now.getTime() : now
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`
}

function shortDate(date: Date, lang: TimeLang, now: number): string {
  const sameYear = new Date(now).getFullYear() === date.getFullYear()
  if (lang === 'zh') {
    const md = `${date.getMonth() + 1}月${date.getDate()}日${date.getHours()}时${date.getMinutes()}分`
    return sameYear ? md : `${date.getFullYear()}年${md}`
  }
  const month = monthsEn[date.getMonth()] as string
  const hm = `${pad2(date.getHours())}:${pad2(date.getMinutes())}`
  return sameYear ? `${month} ${date.getDate()} ${hm}` : `${month} ${date.getDate()}, ${date.getFullYear()} ${hm}`
}

/**
 * SPEC §9 relative time: under 30 s 'just now' (also for times in the future), under an hour
 * minutes ago, under a day hours ago (both rounded up), under two days '1 day ago', otherwise
 * a date (the `pattern`, or '3月5日14时7分' / 'Mar 5 14:07', with the year when it is not the
 * current one). Null when the input cannot be read.
 */
export function relativeTime(input: TimeInput | null | undefined, options: RelativeTimeOptions = {}): string | null {
  const date = parseTime(input)
  if (!date) return null
  const lang = options.lang ?? 'zh'
  const now = nowMillis(options.now)
  const diff = (now - date.getTime()) / SECOND
  if (diff < 30) return lang === 'zh' ? '刚刚' : 'just now'
  if (diff < HOUR) {
    const n = Math.ceil(diff / MINUTE)
    return lang === 'zh' ? `${n}分钟前` : plural(n, 'minute')
  }
  if (diff < DAY) {
    const n = Math.ceil(diff / HOUR)
    return lang === 'zh' ? `${n}小时前` : plural(n, 'hour')
  }
  if (diff < 2 * DAY) return lang === 'zh' ? '1天前' : '1 day ago'
  if (options.pattern !== undefined) return formatTime(date, options.pattern, lang)
  return shortDate(date, lang, now)
}

export interface TimeAgoOptions {
  lang?: TimeLang
  now?: Date | number
}

/**
 * The second helper of SPEC §9: whole minutes under 3600 s, whole hours under 86400 s,
 * otherwise whole days (all rounded down; a time in the future counts as 0 minutes).
 * '5分钟前' / '5 minutes ago'. Null when the input cannot be read.
 */
export function timeAgo(input: TimeInput | null | undefined, options: TimeAgoOptions = {}): string | null {
  const date = parseTime(input)
  if (!date) return null
  const lang = options.lang ?? 'zh'
  const seconds = Math.max(0, (nowMillis(options.now) - date.getTime()) / SECOND)
  if (seconds < HOUR) {
    const n = Math.floor(seconds / MINUTE)
    return lang === 'zh' ? `${n}分钟前` : plural(n, 'minute')
  }
  if (seconds < DAY) {
    const n = Math.floor(seconds / HOUR)
    return lang === 'zh' ? `${n}小时前` : plural(n, 'hour')
  }
  const n = Math.floor(seconds / DAY)
  return lang === 'zh' ? `${n}天前` : plural(n, 'day')
}
