import { useLayoutEffect, useRef } from 'react'

/**
 * A dialog shown while `open` that is unmounted, not closed, when done (it is rendered only while
 * requested): the focus goes back to where it was when it opened, so a keyboard user goes on in
 * the field they left.
 */
export function useReturnFocus(open: boolean): void {
  const before = useRef<HTMLElement | null>(null)
  useLayoutEffect(() => {
    if (open) {
      before.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
      return
    }
    const el = before.current
    before.current = null
    // After the overlay has gone (it may move the focus to the body as it leaves).
    if (el?.isConnected) requestAnimationFrame(() => el.focus())
  }, [open])
}
