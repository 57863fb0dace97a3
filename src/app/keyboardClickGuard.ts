/**
 * Blueprint's buttons click when Enter or Space is released, wherever the key went down. An Enter
 * that saves a dialog or runs a palette command is often still held when the focus lands on a
 * button: the one a closed dialog gives the focus back to (New sample, which opened another), or
 * the Delete of the question the command just asked (answered without being read). A browser's
 * own button needs the press as well as the release; so here: a click made during the release of
 * a key that was pressed on another element is dropped.
 */
export function installKeyboardClickGuard(win: Window): void {
  const pressedOn = new Map<string, EventTarget | null>()
  let stray: Node | null = null
  win.addEventListener(
    'keydown',
    (e) => {
      // A held key repeats on whatever has the focus now: only its first press counts.
      if (!e.repeat) pressedOn.set(e.key, e.target)
    },
    true,
  )
  win.addEventListener(
    'keyup',
    (e) => {
      const from = pressedOn.get(e.key)
      pressedOn.delete(e.key)
      if ((e.key !== 'Enter' && e.key !== ' ') || from === e.target || !(e.target instanceof Node)) return
      const release = e.target
      stray = release
      // The click, if any, is dispatched inside this release's own dispatch.
      setTimeout(() => {
        if (stray === release) stray = null
      })
    },
    true,
  )
  win.addEventListener(
    'click',
    (e) => {
      if (stray && !e.isTrusted && e.target instanceof Node && stray.contains(e.target)) {
        e.preventDefault()
        e.stopImmediatePropagation()
      }
    },
    true,
  )
}
