/**
 * Data entry on a research object's detail (issue 10): save the open form, sub-form rows, the
 * history of a field, the next empty required field, next / previous subject in the list's order,
 * compare two subjects or two visits side by side and jump to the next
 * difference, delete and sign a form, choose the shown forms, the emergency unblinding. The
 * detail in the focused pane is reached through its capability; the server through typed endpoints.
 */
import { signRecord, type RecordStatus } from '../contract/studyData.ts'
import { getNeighbours, type SubjectListQuery } from '../contract/subjectList.ts'
import { screenPath } from '../contract/screenPaths.ts'
import { capability, dialog, type CommandContext } from './context.ts'
import { defineCommand, type AnyCommand } from './define.ts'

/** The list order next / previous follow: the list query without its page. */
export type NeighbourQuery = Omit<SubjectListQuery, 'after' | 'limit'>

/** What deleting the focused sub-form row came to. */
export type RowDeletion = 'deleted' | 'noRow' | 'saved'

/** A field of a saved record, named for its history. */
export interface FieldRef {
  recordId: number
  /** Indicator id. */
  field: number
  label: string
  /** In a sub-form row: the row's id, null while the row is not saved. */
  rowId?: number | null
}

/** The form open on the detail, as commands need it. */
export interface OpenForm {
  templateId: number
  /** Null until first saved. */
  recordId: number | null
  rev: number
  status: RecordStatus | null
  /** The user may enter data and the form is not signed. */
  editable: boolean
  /** Unsaved edits. */
  dirty: boolean
}

/** What a research object's detail (patientDetail) in the focused pane offers. */
export interface SubjectDetailActions {
  studyId: number
  subjectId: number
  form: OpenForm | null
  canUnblind: boolean
  /** The list this subject was opened from (its order), or null: the default order. */
  listQuery: NeighbourQuery | null
  /** Paired with another pane for comparison. */
  comparing: boolean
  /** Checks and saves the open form (asking for a reason when saved values change). */
  save(): Promise<void>
  /** Adds a row to the sub form holding the focus (or the first one); false without a sub form. */
  addRow(): boolean
  /** Deletes the sub-form row holding the focus: 'noRow' when the focus is in none, 'saved' when it is a saved row the member may not remove. */
  deleteRow(): RowDeletion
  /** The field holding the focus, when it has a saved record. */
  focusedField(): FieldRef | null
  /** Focuses the next required field still empty; false when there is none. */
  nextEmptyRequired(): boolean
  /** Focuses the next field whose value differs from the other pane's; false when none does. */
  nextDifference(): boolean
}
export const subjectDetail = capability<SubjectDetailActions>('subjects.detail')

/** The history of one field (drawer of the detail at `path`). */
export const fieldHistoryDialog = dialog<FieldRef & { path: string }>('dataEntry.fieldHistory')
/** Asks a reason before deleting the open form or revealing the group. */
export interface EntryReason {
  path: string
  purpose: 'deleteForm' | 'unblind'
}
export const entryReasonDialog = dialog<EntryReason>('dataEntry.reason')
/** Picks what to compare the open form with: another subject, or another instance of the form. */
export const compareDialog = dialog<{ path: string }>('dataEntry.compare')
/** Which forms the detail shows, and in what order. */
export const displayFormsDialog = dialog<{ path: string }>('dataEntry.displayForms')

const detailOf = (ctx: CommandContext) => ctx.focus?.use(subjectDetail)
const formOf = (ctx: CommandContext) => detailOf(ctx)?.form ?? null

export const saveForm = defineCommand({
  id: 'dataEntry.saveForm',
  title: 'dataEntry.command.saveForm',
  section: 'subject',
  permission: 'subject.edit',
  keywords: ['save', 'form', 'crf', '保存', '表单'],
  hotkey: 'ctrl+s, command+s',
  when: (ctx) => formOf(ctx) !== null,
  enabled: (ctx) => formOf(ctx)?.editable ?? false,
  run: async (ctx) => {
    await detailOf(ctx)?.save()
  },
})

export const addRow = defineCommand({
  id: 'dataEntry.addRow',
  title: 'dataEntry.command.addRow',
  section: 'subject',
  permission: 'subject.edit',
  keywords: ['row', 'sub form', 'add', '子表单', '添加行'],
  hotkey: 'alt+shift+b',
  when: (ctx) => formOf(ctx) !== null,
  enabled: (ctx) => formOf(ctx)?.editable ?? false,
  run: (ctx) => {
    if (!detailOf(ctx)?.addRow()) ctx.ui.toast(ctx.t('dataEntry.noSubForm'), 'warning')
  },
})

