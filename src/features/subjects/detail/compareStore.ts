/**
 * Two panes compared side by side (two subjects, or two instances of one form): which detail
 * paths are paired, and the form each shows now, so each pane highlights the fields whose values
 * differ from its partner's and "next difference" can point the partner at the same field.
 */
import { proxy, ref } from 'valtio'
import type { FormData, FormDefinition } from '../../../../contract/formValues.ts'

export interface PaneForm {
  templateId: number
  definition: FormDefinition
  data: FormData
}

export const compareState = proxy({
  pairs: [] as [string, string][],
  forms: {} as Record<string, PaneForm | undefined>,
  /**
   * A field a pane asks its partner to show (a CSS selector) and how far below the top of its
   * scrolling view the asking pane shows it, with a counter so the same one can be asked twice.
   */
  reveal: {} as Record<string, { selector: string; offset: number; seq: number } | undefined>,
})

export function partnerOf(pairs: readonly (readonly [string, string])[], path: string): string | null {
  for (const [a, b] of pairs) {
    if (a === path) return b
    if (b === path) return a
  }
  return null
}

export function unpair(path: string): void {
  compareState.pairs = compareState.pairs.filter(([a, b]) => a !== path && b !== path)
}

export function pair(a: string, b: string): void {
  unpair(a)
  unpair(b)
  compareState.pairs.push([a, b])
}

/** What the pane at `path` shows now (kept out of the proxy: a form may hold thousands of values). */
export function showForm(path: string, form: PaneForm | null): void {
  compareState.forms[path] = form ? ref(form) : undefined
}

let seq = 0
export function revealInPartner(path: string, selector: string, offset: number): void {
  const partner = partnerOf(compareState.pairs, path)
  if (partner) compareState.reveal[partner] = { selector, offset, seq: ++seq }
}
