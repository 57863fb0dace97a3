/**
 * The form renderer's model: the shared rules of contract/formValues.ts (the server validates
 * with the same ones), plus what only the renderer shows.
 */
import type { Indicator } from '../../../contract/dictionary.ts'
import type { MessageRef } from '../../../contract/formValues.ts'

export * from '../../../contract/formValues.ts'

/** The hint under a number field: its range, when it has one. */
export function rangeHint(f: Pick<Indicator, 'minimum' | 'maximum'>): MessageRef | null {
  if (f.minimum !== null && f.maximum !== null) return { key: 'form.hint.between', params: [f.minimum, f.maximum] }
  if (f.minimum !== null) return { key: 'form.hint.atLeast', params: [f.minimum] }
  if (f.maximum !== null) return { key: 'form.hint.atMost', params: [f.maximum] }
  return null
}