export const deleteRow = defineCommand({
  id: 'dataEntry.deleteRow',
  title: 'dataEntry.command.deleteRow',
  section: 'subject',
  permission: 'subject.edit',
  keywords: ['row', 'sub form', 'delete', 'remove', '子表单', '删除行'],
  hotkey: 'alt+shift+d',
  when: (ctx) => formOf(ctx) !== null,
  enabled: (ctx) => formOf(ctx)?.editable ?? false,
  run: (ctx) => {
    const outcome = detailOf(ctx)?.deleteRow() ?? 'noRow'
    if (outcome === 'noRow') ctx.ui.toast(ctx.t('dataEntry.noRowFocused'), 'warning')
    // The row's remove button is hidden then; the hotkey says why instead of doing nothing.
    else if (outcome === 'saved') ctx.ui.toast(ctx.t('dataEntry.savedRowLocked'), 'warning')
  },
})

export const fieldHistory = defineCommand({
  id: 'dataEntry.fieldHistory',
  title: 'dataEntry.command.fieldHistory',
  section: 'subject',
  keywords: ['show field history', 'field history', 'history', 'audit', 'trail', 'field', '字段历史', '历史', '稽查', '字段'],
  hotkey: 'alt+h',
  // On a form never saved there is no history yet: it says so rather than doing nothing.
  when: (ctx) => formOf(ctx) !== null,
  run: (ctx) => {
    if (formOf(ctx)?.recordId == null) return ctx.ui.toast(ctx.t('dataEntry.history.notSaved'), 'warning')
    const field = detailOf(ctx)?.focusedField()
    if (!field || !ctx.focus) return ctx.ui.toast(ctx.t('dataEntry.history.noField'), 'warning')
    if (field.rowId === null) return ctx.ui.toast(ctx.t('dataEntry.history.rowNotSaved'), 'warning')
    ctx.ui.open(fieldHistoryDialog, { path: ctx.focus.path, ...field })
  },
})

export const nextEmptyRequired = defineCommand({
  id: 'dataEntry.nextEmptyRequired',
  title: 'dataEntry.command.nextEmptyRequired',
  section: 'subject',
  keywords: ['required', 'empty', 'missing', 'next', '必填', '下一个'],
  hotkey: 'alt+e',
  when: (ctx) => formOf(ctx) !== null,
  run: (ctx) => {
    if (!detailOf(ctx)?.nextEmptyRequired()) ctx.ui.toast(ctx.t('dataEntry.noEmptyRequired'), 'success')
  },
})

async function goNeighbour(ctx: CommandContext, which: 'next' | 'previous') {
  const d = detailOf(ctx)
  if (!d || !ctx.focus) return
  const query: NeighbourQuery = d.listQuery?.studyId === d.studyId ? d.listQuery : { studyId: d.studyId, sort: 'subjectNo', order: 'asc' }
  const n = await ctx.api.call(getNeighbours, { ...query, objectId: d.subjectId })
  const target = n[which]
  if (target === null) return ctx.ui.toast(ctx.t(which === 'next' ? 'dataEntry.lastSubject' : 'dataEntry.firstSubject'), 'warning')
  // The detail moves on in its own tab: closed first, the URL is the last word.
  ctx.panes.close(ctx.focus.path)
  ctx.navigate(screenPath('patientDetail', { studyId: d.studyId, id: target }))
}

export const nextSubject = defineCommand({
  id: 'dataEntry.nextSubject',
  title: 'dataEntry.command.nextSubject',
  section: 'subject',
  keywords: ['next', 'subject', 'patient', '下一个', '研究对象'],
  hotkey: 'alt+shift+pagedown',
  when: (ctx) => detailOf(ctx) !== undefined,
  run: (ctx) => goNeighbour(ctx, 'next'),
})

export const previousSubject = defineCommand({
  id: 'dataEntry.previousSubject',
  title: 'dataEntry.command.previousSubject',
  section: 'subject',
  keywords: ['previous', 'subject', 'patient', '上一个', '研究对象'],
  hotkey: 'alt+shift+pageup',
  when: (ctx) => detailOf(ctx) !== undefined,
  run: (ctx) => goNeighbour(ctx, 'previous'),
})

