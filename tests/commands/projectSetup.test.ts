import { describe, expect, it, vi } from 'vitest'
import * as endpoints from '../../contract/projectEndpoints.ts'
import type { ProjectDetail } from '../../contract/projects.ts'
import { commands, execute, isAvailable, isEnabled, needsArgs } from '../../commands/registry.ts'
import {
  addCenter,
  addQueue,
  centerDialog,
  clearDraft,
  deleteCenter,
  deleteQueue,
  editCenter,
  projectEditor,
  projectSetupCommands,
  projectWizard,
  saveTab,
  upgradeForm,
  wizardNext,
  wizardPrevious,
  type EditorActions,
  type WizardActions,
} from '../../commands/projectSetup.ts'
import { translate } from '../../src/i18n/index.ts'
import { calledEffects, expectOnly, offer, testContext, type Answer } from './context.ts'

const wizardPath = '/project/multi-add'
const editPath = '/project/multi-edit?id=4&tab=queue'

function testWizard(step = 0) {
  return {
    step,
    steps: 4,
    next: vi.fn(() => Promise.resolve()),
    previous: vi.fn<() => void>(),
    addQueue: vi.fn<() => void>(),
    clear: vi.fn<() => void>(),
  } satisfies WizardActions
}

function testEditor(tab = 'queue', over: Partial<Pick<EditorActions, 'canSave' | 'saveTab' | 'mayAddQueue'>> = {}) {
  return {
    projectId: 4,
    tab,
    canSave: over.canSave ?? true,
    saveTab: vi.fn(over.saveTab ?? (() => Promise.resolve())),
    addQueue: vi.fn<() => void>(),
    mayAddQueue: over.mayAddQueue ?? true,
  } satisfies EditorActions
}

const onWizard = (w: WizardActions, extra: Parameters<typeof testContext>[0] = {}) =>
  testContext({ path: wizardPath, provides: [offer(projectWizard, w)], ...extra })
const onEditor = (e: EditorActions, extra: Parameters<typeof testContext>[0] = {}) =>
  testContext({ path: editPath, provides: [offer(projectEditor, e)], ...extra })

/** A project detail as the server answers it (the endpoint's output schema checks it). */
const detail: ProjectDetail = {
  id: 4,
  scope: 'multi',
  type: 'prospective',
  name: 'Lung study',
  number: 'LS-1',
  testStage: null,
  diseaseId: null,
  diseaseName: null,
  diseaseNameEn: null,
  status: 'draft',
  randomMethod: 'none',
  blinded: 'open',
  plannedQuantity: 100,
  subjectCount: 0,
  creatorName: 'admin',
  myRole: '项目管理员',
  createdAt: '2026-11-26 10:00:00',
  updatedAt: '2026-11-26 10:00:00',
  groupNumber: '',
  manageBiomaterial: false,
  groupType: 'group',
  plannedGroups: 2,
  therapyTime: '',
  followUpTime: '',
  statusReason: '',
  queues: [],
  centers: [],
  forms: [],
  me: null,
}

const upgradeArgs = { id: 4, templateId: 3, versionId: 12, name: 'Vitals', from: 1, to: 2 }

