import { describe, expect, it, vi } from 'vitest'
import { getNeighbours } from '../../contract/subjectList.ts'
import { signRecord } from '../../contract/studyData.ts'
import { commands, execute, isAvailable, isEnabled } from '../../commands/registry.ts'
import {
  addRow,
  chooseForms,
  compareDialog,
  compareWith,
  dataEntryCommands,
  deleteForm,
  deleteRow,
  displayFormsDialog,
  entryReasonDialog,
  fieldHistory,
  fieldHistoryDialog,
  nextDifference,
  nextEmptyRequired,
  nextSubject,
  previousSubject,
  saveForm,
  signForm,
  subjectDetail,
  unblind,
  type OpenForm,
  type SubjectDetailActions,
} from '../../commands/dataEntry.ts'
import { translate } from '../../src/i18n/index.ts'
import { calledEffects, expectOnly, offer, testContext, type Answer } from './context.ts'

const path = '/project/patientDetail?studyId=3&id=40'

const savedForm: OpenForm = { templateId: 7, recordId: 90, rev: 2, status: 'saved', editable: true, dirty: false }

function testDetail(over: Partial<SubjectDetailActions> = {}): SubjectDetailActions {
  return {
    studyId: 3,
    subjectId: 40,
    form: savedForm,
    canUnblind: false,
    listQuery: null,
    comparing: false,
    save: vi.fn(() => Promise.resolve()),
    addRow: vi.fn(() => true),
    deleteRow: vi.fn(() => 'deleted' as const),
    focusedField: vi.fn(() => ({ recordId: 90, field: 501, label: 'Weight' })),
    nextEmptyRequired: vi.fn(() => true),
    nextDifference: vi.fn(() => true),
    ...over,
  }
}

const onDetail = (d: SubjectDetailActions, extra: Parameters<typeof testContext>[0] = {}) =>
  testContext({ path, lang: 'en', provides: [offer(subjectDetail, d)], ...extra })

