import { Classes } from '@blueprintjs/core'

/**
 * Blueprint's menus have no arrow keys: an opened menu (the project's actions, the user menu) was
 * reached only by Tab. Here ↓ and ↑ move among a menu's items and wrap, Home and End go to the
 * first and last; from the popover itself, where the focus lands when it opens, ↓ enters at the
 * first item and ↑ at the last. Disabled items are passed over; keys typed into a field are left
 * alone.
 */
const keys = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End'])

/** The menu a key on this element moves in: the one it is in, or the only one of the popover it is the frame of. */
function menuOf(target: Element): Element | null {
  const within = target.closest('[role="menu"]')
  if (within) return within
  const popover = target.closest(`.${Classes.OVERLAY}`)
  if (!popover?.querySelector(`.${Classes.POPOVER_TRANSITION_CONTAINER}`)) return null
  // Only the popover's own frame: its focus traps and containers, not a control inside it.
  if (target.closest('[role="menu"], input, textarea, select, button, a, [contenteditable="true"]')) return null
  const menus = popover.querySelectorAll('[role="menu"]')
  return menus.length === 1 ? menus[0]! : null
}

export function installMenuArrowKeys(win: Window): void {
  win.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || !keys.has(e.key) || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return
    if (!(e.target instanceof Element)) return
    const menu = menuOf(e.target)
    if (!menu) return
    const items = [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].filter(
      (el) => el.closest('[role="menu"]') === menu && el.getAttribute('aria-disabled') !== 'true',
    )
    if (items.length === 0) return
    const at = items.findIndex((el) => el === e.target || el.contains(e.target as Node))
    const last = items.length - 1
    const next =
      e.key === 'Home' ? 0 : e.key === 'End' ? last : e.key === 'ArrowDown' ? (at < 0 || at === last ? 0 : at + 1) : at <= 0 ? last : at - 1
    e.preventDefault()
    items[next]!.focus()
  })
}
