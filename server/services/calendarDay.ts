/**
 * Calendar days and months in the configured time zone (TIME_ZONE): an enrolment at 07:00 in
 * Beijing is 23:00 UTC the day before, and its visits are planned from the Beijing day; one at
 * 07:00 on the 1st of a month counts in that month's progress.
 */

/** The time zone of the server's system: the default of TIME_ZONE. */
export const systemTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone

/** Whether Intl knows the zone (an IANA name such as Asia/Shanghai, or UTC). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone)
  if (!f) {
    const digits = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' } as const
    formatters.set(zone, (f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', ...digits })))
  }
  return f
}

/** The wall-clock time of an instant in the zone, read as if it were UTC (ms). */
function wallClock(instant: number, zone: string): number {
  const part: Record<string, number> = {}
  for (const p of formatter(zone).formatToParts(instant)) if (p.type !== 'literal') part[p.type] = Number(p.value)
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!)
}

/** The calendar day (YYYY-MM-DD) of an instant (a Date or an ISO timestamp) in the zone. */
export function dayIn(instant: Date | string, zone: string): string {
  return new Date(wallClock(new Date(instant).getTime(), zone)).toISOString().slice(0, 10)
}

/** The first instant (ISO, UTC) of a calendar day in the zone. */
export function startOfDay(day: string, zone: string): string {
  const midnight = Date.parse(`${day}T00:00:00Z`)
  // The zone's offset at the guess, then at the instant it gives: right across an offset change too.
  let at = midnight - (wallClock(midnight, zone) - midnight)
  at = midnight - (wallClock(at, zone) - at)
  return new Date(at).toISOString()
}

/** The month (YYYY-MM) after this one. */
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return m === 12 ? `${String(y + 1).padStart(4, '0')}-01` : `${month.slice(0, 4)}-${String(m + 1).padStart(2, '0')}`
}

/** The zone's months from the one holding `first` to the one holding `last` (instants), each with its first instant (ISO, UTC). */
export function monthsBetween(first: string, last: string, zone: string): { month: string; start: string }[] {
  const end = dayIn(last, zone).slice(0, 7)
  const out: { month: string; start: string }[] = []
  for (let month = dayIn(first, zone).slice(0, 7); month <= end; month = nextMonth(month)) {
    out.push({ month, start: startOfDay(`${month}-01`, zone) })
  }
  return out
}
