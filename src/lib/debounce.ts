/**
 * SPEC §9 debounce. By default the call runs once, `wait` ms after the last of a burst, with the
 * last arguments. With `immediate` it runs at the start of a burst instead, and further calls
 * inside the burst only extend it (no trailing call). `cancel` drops a pending call and ends
 * the burst; `flush` runs a pending trailing call now.
 */
export interface Debounced<A extends unknown[]> {
  (...args: A): void
  cancel(): void
  flush(): void
  /** True while a burst is open (a trailing call is due, or immediate mode is still waiting). */
  pending(): boolean
}

export function debounce<A extends unknown[]>(fn: (...args: A) => unknown, wait: number, immediate = false): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastArgs: A | undefined

  const finish = () => {
    timer = undefined
    const args = lastArgs
    lastArgs = undefined
    if (!immediate && args) fn(...args)
  }

  const debounced = ((...args: A) => {
    const startsBurst = timer === undefined
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(finish, wait)
    if (immediate) {
      if (startsBurst) fn(...args)
    } else {
      lastArgs = args
    }
  }) as Debounced<A>

  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    lastArgs = undefined
  }
  debounced.flush = () => {
    if (timer === undefined) return
    clearTimeout(timer)
    finish()
  }
  debounced.pending = () => timer !== undefined
  return debounced
}
