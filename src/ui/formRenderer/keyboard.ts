/**
 * Keyboard moves of the form renderer (DOM, no React): Enter goes to the next field, arrows move
 * within a checkbox group. Fields are the elements marked `data-field`, in document order.
 */

const focusableSelector =
  'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])'

/** The element a field gives the focus to: a checked radio, the group's tab stop, or its first control. */
export function entryOf(field: Element): HTMLElement | null {
  const checked = field.querySelector<HTMLInputElement>('input[type="radio"]:checked:not([disabled])')
  if (checked) return checked
  const stop = field.querySelector<HTMLElement>('[data-tabstop="true"]:not([disabled])')
  if (stop) return stop
  return field.querySelector<HTMLElement>(focusableSelector)
}

/** Moves the focus from the field holding `from` to the next (or previous) field; false at the end. */
export function focusNextField(root: HTMLElement, from: Element, step: 1 | -1 = 1): boolean {
  const fields = [...root.querySelectorAll('[data-field]')]
  const here = from.closest('[data-field]')
  const at = here ? fields.indexOf(here) : -1
  for (let i = at + step; i >= 0 && i < fields.length; i += step) {
    const target = entryOf(fields[i] as Element)
    if (target) {
      target.focus()
      return true
    }
  }
  return false
}

/**
 * After rows of the sub form `section` were removed with the focus in them: the focus goes to the
 * row now at `row`, else the last one left (its first field), else the sub form's add button.
 */
export function focusRowAfterRemoval(root: HTMLElement, section: string, row: number): void {
  const subForm = root.querySelector(`[data-testid="form-section-${CSS.escape(section)}"]`)
  const rows = subForm?.querySelectorAll(':scope > .form-subform-row') ?? []
  const at = rows[Math.min(row, rows.length - 1)]
  const field = at?.querySelector('[data-field]')
  const target = (field && entryOf(field)) ?? at?.querySelector('button') ?? subForm?.querySelector<HTMLElement>(':scope > button')
  target?.focus()
}

/** Whether Enter on this element should move to the next field (not in a text area or on a button). */
export function entersNext(target: EventTarget | null): target is HTMLElement {
  if (!(target instanceof HTMLElement)) return false
  if (!target.closest('[data-field]')) return false
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLButtonElement) return false
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement
}

/** Focuses the first field showing a problem; false when there is none. */
export function focusFirstInvalid(root: HTMLElement): boolean {
  const field = root.querySelector('[data-field][data-invalid="true"]')
  const target = field ? entryOf(field) : null
  target?.focus()
  return target !== null
}
