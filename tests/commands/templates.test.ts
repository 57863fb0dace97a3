import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as endpoints from '../../contract/templateEndpoints.ts'
import { execute, isAvailable, isEnabled, needsArgs } from '../../commands/registry.ts'
import {
  addIndicators,
  deleteTemplate,
  designer,
  designTemplate,
  editTemplate,
  moveDown,
  moveUp,
  newCrf,
  newGroup,
  openTemplateToSide,
  previewOf,
  previewTemplate,
  publishTemplate,
  saveLayout,
  templateCommands,
  templateEditor,
  templateTarget,
  type DesignerActions,
} from '../../commands/templates.ts'
import { translate } from '../../src/i18n/index.ts'
import { calledEffects, expectOnly, offer, testContext, type Answer } from './context.ts'

function testDesigner(
  over: { selected?: number | null; dirty?: boolean; canMove?: (delta: -1 | 1) => boolean; save?: () => Promise<void> } = {},
) {
  return {
    templateId: 7,
    kind: 'crf' as const,
    selected: over.selected === undefined ? 12 : over.selected,
    selectedRequired: over.selected === null ? null : false,
    section: { key: 's1', repeating: false },
    dirty: over.dirty ?? false,
    canMove: vi.fn(over.canMove ?? (() => true)),
    moveSelected: vi.fn<(delta: -1 | 1) => void>(),
    toggleRequired: vi.fn<() => void>(),
    addSection: vi.fn<() => void>(),
    editSectionTitle: vi.fn<() => void>(),
    toggleRepeating: vi.fn<() => void>(),
    openAddIndicators: vi.fn<() => void>(),
    save: vi.fn(over.save ?? (() => Promise.resolve())),
  } satisfies DesignerActions
}

/** A template as the server answers it (the endpoint's output schema checks it). */
const templateRow = (id: number, name: string, kind: 'crf' | 'group' = 'crf') => ({
  id,
  kind,
  name,
  description: '',
  collectType: 'all' as const,
  preposeIds: [],
  status: 1 as const,
  indexCount: 0,
  draft: null,
  published: null,
  updatedAt: '2026-01-01 00:00:00',
})

const designerAt = '/dataDictionary/edit-crf-temp?id=7'

// A failing command logs its error; the tests below assert the toast instead.
beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => undefined))
afterEach(() => vi.restoreAllMocks())

describe('where the template commands apply', () => {
  it('are all in the templates section, with titles in both languages', () => {
    for (const c of templateCommands) {
      expect(c.section).toBe('templates')
      expect(translate('zh', c.title)).not.toBe(c.title)
      expect(translate('en', c.title)).not.toBe(c.title)
    }
  })

  it('hide the designer commands off the designer, and the move commands without a selection', () => {
    const plain = testContext({ path: '/dataDictionary/crf-template' })
    for (const c of [addIndicators, moveUp, moveDown, saveLayout, previewTemplate, publishTemplate])
      expect(isAvailable(c, plain), c.id).toBe(false)
    const none = testContext({ path: designerAt, provides: [offer(designer, testDesigner({ selected: null }))] })
    expect(isAvailable(moveUp, none)).toBe(false)
    expect(isAvailable(addIndicators, none)).toBe(true)
    const some = testContext({ path: designerAt, provides: [offer(designer, testDesigner())] })
    for (const c of [addIndicators, moveUp, moveDown, saveLayout, previewTemplate, publishTemplate])
      expect(isAvailable(c, some), c.id).toBe(true)
  })

  it('show a move disabled where the item cannot go', () => {
    const d = testDesigner({ canMove: (delta: -1 | 1) => delta > 0 })
    const ctx = testContext({ path: designerAt, provides: [offer(designer, d)] })
    expect(isEnabled(moveUp, ctx)).toBe(false)
    expect(isEnabled(moveDown, ctx)).toBe(true)
  })

  it('need a session', () => {
    const ctx = testContext({ signedIn: false, path: designerAt, provides: [offer(designer, testDesigner())] })
    expect(templateCommands.filter((c) => isAvailable(c, ctx)).map((c) => c.id)).toEqual([])
  })

  it('keep the row actions (which need a template) out of the palette', () => {
    expect([designTemplate, editTemplate, deleteTemplate, previewOf].every(needsArgs)).toBe(true)
    expect([newCrf, newGroup, addIndicators, moveUp, moveDown, previewTemplate, publishTemplate, openTemplateToSide].some(needsArgs)).toBe(
      false,
    )
  })

  it('bind the hotkeys of the brief', () => {
    expect(moveUp.hotkey).toBe('alt+up')
    expect(moveDown.hotkey).toBe('alt+down')
    expect(newCrf.hotkey).toBeTruthy()
  })

  it('read the template of a path', () => {
    expect(templateTarget('/dataDictionary/edit-crf-temp?id=7')).toEqual({ id: 7, kind: 'crf' })
    expect(templateTarget('/dataDictionary/edit-subject-temp?id=3&name=x')).toEqual({ id: 3, kind: 'group' })
    expect(templateTarget('/templateManage/assignCRFFields?id=4')).toEqual({ id: 4, kind: 'crf' })
    expect(templateTarget('/dataDictionary/previewCRF?id=5&version=2')).toEqual({ id: 5, kind: null })
    expect(templateTarget('/dataDictionary/edit-crf-temp')).toBeNull()
    expect(templateTarget('/dataDictionary/edit-crf-temp?id=x')).toBeNull()
    expect(templateTarget('/dataDictionary/crf-template?id=5')).toBeNull()
  })
})

