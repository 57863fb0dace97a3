/**
 * How data entry saves (issue 10 items 6 and 7): the detail screen hands every edit and every
 * save to this pipeline and shows its state; the pipeline keeps unsaved values in the browser
 * (IndexedDB) so a reload, a crash or a lost connection loses no keystroke, sends saves, keeps
 * those the server could not be reached for in a visible queue that drains when it returns, and
 * reports a stale save (409) as a conflict with the values stored now.
 */
import type { FormSave, FormSaved, SaveConflict, SaveInvalid } from '../../../../contract/studyData.ts'
import type { FormData } from '../../../ui/FormRenderer.tsx'

/** One form instance of one subject: the key of its draft and of its queued saves. */
export interface EntryKey {
  studyId: number
  subjectId: number
  templateId: number
  /** '' for the single instance (contract/studyData.ts slot). */
  slot: string
}

export const entryKeyString = (k: EntryKey) => `${k.studyId}/${k.subjectId}/${k.templateId}/${k.slot}`

/** What the user sees about a form: always one of these. */
export type SaveState =
  /** Nothing unsaved; `at` is the last save, if known. */
  | { kind: 'saved'; at: string | null }
  /** Edits kept in this browser only, not sent yet. */
  | { kind: 'unsaved' }
  | { kind: 'sending' }
  /** Saves waiting for the server to be reachable again. */
  | { kind: 'queued'; count: number }
  /** Someone else saved first: the stored values, to compare and choose. */
  | { kind: 'conflict'; current: SaveConflict['current'] }
  /** The server refused the save (a bad value, a missing reason): its message, and each refused field's. */
  | Refusal

/** A refused save: the server's message, and for refused values each field's by fieldPath. */
export interface Refusal {
  kind: 'refused'
  message: string
  fields?: SaveInvalid['errors']
}

export type SubmitOutcome =
  { kind: 'saved'; saved: FormSaved } | { kind: 'queued' } | { kind: 'conflict'; current: SaveConflict['current'] } | Refusal

export interface EntryPipeline {
  /** The unsaved values kept for this form, if any (read when the form opens). */
  loadDraft(key: EntryKey): Promise<FormData | null>
  /** Keeps the values being typed (written to IndexedDB at once, at most one write in flight). */
  keepDraft(key: EntryKey, data: FormData): void
  /** Forgets the kept values (after a save, or when the user discards them). */
  dropDraft(key: EntryKey): Promise<void>
  /** Sends a save, or queues it when the server cannot be reached. */
  submit(key: EntryKey, save: FormSave): Promise<SubmitOutcome>
  /** The form's state, re-rendering when it changes. */
  useSaveState(key: EntryKey): SaveState
}