describe('project setup commands', () => {
  it('are registered, in the project section, with titles in both languages', () => {
    for (const c of projectSetupCommands) {
      expect(commands).toContain(c)
      expect(c.section).toBe('project')
      expect(translate('zh', c.title)).not.toBe(c.title)
      expect(translate('en', c.title)).not.toBe(c.title)
    }
  })

  it('apply only where the wizard or the edit page has the focus', () => {
    const elsewhere = testContext({ path: '/project/multi-list' })
    for (const c of [addQueue, addCenter, saveTab, clearDraft, wizardNext, wizardPrevious])
      expect(isAvailable(c, elsewhere), c.id).toBe(false)
    expect(isAvailable(wizardNext, onWizard(testWizard()))).toBe(true)
    expect(isAvailable(saveTab, onWizard(testWizard()))).toBe(false)
    expect(isAvailable(saveTab, onEditor(testEditor()))).toBe(true)
    expect(isAvailable(clearDraft, onEditor(testEditor()))).toBe(false)
  })

  it('add queue adds an empty queue in the wizard, or a new one on the edit page', async () => {
    const w = testWizard(1)
    const ctx = onWizard(w)
    await expect(execute(addQueue, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expect(w.addQueue).toHaveBeenCalledTimes(1)
    expect(calledEffects(ctx)).toEqual([])

    const e = testEditor('base')
    await expect(execute(addQueue, onEditor(e), 'palette')).resolves.toEqual({ ok: true })
    expect(e.addQueue).toHaveBeenCalledTimes(1)

    // A role limited to chosen queues adds none: offered, but disabled, and running it does nothing.
    const limited = testEditor('queue', { mayAddQueue: false })
    expect(isEnabled(addQueue, onEditor(limited))).toBe(false)
    await expect(execute(addQueue, onEditor(limited), 'hotkey')).resolves.toMatchObject({ ok: false })
    expect(limited.addQueue).not.toHaveBeenCalled()
  })

  it('add center opens the inline new-center dialog of the focused view, where centers are picked', async () => {
    const ctx = onWizard(testWizard(3))
    await expect(execute(addCenter, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'ui.open')
    expect(ctx.ui.open).toHaveBeenCalledWith(centerDialog, { path: wizardPath })

    const onTab = onEditor(testEditor('center'))
    await execute(addCenter, onTab, 'palette')
    expect(onTab.ui.open).toHaveBeenCalledWith(centerDialog, { path: editPath })

    // Not on another step or tab, nor for someone who may neither create nor edit projects.
    expect(isAvailable(addCenter, onWizard(testWizard(0)))).toBe(false)
    expect(isAvailable(addCenter, onEditor(testEditor('queue')))).toBe(false)
    expect(isAvailable(addCenter, onWizard(testWizard(3), { grants: ['project.view'] }))).toBe(false)
    expect(isAvailable(addCenter, onWizard(testWizard(3), { grants: ['project.edit'] }))).toBe(true)
  })

  it('edit center opens the center dialog of the focused view on that directory entry, for those who may update centers', async () => {
    const ctx = onEditor(testEditor('center'))
    expect(needsArgs(editCenter)).toBe(true)
    await expect(execute(editCenter, ctx, 'button', { centerId: 7 })).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'ui.open')
    expect(ctx.ui.open).toHaveBeenCalledWith(centerDialog, { path: editPath, centerId: 7 })

    const inWizard = onWizard(testWizard(3))
    await execute(editCenter, inWizard, 'button', { centerId: 7 })
    expect(inWizard.ui.open).toHaveBeenCalledWith(centerDialog, { path: wizardPath, centerId: 7 })

    // As the server's center.update: project.edit or organization.edit; creating projects is not enough.
    for (const grants of [['project.edit'], ['organization.edit']] as const)
      expect(isAvailable(editCenter, onEditor(testEditor('center'), { grants })), grants[0]).toBe(true)
    const creator = onWizard(testWizard(3), { grants: ['project.create', 'project.view'] })
    expect(isAvailable(editCenter, creator)).toBe(false)
    await expect(execute(editCenter, creator, 'button', { centerId: 7 })).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(creator.ui.open).not.toHaveBeenCalled()
  })

  it('delete center asks, deletes the directory entry and reloads the directory, in the user language', async () => {
    const calls: unknown[] = []
    const answer: Answer = (endpoint, input) => {
      expect(endpoint).toBe(endpoints.deleteCenter)
      calls.push(input)
      return undefined
    }
    const ctx = testContext({ lang: 'en', answer })
    expect(needsArgs(deleteCenter)).toBe(true)
    await expect(execute(deleteCenter, ctx, 'button', { centerId: 7, name: 'Peking Union (PU)' })).resolves.toEqual({ ok: true })
    expect(ctx.ui.confirm).toHaveBeenCalledWith(
      'Delete center Peking Union (PU) from the directory?',
      translate('en', 'deletion.irreversible'),
    )
    expect(calls).toEqual([{ id: 7 }])
    expect(ctx.invalidate).toHaveBeenCalledWith('centers')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Center Peking Union (PU) deleted', 'success')

    const no = testContext({ ui: { confirm: () => Promise.resolve(false) } })
    await execute(deleteCenter, no, 'button', { centerId: 7, name: 'PU' })
    expect(no.api.call).not.toHaveBeenCalled()
    expect(calledEffects(no)).toEqual([])
  })

  it("delete center: the server's refusal of a center in use is shown, nothing reloads; hidden for those the server refuses", async () => {
    // The server's center.inUse, in the user's language (server/i18n/messages.ts).
    const refusal = '还有 1 个项目使用该中心，不能删除'
    const refused = testContext({ lang: 'zh', answer: () => Promise.reject(new Error(refusal)) })
    await expect(execute(deleteCenter, refused, 'button', { centerId: 7, name: '协和 (PU)' })).resolves.toMatchObject({
      ok: false,
      reason: 'failed',
    })
    expect(refused.ui.confirm).toHaveBeenCalledWith('确定从中心目录删除中心 协和 (PU)？', translate('zh', 'deletion.irreversible'))
    expect(refused.ui.toast).toHaveBeenCalledWith(refusal, 'danger')
    expect(refused.ui.toast).toHaveBeenCalledTimes(1)
    expect(refused.invalidate).not.toHaveBeenCalled()

    // As the server's center.delete: project.delete or organization.delete; editing projects is not enough.
    for (const grants of [['project.delete'], ['organization.delete']] as const)
      expect(isAvailable(deleteCenter, testContext({ grants })), grants[0]).toBe(true)
    const editor = testContext({ grants: ['project.edit', 'project.create'], answer: () => undefined })
    expect(isAvailable(deleteCenter, editor)).toBe(false)
    await expect(execute(deleteCenter, editor, 'button', { centerId: 7, name: 'PU' })).resolves.toEqual({
      ok: false,
      reason: 'unavailable',
    })
    expect(editor.api.call).not.toHaveBeenCalled()
  })

  it('upgrade asks first, then moves the pin, reloads projects and says so in the user language', async () => {
    const calls: unknown[] = []
    const answer: Answer = (endpoint, input) => {
      calls.push(input)
      expect(endpoint).toBe(endpoints.upgradeProjectForm)
      return detail
    }
    const ctx = testContext({ lang: 'en', answer })
    expect(needsArgs(upgradeForm)).toBe(true)
    await expect(execute(upgradeForm, ctx, 'button', upgradeArgs)).resolves.toEqual({ ok: true })
    expect(ctx.ui.confirm).toHaveBeenCalledWith('Upgrade Vitals from v1 to v2?', translate('en', 'projectSetup.index.upgradeDetail'))
    expect(calls).toEqual([{ id: 4, templateId: 3, versionId: 12 }])
    expect(ctx.invalidate).toHaveBeenCalledWith('projects')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Vitals now collects v2', 'success')
  })

  it('upgrade does nothing when the answer is no, and needs the edit permission', async () => {
    const ctx = testContext({ ui: { confirm: () => Promise.resolve(false) } })
    await execute(upgradeForm, ctx, 'button', upgradeArgs)
    expect(ctx.api.call).not.toHaveBeenCalled()
    expect(calledEffects(ctx)).toEqual([])
    const viewer = testContext({ grants: ['project.view'] })
    await expect(execute(upgradeForm, viewer, 'button', upgradeArgs)).resolves.toEqual({ ok: false, reason: 'unavailable' })
  })

  it("delete queue asks, deletes and reloads; the server's refusal (research objects) is shown and nothing reloads", async () => {
    const ctx = testContext({ lang: 'zh', answer: () => undefined })
    await expect(execute(deleteQueue, ctx, 'button', { id: 4, queueId: 8, name: 'Arm A' })).resolves.toEqual({ ok: true })
    expect(ctx.ui.confirm).toHaveBeenCalledWith('确定删除队列 Arm A？', translate('zh', 'deletion.irreversible'))
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.deleteQueue, { id: 4, queueId: 8 })
    expect(ctx.invalidate).toHaveBeenCalledWith('projects')
    expect(ctx.ui.toast).toHaveBeenCalledWith('队列已删除', 'success')

    const refusal = '当前队列下存在研究对象，删除失败'
    const refused = testContext({ answer: () => Promise.reject(new Error(refusal)) })
    await expect(execute(deleteQueue, refused, 'button', { id: 4, queueId: 8, name: 'Arm A' })).resolves.toMatchObject({
      ok: false,
      reason: 'failed',
    })
    expect(refused.ui.toast).toHaveBeenCalledWith(refusal, 'danger')
    expect(refused.invalidate).not.toHaveBeenCalled()
  })

  it('save tab saves the current tab, and is disabled on the member and config tabs', async () => {
    const e = testEditor('base')
    const ctx = onEditor(e)
    await expect(execute(saveTab, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expect(e.saveTab).toHaveBeenCalledTimes(1)
    expect(isEnabled(saveTab, onEditor(testEditor('member', { canSave: false })))).toBe(false)

    const failing = onEditor(testEditor('base', { saveTab: () => Promise.reject(Object.assign(new Error('taken'), { shown: true })) }))
    await expect(execute(saveTab, failing, 'hotkey')).resolves.toMatchObject({ ok: false, reason: 'failed' })
    // The API client showed the refusal already: no second toast.
    expect(failing.ui.toast).not.toHaveBeenCalled()
  })

  it('clear draft asks first, then empties the draft and says so', async () => {
    const w = testWizard(2)
    const ctx = onWizard(w, { lang: 'en' })
    await execute(clearDraft, ctx, 'palette')
    expect(ctx.ui.confirm).toHaveBeenCalledWith('Clear the project draft?', 'Everything entered in the wizard is removed.')
    expect(w.clear).toHaveBeenCalledTimes(1)
    expect(ctx.ui.toast).toHaveBeenCalledWith('Draft cleared', 'success')

    const kept = testWizard(2)
    const no = onWizard(kept, { ui: { confirm: () => Promise.resolve(false) } })
    await execute(clearDraft, no, 'palette')
    expect(kept.clear).not.toHaveBeenCalled()
    expect(calledEffects(no)).toEqual([])
  })

  it('next and previous move the wizard; previous is disabled on the first step; next needs the create permission', async () => {
    const w = testWizard(1)
    await execute(wizardNext, onWizard(w), 'hotkey')
    expect(w.next).toHaveBeenCalledTimes(1)
    await execute(wizardPrevious, onWizard(w), 'hotkey')
    expect(w.previous).toHaveBeenCalledTimes(1)

    const first = testWizard(0)
    await expect(execute(wizardPrevious, onWizard(first), 'hotkey')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(first.previous).not.toHaveBeenCalled()
    expect(isAvailable(wizardNext, onWizard(first, { grants: ['project.view'] }))).toBe(false)
  })
})