describe('new CRF / question group', () => {
  it('opens the create dialog on the CRF manager, going there first', async () => {
    const ctx = testContext({ path: '/dashboard' })
    await expect(execute(newCrf, ctx, 'palette')).resolves.toEqual({ ok: true })
    expect(ctx.navigate).toHaveBeenCalledWith('/dataDictionary/crf-template')
    expect(ctx.ui.open).toHaveBeenCalledWith(templateEditor, { kind: 'crf', id: null })
    expectOnly(ctx, 'navigate', 'ui.open')
  })

  it('stays on a manager of its kind', async () => {
    const ctx = testContext({ path: '/templateManage/crfTemplate' })
    await execute(newCrf, ctx, 'hotkey')
    expect(ctx.ui.open).toHaveBeenCalledWith(templateEditor, { kind: 'crf', id: null })
    expectOnly(ctx, 'ui.open')
    const groupCtx = testContext({ path: '/templateManage/crfTemplate' })
    await execute(newGroup, groupCtx, 'palette')
    expect(groupCtx.navigate).toHaveBeenCalledWith('/dataDictionary/subject-template')
    expect(groupCtx.ui.open).toHaveBeenLastCalledWith(templateEditor, { kind: 'group', id: null })
  })

  it('with a name, creates it through the API and opens it in the designer', async () => {
    const ctx = testContext({ lang: 'en', answer: () => templateRow(42, 'Baseline') })
    await expect(execute(newCrf, ctx, 'test', { name: ' Baseline ' })).resolves.toEqual({ ok: true })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.createTemplate, {
      kind: 'crf',
      name: 'Baseline',
      description: '',
      collectType: 'all',
      preposeIds: [],
      status: 1,
    })
    expect(ctx.navigate).toHaveBeenCalledWith('/dataDictionary/edit-crf-temp?id=42')
    expect(ctx.invalidate).toHaveBeenCalledWith('templates')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Created: Baseline', 'success')
    expect(ctx.ui.open).not.toHaveBeenCalled()
  })

  it('refuses a blank name before any call', async () => {
    const ctx = testContext()
    await expect(execute(newCrf, ctx, 'test', { name: '  ' })).resolves.toMatchObject({ ok: false, reason: 'badArgs' })
    expectOnly(ctx, 'ui.toast')
  })

  it('a refusal of the server ends in its message, nothing opened', async () => {
    const ctx = testContext({ answer: () => Promise.reject(new Error('Baseline already exists')) })
    await expect(execute(newCrf, ctx, 'test', { name: 'Baseline' })).resolves.toMatchObject({ ok: false, reason: 'failed' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Baseline already exists', 'danger')
    expect(ctx.navigate).not.toHaveBeenCalled()
    expect(ctx.invalidate).not.toHaveBeenCalled()
  })
})

describe('edit and delete (list rows)', () => {
  it('edit opens the dialog of that template', async () => {
    const ctx = testContext({ path: '/dataDictionary/subject-template' })
    await execute(editTemplate, ctx, 'button', { id: 3, kind: 'group' })
    expect(ctx.ui.open).toHaveBeenCalledWith(templateEditor, { kind: 'group', id: 3 })
    expect(ctx.navigate).not.toHaveBeenCalled()
  })

  it('delete asks with the SPEC confirmation, then deletes and reloads the lists', async () => {
    const ctx = testContext({ lang: 'en', answer: () => undefined })
    await expect(execute(deleteTemplate, ctx, 'button', { id: 3, kind: 'crf' })).resolves.toEqual({ ok: true })
    expect(ctx.ui.confirm).toHaveBeenCalledWith('Are you sure to delete the selected content?', 'Deletion is irreversible')
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.deleteTemplate, { id: 3 })
    expect(ctx.invalidate).toHaveBeenCalledWith('templates')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Deleted successfully', 'success')
  })

  it('delete does nothing when the answer is no', async () => {
    const ctx = testContext({ ui: { confirm: () => Promise.resolve(false) } })
    await execute(deleteTemplate, ctx, 'button', { id: 3, kind: 'crf' })
    expect(ctx.api.call).not.toHaveBeenCalled()
    expect(calledEffects(ctx)).toEqual([])
  })

  it("delete shows the server's refusal (indicators exist under the CRF) and reloads nothing", async () => {
    const refusal = translate('en', 'deletion.crfHasIndicators')
    const ctx = testContext({ lang: 'en', answer: () => Promise.reject(new Error(refusal)) })
    await expect(execute(deleteTemplate, ctx, 'button', { id: 3, kind: 'crf' })).resolves.toMatchObject({ ok: false, reason: 'failed' })
    expect(ctx.ui.toast).toHaveBeenCalledWith(refusal, 'danger')
    expect(ctx.invalidate).not.toHaveBeenCalled()
  })

  it('design and preview open the template', async () => {
    const ctx = testContext()
    await execute(designTemplate, ctx, 'button', { id: 9, kind: 'group' })
    expect(ctx.navigate).toHaveBeenLastCalledWith('/dataDictionary/edit-subject-temp?id=9')
    await execute(previewOf, ctx, 'button', { id: 9, version: 2 })
    expect(ctx.navigate).toHaveBeenLastCalledWith('/dataDictionary/previewCRF?id=9&version=2')
  })
})