export const compareWith = defineCommand({
  id: 'dataEntry.compareWith',
  title: 'dataEntry.command.compareWith',
  section: 'subject',
  keywords: ['compare', 'diff', 'side by side', 'visit', '对比', '比较'],
  hotkey: 'alt+shift+x',
  when: (ctx) => formOf(ctx) !== null,
  run: (ctx) => {
    if (ctx.focus) ctx.ui.open(compareDialog, { path: ctx.focus.path })
  },
})

export const nextDifference = defineCommand({
  id: 'dataEntry.nextDifference',
  title: 'dataEntry.command.nextDifference',
  section: 'subject',
  keywords: ['difference', 'compare', 'next', '差异', '下一个'],
  hotkey: 'alt+d',
  // Not comparing, it says how to start rather than doing nothing.
  when: (ctx) => detailOf(ctx) !== undefined,
  run: (ctx) => {
    if (!detailOf(ctx)?.comparing) return ctx.ui.toast(ctx.t('dataEntry.compare.notComparing'), 'warning')
    if (!detailOf(ctx)?.nextDifference()) ctx.ui.toast(ctx.t('dataEntry.compare.noDifference'), 'success')
  },
})

export const deleteForm = defineCommand({
  id: 'dataEntry.deleteForm',
  title: 'dataEntry.command.deleteForm',
  section: 'subject',
  permission: 'subject.delete',
  keywords: ['delete', 'form', 'crf', '删除', '表单'],
  when: (ctx) => formOf(ctx)?.recordId != null,
  enabled: (ctx) => formOf(ctx)?.status === 'saved',
  run: (ctx) => {
    if (ctx.focus) ctx.ui.open<EntryReason>(entryReasonDialog, { path: ctx.focus.path, purpose: 'deleteForm' })
  },
})

export const signForm = defineCommand({
  id: 'dataEntry.signForm',
  title: 'dataEntry.command.signForm',
  section: 'subject',
  permission: 'subject.sign',
  keywords: ['sign', 'signature', 'lock', '签名', '签署'],
  when: (ctx) => formOf(ctx)?.recordId != null,
  // Only what is saved can be signed: unsaved edits would not be what the signature covers.
  enabled: (ctx) => formOf(ctx)?.status === 'saved' && !formOf(ctx)?.dirty,
  run: async (ctx) => {
    const d = detailOf(ctx)
    const f = d?.form
    if (!d || !f || f.recordId === null) return
    const yes = await ctx.ui.confirm(ctx.t('dataEntry.sign.confirm'), ctx.t('dataEntry.sign.detail'))
    if (!yes) return
    await ctx.api.call(signRecord, { studyId: d.studyId, recordId: f.recordId, rev: f.rev })
    ctx.invalidate('subjectForms')
    ctx.ui.toast(ctx.t('dataEntry.sign.done'), 'success')
  },
})

export const chooseForms = defineCommand({
  id: 'dataEntry.chooseForms',
  title: 'dataEntry.command.chooseForms',
  section: 'subject',
  keywords: ['forms', 'crf', 'show', 'order', 'display', '显示', '表单', '排序'],
  when: (ctx) => detailOf(ctx) !== undefined,
  run: (ctx) => {
    if (ctx.focus) ctx.ui.open(displayFormsDialog, { path: ctx.focus.path })
  },
})

export const unblind = defineCommand({
  id: 'dataEntry.unblind',
  title: 'dataEntry.command.unblind',
  section: 'subject',
  permission: 'subject.unblind',
  keywords: ['unblind', 'emergency', 'group', '揭盲', '紧急'],
  when: (ctx) => detailOf(ctx)?.canUnblind ?? false,
  run: (ctx) => {
    if (ctx.focus) ctx.ui.open<EntryReason>(entryReasonDialog, { path: ctx.focus.path, purpose: 'unblind' })
  },
})

export const dataEntryCommands: readonly AnyCommand[] = [
  saveForm,
  addRow,
  deleteRow,
  fieldHistory,
  nextEmptyRequired,
  nextSubject,
  previousSubject,
  compareWith,
  nextDifference,
  deleteForm,
  signForm,
  chooseForms,
  unblind,
]
