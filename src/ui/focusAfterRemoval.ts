import { useEffect, useRef, type FocusEvent } from 'react'

/**
 * A list whose rows a button in them removes: when the element that had the focus leaves with its
 * row, the focus goes to `selector` in the row now in its place (the last row, past the end),
 * else to `fallback()`, not to the page. `rows` changes when the list is read again; the list
 * element takes the returned ref and onFocus.
 */
export function useFocusAfterRemoval<L extends HTMLElement>(
  rows: unknown,
  selector: string,
  fallback: () => HTMLElement | null | undefined,
) {
  const list = useRef<L>(null)
  const last = useRef<{ element: Element; at: number } | null>(null)
  const fallbackRef = useRef(fallback)
  fallbackRef.current = fallback
  useEffect(() => {
    const was = last.current
    if (!was || was.element.isConnected || document.activeElement !== document.body) return
    last.current = null
    const children = list.current?.children
    const row = children?.[Math.min(was.at, children.length - 1)]
    ;(row?.querySelector<HTMLElement>(selector) ?? fallbackRef.current())?.focus()
  }, [rows, selector])
  const onFocus = (e: FocusEvent<L>) => {
    const at = [...e.currentTarget.children].findIndex((row) => row.contains(e.target))
    last.current = { element: e.target, at }
  }
  return { ref: list, onFocus }
}