describe('the designer commands', () => {
  it('add indicators opens the picker', async () => {
    const d = testDesigner()
    const ctx = testContext({ path: designerAt, provides: [offer(designer, d)] })
    await execute(addIndicators, ctx, 'hotkey')
    expect(d.openAddIndicators).toHaveBeenCalledOnce()
    expect(calledEffects(ctx)).toEqual([])
  })

  it('move up / down move the selected item by one', async () => {
    const d = testDesigner()
    const ctx = testContext({ path: designerAt, provides: [offer(designer, d)] })
    await execute(moveUp, ctx, 'hotkey')
    await execute(moveDown, ctx, 'hotkey')
    expect(d.moveSelected.mock.calls).toEqual([[-1], [1]])
  })

  it('a move that cannot happen does nothing', async () => {
    const d = testDesigner({ canMove: () => false })
    const ctx = testContext({ path: designerAt, provides: [offer(designer, d)] })
    await expect(execute(moveUp, ctx, 'hotkey')).resolves.toMatchObject({ ok: false, reason: 'unavailable' })
    expect(d.moveSelected).not.toHaveBeenCalled()
  })

  it('save writes the layout and says so; a refusal is shown', async () => {
    const d = testDesigner({ dirty: true })
    const ctx = testContext({ lang: 'en', path: designerAt, provides: [offer(designer, d)] })
    await expect(execute(saveLayout, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expect(d.save).toHaveBeenCalledOnce()
    expect(ctx.ui.toast).toHaveBeenCalledWith('Save success', 'success')
    const bad = testDesigner({ save: () => Promise.reject(new Error('The indicator bp appears twice in the form')) })
    const ctx2 = testContext({ lang: 'en', path: designerAt, provides: [offer(designer, bad)] })
    await expect(execute(saveLayout, ctx2, 'hotkey')).resolves.toMatchObject({ ok: false })
    expect(ctx2.ui.toast).toHaveBeenCalledWith('The indicator bp appears twice in the form', 'danger')
  })

  it('preview saves unsaved edits first, then opens the preview', async () => {
    const order: string[] = []
    const d = testDesigner({ dirty: true, save: async () => void order.push('save') })
    const ctx = testContext({ path: designerAt, provides: [offer(designer, d)], navigate: (p) => void order.push(p) })
    await execute(previewTemplate, ctx, 'hotkey')
    expect(order).toEqual(['save', '/dataDictionary/previewCRF?id=7'])
  })

  it('preview of a clean designer saves nothing', async () => {
    const d = testDesigner()
    const ctx = testContext({ path: designerAt, provides: [offer(designer, d)] })
    await execute(previewTemplate, ctx, 'palette')
    expect(d.save).not.toHaveBeenCalled()
    expectOnly(ctx, 'navigate')
  })
})

describe('publish (SPEC §7 checkHas… / save…GenerateToDb)', () => {
  const api =
    (state: { generated: boolean; pending: boolean; version: number | null }): Answer =>
    (endpoint) => {
      if (endpoint === endpoints.getTemplate) return templateRow(5, 'Follow-up', 'group')
      if (endpoint === endpoints.publish) return { generated: true, pending: false, version: (state.version ?? 0) + 1 }
      return state
    }
  const calledWith = (ctx: ReturnType<typeof testContext>, endpoint: unknown) =>
    ctx.api.call.mock.calls.filter((c) => c[0] === endpoint).map((c) => c[1])

  it('checks, asks, publishes, reloads and tells the new version', async () => {
    const d = testDesigner({ dirty: true })
    const calls = api({ generated: true, pending: true, version: 1 })
    const ctx = testContext({ lang: 'en', path: designerAt, provides: [offer(designer, d)], answer: calls })
    await expect(execute(publishTemplate, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expect(d.save).toHaveBeenCalledOnce()
    expect(calledWith(ctx, endpoints.checkGenerate)).toEqual([{ kind: 'crf', id: 7 }])
    expect(ctx.ui.confirm).toHaveBeenCalledWith('Publish as version 2?', translate('en', 'template.publishDetail'))
    expect(calledWith(ctx, endpoints.publish)).toEqual([{ kind: 'crf', id: 7 }])
    expect(endpoints.publish.request({ kind: 'crf', id: 7 })).toEqual({
      path: 'api/scientific/form/saveCrfFormGenerateToDb',
      query: { id: 7 },
    })
    expect(ctx.invalidate).toHaveBeenCalledWith('templates')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Published as version 2', 'success')
  })

  it('uses the question-group pair for a group, learning the kind on the preview', async () => {
    const calls = api({ generated: false, pending: true, version: null })
    const ctx = testContext({ lang: 'zh', path: '/dataDictionary/previewCRF?id=5', answer: calls })
    await execute(publishTemplate, ctx, 'palette')
    expect(calledWith(ctx, endpoints.getTemplate)).toEqual([{ id: 5 }])
    expect(calledWith(ctx, endpoints.checkGenerate)).toEqual([{ kind: 'group', id: 5 }])
    expect(endpoints.checkGenerate.request({ kind: 'group', id: 5 })).toEqual({
      path: 'api/scientific/form/checkHasFieldsGenerateToDb',
      query: { id: 5 },
    })
    expect(ctx.ui.confirm).toHaveBeenCalledWith('确定发布为版本 1 吗？', expect.any(String))
    expect(calledWith(ctx, endpoints.publish)).toEqual([{ kind: 'group', id: 5 }])
  })

  it('with nothing pending, says so and asks nothing', async () => {
    const calls = api({ generated: true, pending: false, version: 3 })
    const ctx = testContext({ lang: 'en', path: designerAt, provides: [offer(designer, testDesigner())], answer: calls })
    await execute(publishTemplate, ctx, 'hotkey')
    expect(ctx.ui.confirm).not.toHaveBeenCalled()
    expect(calledWith(ctx, endpoints.publish)).toEqual([])
    expect(ctx.ui.toast).toHaveBeenCalledWith('There are no changes to publish', 'warning')
  })

  it('a no publishes nothing', async () => {
    const calls = api({ generated: true, pending: true, version: 1 })
    const ctx = testContext({
      path: designerAt,
      provides: [offer(designer, testDesigner())],
      answer: calls,
      ui: { confirm: () => Promise.resolve(false) },
    })
    await execute(publishTemplate, ctx, 'hotkey')
    expect(calledWith(ctx, endpoints.publish)).toEqual([])
    expect(ctx.invalidate).not.toHaveBeenCalled()
  })
})

describe('open a CRF to the side', () => {
  it('with an id opens its designer beside the focused pane', async () => {
    const ctx = testContext()
    await execute(openTemplateToSide, ctx, 'button', { id: 4 })
    expect(ctx.panes.openToSide).toHaveBeenCalledWith('/dataDictionary/edit-crf-temp?id=4')
    expectOnly(ctx, 'panes.openToSide')
    const g = testContext()
    await execute(openTemplateToSide, g, 'button', { id: 4, kind: 'group' })
    expect(g.panes.openToSide).toHaveBeenCalledWith('/dataDictionary/edit-subject-temp?id=4')
  })

  it('without one lets the palette find the CRF', async () => {
    const ctx = testContext()
    await execute(openTemplateToSide, ctx, 'palette')
    expect(ctx.ui.openPalette).toHaveBeenCalledWith('templates')
    expectOnly(ctx, 'ui.openPalette')
  })
})
