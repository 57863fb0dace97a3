/**
 * Finding a field of the form renderer in the page (DOM, no React): by indicator and row for a
 * jump (next difference, next empty required field), and the other way round for the field that
 * holds the focus (its history, the row to delete). The renderer marks each field `data-field`
 * with `data-testid="field-<code>"`, each sub-form row `data-testid="row-<section>-<n>"`.
 */
import type { FormDefinition } from '../../../../contract/formValues.ts'
import { entryOf } from '../../../ui/formRenderer/keyboard.ts'
import type { Difference } from './entryData.ts'

const quote = (s: string) => `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`

/** The CSS selector of one field: a plain one directly in its section, or one in a row. */
export function fieldSelector(def: FormDefinition, at: Difference): string | null {
  const code = def.indicators.find((i) => i.id === at.indicatorId)?.code
  if (code === undefined) return null
  const field = `[data-testid=${quote(`field-${code}`)}]`
  return at.section === undefined
    ? `.form-section:not(.form-subform) > ${field}`
    : `[data-testid=${quote(`row-${at.section}-${at.row ?? 0}`)}] > ${field}`
}

/** Puts the focus in a field and shows it; false when it is not on the page. */
export function focusField(root: HTMLElement, selector: string, block: ScrollLogicalPosition = 'nearest'): boolean {
  const field = root.querySelector(selector)
  const target = field ? entryOf(field) : null
  if (!field || !target) return false
  target.focus({ preventScroll: true })
  field.scrollIntoView({ block })
  return true
}

/** The nearest ancestor of `el` that scrolls vertically (a pane's body), or null. */
function scrollerOf(el: Element): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const { overflowY } = getComputedStyle(p)
    if ((overflowY === 'auto' || overflowY === 'scroll') && p.scrollHeight > p.clientHeight) return p
  }
  return null
}

/** How far below the top of its scrolling view `el` is drawn, px. */
export function offsetInView(el: Element): number {
  const scroller = scrollerOf(el)
  return el.getBoundingClientRect().top - (scroller ? scroller.getBoundingClientRect().top : 0)
}

/**
 * Scrolls so that `el` is drawn `offset` px below the top of its scrolling view, as far as the
 * view can scroll: the partner of a compared pane lines the same field up with the asking one.
 */
export function showAtOffset(el: Element, offset: number): void {
  const scroller = scrollerOf(el)
  if (!scroller) return el.scrollIntoView({ block: 'nearest' })
  scroller.scrollTop += offsetInView(el) - offset
}

/** Focuses a field that the next render draws (a row just added): tries for a few frames. */
export function focusWhenShown(root: HTMLElement, selector: string, frames = 10): void {
  requestAnimationFrame(() => {
    if (!focusField(root, selector) && frames > 1) focusWhenShown(root, selector, frames - 1)
  })
}

/** The field holding `el` (the focus): its indicator and, in a sub form, its section and row. */
export function fieldOf(def: FormDefinition, el: Element | null): Difference | null {
  const field = el?.closest('[data-field]')
  const testId = field?.getAttribute('data-testid') ?? ''
  if (!field || !testId.startsWith('field-')) return null
  const code = testId.slice('field-'.length)
  const f = def.indicators.find((i) => i.code === code)
  if (!f) return null
  const row = rowOf(field)
  return row ? { indicatorId: f.id, ...row } : { indicatorId: f.id }
}

/** The sub-form row holding `el`, if any. */
export function rowOf(el: Element | null): { section: string; row: number } | null {
  const rowEl = el?.closest('[data-testid^="row-"]')
  const id = rowEl?.getAttribute('data-testid')
  if (!id) return null
  const cut = id.lastIndexOf('-')
  return { section: id.slice('row-'.length, cut), row: Number(id.slice(cut + 1)) }
}

/** The sub form holding `el`, if any (its section key). */
export function subFormOf(el: Element | null): string | null {
  const id = el?.closest('.form-subform')?.getAttribute('data-testid')
  return id?.startsWith('form-section-') ? id.slice('form-section-'.length) : null
}

/** The index of the first of `selectors` after the focus in document order (wrapping), or -1. */
export function nextAfterFocus(root: HTMLElement, selectors: readonly (string | null)[]): number {
  const active = document.activeElement
  const els = selectors.map((s) => (s ? root.querySelector(s) : null))
  const after = els.findIndex(
    (el) =>
      el !== null &&
      active !== null &&
      (active.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 &&
      !el.contains(active),
  )
  return after >= 0 ? after : els.findIndex((el) => el !== null)
}