describe('data entry commands', () => {
  it('are registered in the subject section with titles in both languages', () => {
    for (const c of dataEntryCommands) {
      expect(commands).toContain(c)
      expect(c.section).toBe('subject')
      expect(translate('zh', c.title)).not.toBe(c.title)
      expect(translate('en', c.title)).not.toBe(c.title)
    }
    expect(saveForm.hotkey).toBe('ctrl+s, command+s')
  })

  it('apply only where a research object detail has the focus', () => {
    const elsewhere = testContext({ path: '/project/multi-list' })
    for (const c of [
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
    ])
      expect(isAvailable(c, elsewhere), c.id).toBe(false)
    const here = onDetail(testDetail())
    for (const c of [saveForm, addRow, fieldHistory, nextSubject, compareWith, nextDifference, deleteForm, signForm, chooseForms])
      expect(isAvailable(c, here), c.id).toBe(true)
    // Unblinding only when the server says the caller may.
    expect(isAvailable(unblind, here)).toBe(false)
    expect(isAvailable(unblind, onDetail(testDetail({ canUnblind: true })))).toBe(true)
  })

  it('follow the permissions: no subject.edit, no save; no subject.sign, no sign', () => {
    const ctx = onDetail(testDetail(), { grants: ['subject.view'] })
    for (const c of [saveForm, addRow, deleteRow, signForm, deleteForm]) expect(isAvailable(c, ctx), c.id).toBe(false)
    expect(isAvailable(fieldHistory, ctx)).toBe(true)
  })

  it('save form (Ctrl+S) saves the open form and nothing else', async () => {
    const d = testDetail()
    const ctx = onDetail(d)
    await expect(execute(saveForm, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expect(d.save).toHaveBeenCalledTimes(1)
    expect(calledEffects(ctx)).toEqual([])
  })

  it('save form is disabled on a read-only or signed form', async () => {
    const d = testDetail({ form: { ...savedForm, editable: false } })
    const ctx = onDetail(d)
    expect(isEnabled(saveForm, ctx)).toBe(false)
    await expect(execute(saveForm, ctx, 'hotkey')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(d.save).not.toHaveBeenCalled()
  })

  it('a failing save ends in a toast, not a rejection', async () => {
    const d = testDetail({ save: vi.fn(() => Promise.reject(new Error('boom'))) })
    const ctx = onDetail(d)
    const r = await execute(saveForm, ctx, 'hotkey')
    expect(r.ok).toBe(false)
    expect(ctx.ui.toast).toHaveBeenCalledWith('boom', 'danger')
  })

  it('add and delete row act on the form, or say why they cannot', async () => {
    const d = testDetail({ addRow: vi.fn(() => false), deleteRow: vi.fn(() => 'noRow' as const) })
    const ctx = onDetail(d)
    await execute(addRow, ctx, 'hotkey')
    await execute(deleteRow, ctx, 'hotkey')
    expect(ctx.ui.toast).toHaveBeenNthCalledWith(1, 'This form has no sub form', 'warning')
    expect(ctx.ui.toast).toHaveBeenNthCalledWith(2, 'Put the focus in a sub-form row first', 'warning')
    const saved = onDetail(testDetail({ deleteRow: vi.fn(() => 'saved' as const) }))
    await execute(deleteRow, saved, 'hotkey')
    expect(saved.ui.toast).toHaveBeenCalledWith("This row is saved: removing it is not among your project role's authorities", 'warning')

    const ok = testDetail()
    const ctx2 = onDetail(ok)
    await execute(addRow, ctx2, 'hotkey')
    expect(ok.addRow).toHaveBeenCalledTimes(1)
    expect(calledEffects(ctx2)).toEqual([])
  })

  it('field history opens the history of the focused field of this pane', async () => {
    const ctx = onDetail(testDetail())
    await execute(fieldHistory, ctx, 'hotkey')
    expectOnly(ctx, 'ui.open')
    expect(ctx.ui.open).toHaveBeenCalledWith(fieldHistoryDialog, { path, recordId: 90, field: 501, label: 'Weight' })

    const none = onDetail(testDetail({ focusedField: vi.fn(() => null) }))
    await execute(fieldHistory, none, 'hotkey')
    expectOnly(none, 'ui.toast')
  })

  it('field history on a form never saved says there is no history yet (Alt+H is not silent)', async () => {
    const d = testDetail({ form: { ...savedForm, recordId: null, status: null } })
    const ctx = onDetail(d)
    expect(isAvailable(fieldHistory, ctx)).toBe(true)
    await execute(fieldHistory, ctx, 'hotkey')
    expectOnly(ctx, 'ui.toast')
    expect(ctx.ui.toast).toHaveBeenCalledWith('This form has not been saved yet, so it has no history', 'warning')
    expect(d.focusedField).not.toHaveBeenCalled()
  })

  it('next difference while not comparing says how to start (Alt+D is not silent)', async () => {
    const d = testDetail()
    const ctx = onDetail(d)
    expect(isAvailable(nextDifference, ctx)).toBe(true)
    await execute(nextDifference, ctx, 'hotkey')
    expectOnly(ctx, 'ui.toast')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Choose what to compare with first (“Compare with…”)', 'warning')
    expect(d.nextDifference).not.toHaveBeenCalled()
  })

  it('next empty required field says so when every one is filled', async () => {
    const ctx = onDetail(testDetail({ nextEmptyRequired: vi.fn(() => false) }))
    await execute(nextEmptyRequired, ctx, 'hotkey')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Every required field is filled', 'success')
  })

  it('next subject follows the list query and opens the neighbour in this tab', async () => {
    const listQuery = { studyId: 3, sort: 'f12', order: 'desc', centerId: 5 } as const
    const answer: Answer = (endpoint, input) => {
      expect(endpoint).toBe(getNeighbours)
      expect(input).toMatchObject({ ...listQuery, objectId: 40 })
      return { previous: 39, next: 41 }
    }
    const ctx = onDetail(testDetail({ listQuery }), { answer })
    await expect(execute(nextSubject, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'api.call', 'panes.close', 'navigate')
    expect(ctx.panes.close).toHaveBeenCalledWith(path)
    expect(ctx.navigate).toHaveBeenCalledWith('/project/patientDetail?studyId=3&id=41')
  })

  it('previous subject without a list query uses the default order; at the start it says so', async () => {
    const answer: Answer = (_e, input) => {
      expect(input).toMatchObject({ studyId: 3, sort: 'subjectNo', order: 'asc', objectId: 40 })
      return { previous: null, next: 41 }
    }
    const ctx = onDetail(testDetail(), { answer })
    await execute(previousSubject, ctx, 'hotkey')
    expectOnly(ctx, 'api.call', 'ui.toast')
    expect(ctx.ui.toast).toHaveBeenCalledWith('This is the first research object of the list', 'warning')
  })

  it('a list query of another project is not followed', async () => {
    const answer: Answer = (_e, input) => {
      expect(input).toMatchObject({ studyId: 3, sort: 'subjectNo' })
      return { previous: 39, next: null }
    }
    const ctx = onDetail(testDetail({ listQuery: { studyId: 9, sort: 'status', order: 'asc' } }), { answer })
    await execute(nextSubject, ctx, 'hotkey')
    expect(ctx.ui.toast).toHaveBeenCalledWith('This is the last research object of the list', 'warning')
  })

  it('compare with opens the compare dialog of this pane; next difference asks the pane', async () => {
    const ctx = onDetail(testDetail())
    await execute(compareWith, ctx, 'hotkey')
    expect(ctx.ui.open).toHaveBeenCalledWith(compareDialog, { path })

    const d = testDetail({ comparing: true, nextDifference: vi.fn(() => false) })
    const ctx2 = onDetail(d)
    await execute(nextDifference, ctx2, 'hotkey')
    expect(d.nextDifference).toHaveBeenCalledTimes(1)
    expect(ctx2.ui.toast).toHaveBeenCalledWith('No difference', 'success')
  })

  it('delete form asks a reason (the dialog); only a saved, unsigned form', async () => {
    const ctx = onDetail(testDetail())
    await execute(deleteForm, ctx, 'menu')
    expectOnly(ctx, 'ui.open')
    expect(ctx.ui.open).toHaveBeenCalledWith(entryReasonDialog, { path, purpose: 'deleteForm' })
    expect(isEnabled(deleteForm, onDetail(testDetail({ form: { ...savedForm, status: 'signed' } })))).toBe(false)
  })

  it('sign form confirms, signs at the loaded rev and reloads the forms', async () => {
    const answer: Answer = (endpoint, input) => {
      expect(endpoint).toBe(signRecord)
      expect(input).toEqual({ studyId: 3, recordId: 90, rev: 2 })
      return {
        id: 90,
        templateId: 7,
        versionId: 1,
        slot: '',
        visitId: null,
        sampleId: null,
        status: 'signed',
        rev: 3,
        updatedAt: '2026-11-26 10:00:00',
        updatedBy: 'a',
      }
    }
    const ctx = onDetail(testDetail(), { answer, ui: { confirm: () => Promise.resolve(true) } })
    await expect(execute(signForm, ctx, 'menu')).resolves.toEqual({ ok: true })
    expect(ctx.ui.confirm).toHaveBeenCalledTimes(1)
    expectOnly(ctx, 'api.call', 'invalidate', 'ui.toast')
    expect(ctx.invalidate).toHaveBeenCalledWith('subjectForms')

    const no = onDetail(testDetail(), { ui: { confirm: () => Promise.resolve(false) } })
    await execute(signForm, no, 'menu')
    expect(calledEffects(no)).toEqual([])
  })

  it('sign form is disabled with unsaved edits', () => {
    expect(isEnabled(signForm, onDetail(testDetail({ form: { ...savedForm, dirty: true } })))).toBe(false)
  })

  it('choose forms and unblind open their dialogs', async () => {
    const ctx = onDetail(testDetail({ canUnblind: true }))
    await execute(chooseForms, ctx, 'palette')
    await execute(unblind, ctx, 'button')
    expect(ctx.ui.open).toHaveBeenNthCalledWith(1, displayFormsDialog, { path })
    expect(ctx.ui.open).toHaveBeenNthCalledWith(2, entryReasonDialog, { path, purpose: 'unblind' })
  })
})
