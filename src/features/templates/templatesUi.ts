/**
 * Requests for the template editor dialog (create or edit a CRF / question group), made by
 * commands through ctx.templates (wired in src/app/commandContext.ts) and answered by the manager
 * screen of that kind that has the focus.
 */
import { proxy } from 'valtio'
import type { TemplateKind } from '../../../contract/crf.ts'
import type { TemplatesDoor } from '../../../commands/context.ts'

export interface EditorRequest {
  kind: TemplateKind
  /** null: a new one. */
  id: number | null
  seq: number
}

export const templatesUi = proxy({ editor: null as EditorRequest | null })

let seq = 0

export const templatesDoor: TemplatesDoor = {
  openEditor(kind, id) {
    templatesUi.editor = { kind, id: id ?? null, seq: ++seq }
  },
}

export function closeEditor(): void {
  templatesUi.editor = null
}
