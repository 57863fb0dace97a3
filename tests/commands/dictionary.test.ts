/**
 * The dictionary commands (issue 4 item 7) run through the registry's execute with a test
 * context: what each one does to the world, and what it refuses.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dictionaryPaths, type IndicatorInput } from '../../contract/dictionary.ts'
import * as endpoints from '../../contract/dictionaryEndpoints.ts'
import type { ImportResult } from '../../contract/dictionaryExchange.ts'
import { dictionaryCommands, type ImportFailureData } from '../../commands/dictionary.ts'
import { execute, getCommand, hotkeyLabel, needsArgs } from '../../commands/registry.ts'
import { translate } from '../../src/i18n/index.ts'
import { choices } from '../support/choices.ts'
import { calledEffects, expectOnly, testContext } from './context.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

const run = (id: string, ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand(id), ctx, 'test', args)

const input = (over: Partial<IndicatorInput> = {}): IndicatorInput => ({
  code: 'BP_SYS',
  nameZh: '收缩压',
  nameEn: 'Systolic blood pressure',
  comment: '',
  type: 'blank',
  display: 'input',
  dataType: 'integer',
  options: [],
  dependentFieldId: null,
  dependentValue: null,
  unit: 'mmHg',
  minimum: 40,
  maximum: 260,
  dateFormat: null,
  defaultValue: null,
  status: 1,
  indexClass: 'Vital signs',
  category: 'all',
  diseaseId: null,
  ...over,
})

/** An API answer of any type the command asks for. */
const answer =
  <V>(value: V) =>
  <T>(): Promise<T> =>
    Promise.resolve(value as unknown as T)

/** What the server answers for an indicator or a disease (the endpoint's output schema checks it). */
const indicatorRow = (id: number) => ({ ...input(), id, inUse: false, createdAt: '2026-01-01 00:00:00', updatedAt: '2026-01-01 00:00:00' })
const diseaseRow = (id: number) => ({
  id,
  name: '胃癌',
  nameEn: 'Gastric cancer',
  icon: 'pulse',
  classCount: 0,
  fieldCount: 0,
  selectedCount: 0,
  projectCount: 0,
})

/** A refusal as src/api/client.ts rejects it: an Error with the server's envelope. */
function apiError(message: string, data?: unknown) {
  return Object.assign(new Error(message), { envelope: { code: 400, msg: message, data } })
}

describe('the dictionary section', () => {
  it('holds the commands of issue 4 item 7, each in the dictionary section with a zh and an en title', () => {
    const ids = dictionaryCommands.map((c) => c.id)
    for (const id of ['dictionary.newIndicator', 'dictionary.findIndicator', 'dictionary.import', 'dictionary.export'])
      expect(ids).toContain(id)
    for (const c of dictionaryCommands) {
      expect(c.section).toBe('dictionary')
      expect(translate('zh', c.title)).not.toBe(c.title)
      expect(translate('en', c.title)).not.toBe(translate('zh', c.title))
    }
  })

  it('gives new indicator and find indicator a hotkey, and lets the palette run the four of item 7', () => {
    expect(hotkeyLabel(getCommand('dictionary.newIndicator').hotkey ?? '', false)).toBe('Alt+Shift+I')
    expect(hotkeyLabel(getCommand('dictionary.findIndicator').hotkey ?? '', false)).toBe('Alt+I')
    for (const id of ['dictionary.newIndicator', 'dictionary.findIndicator', 'dictionary.import', 'dictionary.export'])
      expect(needsArgs(getCommand(id)), id).toBe(false)
  })

  it('hides every dictionary command from a signed-out user', async () => {
    for (const c of dictionaryCommands) {
      const ctx = testContext({ signedIn: false })
      await expect(execute(c, ctx, 'test')).resolves.toMatchObject({ ok: false, reason: 'unavailable' })
      expect(calledEffects(ctx), c.id).toEqual([])
    }
  })
})

describe('new and find indicator', () => {
  it('new indicator opens the createFields screen', async () => {
    const ctx = testContext()
    await expect(run('dictionary.newIndicator', ctx)).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'navigate')
    expect(ctx.navigate).toHaveBeenCalledWith('/dataDictionary/createFields')
  })

  it('find indicator opens the palette on the indicators source', async () => {
    const ctx = testContext()
    await run('dictionary.findIndicator', ctx)
    expectOnly(ctx, 'ui.openPalette')
    expect(ctx.ui.openPalette).toHaveBeenCalledWith('indicators')
  })

  it('open indicator shows its form, or puts it beside the focused pane', async () => {
    let ctx = testContext()
    await run('dictionary.openIndicator', ctx, { id: 7 })
    expectOnly(ctx, 'navigate')
    expect(ctx.navigate).toHaveBeenCalledWith('/dataDictionary/fields?id=7')
    ctx = testContext()
    await run('dictionary.openIndicator', ctx, { id: 7, toSide: true })
    expectOnly(ctx, 'panes.openToSide')
    expect(ctx.panes.openToSide).toHaveBeenCalledWith('/dataDictionary/fields?id=7')
  })
})

describe('save indicator', () => {
  it('creates, toasts, reloads the lists, closes the new-indicator tab and shows the list', async () => {
    const ctx = testContext({ lang: 'en', path: '/dataDictionary/createFields', answer: answer(indicatorRow(1)) })
    await expect(run('dictionary.saveIndicator', ctx, { input: input() })).resolves.toEqual({ ok: true })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.createIndicator, input())
    expect(ctx.ui.toast).toHaveBeenCalledWith('Save success', 'success')
    expect(ctx.invalidate.mock.calls.map((c) => c[0]).sort()).toEqual(['diseases', 'indicators'])
    expect(ctx.panes.close).toHaveBeenCalledWith('/dataDictionary/createFields')
    expect(ctx.navigate).toHaveBeenCalledWith('/dataDictionary/dictionaryList')
  })

  it('edits an existing indicator in place', async () => {
    const ctx = testContext({ lang: 'en', path: '/dataDictionary/fields?id=4', answer: answer(indicatorRow(4)) })
    await run('dictionary.saveIndicator', ctx, { id: 4, input: input() })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.updateIndicator, { id: 4, input: input() })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Edit success', 'success')
    expect(ctx.navigate).not.toHaveBeenCalled()
    expect(ctx.panes.close).not.toHaveBeenCalled()
  })

  it('refuses what the server would refuse before calling it, in the server’s words', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = testContext({ lang: 'en' })
    const result = await run('dictionary.saveIndicator', ctx, { input: input({ minimum: 10, maximum: 5 }) })
    expect(result).toMatchObject({ ok: false, reason: 'failed' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Minimum: The minimum 10 must not exceed the maximum 5', 'danger')
    expectOnly(ctx, 'ui.toast')

    const zh = testContext({ lang: 'zh' })
    await run('dictionary.saveIndicator', zh, {
      input: input({
        type: 'single',
        display: 'radio',
        dataType: 'text',
        options: choices('是', '否'),
        defaultValue: '3',
        minimum: null,
        maximum: null,
      }),
    })
    expect(zh.ui.toast).toHaveBeenCalledWith('默认值: 默认值必须存在', 'danger')
  })

  it('refuses a code of the wrong shape as bad arguments, without a call', async () => {
    const ctx = testContext({ lang: 'en' })
    await expect(run('dictionary.saveIndicator', ctx, { input: input({ code: '1abc' }) })).resolves.toMatchObject({
      ok: false,
      reason: 'badArgs',
    })
    expectOnly(ctx, 'ui.toast')
  })

  it('ends in the server’s message when the server refuses (a code that exists)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = testContext({ answer: () => Promise.reject(apiError('BP_SYS已存在')) })
    await expect(run('dictionary.saveIndicator', ctx, { input: input() })).resolves.toMatchObject({ ok: false, reason: 'failed' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('BP_SYS已存在', 'danger')
    expect(ctx.invalidate).not.toHaveBeenCalled()
    expect(ctx.navigate).not.toHaveBeenCalled()
  })
})

describe('status and deletion', () => {
  it('switches the status, says so and reloads', async () => {
    const ctx = testContext({ lang: 'en', answer: answer(indicatorRow(3)) })
    await run('dictionary.setIndicatorStatus', ctx, { id: 3, status: 0 })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.setIndicatorStatus, { id: 3, status: 0 })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Update status success', 'success')
    expect(ctx.invalidate).toHaveBeenCalledWith('indicators')
  })

  it('says the status update failed, with the reason', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = testContext({ lang: 'en', answer: () => Promise.reject(new Error('No such indicator: 3')) })
    await run('dictionary.setIndicatorStatus', ctx, { id: 3, status: 1 })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Update status failed: No such indicator: 3', 'danger')
    expect(ctx.invalidate).not.toHaveBeenCalled()
  })

  it('asks the SPEC question before deleting an indicator, and does nothing on no', async () => {
    const ctx = testContext({ lang: 'en', ui: { confirm: () => Promise.resolve(false) } })
    await run('dictionary.deleteIndicator', ctx, { id: 9 })
    expect(ctx.ui.confirm).toHaveBeenCalledWith('Are you sure to delete the selected content?', 'Deletion is irreversible')
    expect(calledEffects(ctx)).toEqual([])
  })

  it('deletes an indicator on yes and closes its own form', async () => {
    const ctx = testContext({ lang: 'en', path: '/dataDictionary/fields?id=9', answer: answer(undefined) })
    await run('dictionary.deleteIndicator', ctx, { id: 9 })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.deleteIndicator, { id: 9 })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Deleted successfully', 'success')
    expect(ctx.panes.close).toHaveBeenCalledWith('/dataDictionary/fields?id=9')
  })

  it('deletes a disease without projects after the question, and reloads the counts', async () => {
    const ctx = testContext({ lang: 'zh', answer: answer(undefined) })
    await run('dictionary.deleteDisease', ctx, { id: 2 })
    expect(ctx.ui.confirm).toHaveBeenCalledWith('确定删除所选内容吗？', '删除后不可恢复')
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.deleteDisease, { id: 2 })
    expect(ctx.ui.toast).toHaveBeenCalledWith('删除成功', 'success')
    expect(ctx.invalidate).toHaveBeenCalledWith('diseases')
  })

  it('shows the server’s refusal of a disease with projects and reloads nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = testContext({ answer: () => Promise.reject(apiError('该病种存在关联项目，无法删除')) })
    await expect(run('dictionary.deleteDisease', ctx, { id: 2 })).resolves.toMatchObject({ ok: false, reason: 'failed' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('该病种存在关联项目，无法删除', 'danger')
    expect(ctx.invalidate).not.toHaveBeenCalled()
  })

  it('creates and edits a disease', async () => {
    const ctx = testContext({ lang: 'en', answer: answer(diseaseRow(8)) })
    const d = { name: '胃癌', nameEn: 'Gastric cancer', icon: 'pulse' }
    await run('dictionary.saveDisease', ctx, { input: d })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.createDisease, d)
    await run('dictionary.saveDisease', ctx, { id: 8, input: d })
    expect(ctx.api.call).toHaveBeenLastCalledWith(endpoints.updateDisease, { id: 8, input: d })
    expect(ctx.ui.toast.mock.calls).toEqual([
      ['Save success', 'success'],
      ['Edit success', 'success'],
    ])
  })

  it('opens a disease’s indicators in the system index', async () => {
    const ctx = testContext()
    await run('dictionary.openDisease', ctx, { id: 5 })
    expect(ctx.navigate).toHaveBeenCalledWith('/dataDictionary/dictionaryList?diseaseId=5')
  })
})

describe('import and export', () => {
  const result: ImportResult = {
    format: 'redcap',
    mode: 'add',
    dryRun: false,
    encoding: 'utf-8',
    rows: 12,
    indicators: 12,
    added: 12,
    changed: 0,
    unchanged: 0,
    outcomes: [],
    errors: [],
    errorsTotal: 0,
    templates: 2,
    unmapped: [],
    unmappedTotal: 0,
  }
  const file = () => new File(['Variable / Field Name,Form Name\n'], 'dict.csv', { type: 'text/csv' })

  it('asks for a file, uploads it, toasts the counts and reloads indicators, diseases and templates', async () => {
    const f = file()
    const ctx = testContext({ lang: 'en', ui: { pickFile: () => Promise.resolve(f) }, api: { upload: answer(result) } })
    await expect(run('dictionary.import', ctx)).resolves.toEqual({ ok: true })
    expect(ctx.ui.pickFile).toHaveBeenCalledWith(expect.stringContaining('.xlsx'))
    expect(ctx.api.upload).toHaveBeenCalledWith(dictionaryPaths.import, f, {
      format: undefined,
      diseaseId: undefined,
      mode: 'add',
      dryRun: undefined,
    })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Imported — indicators: 12, forms: 2', 'success')
    expect(ctx.invalidate.mock.calls.map((c) => c[0]).sort()).toEqual(['diseases', 'indicators', 'templates'])
  })

  it('does nothing when the file chooser is cancelled', async () => {
    const ctx = testContext()
    await run('dictionary.import', ctx)
    expect(calledEffects(ctx)).toEqual([])
  })

  it('warns about what had no equivalent, in English plurals, from the palette', async () => {
    const withUnmapped = {
      ...result,
      templates: 0,
      unmappedTotal: 3,
      unmapped: [{ row: 4, code: 'bmi', column: 'Field Type', value: 'calc', message: 'kept as text' }],
    }
    const ctx = testContext({ lang: 'en', api: { upload: answer(withUnmapped) } })
    await run('dictionary.import', ctx, { file: file(), format: 'redcap', diseaseId: 3 })
    expect(ctx.ui.pickFile).not.toHaveBeenCalled()
    expect(ctx.api.upload).toHaveBeenCalledWith(dictionaryPaths.import, expect.any(File), {
      format: 'redcap',
      diseaseId: 3,
      mode: 'add',
      dryRun: undefined,
    })
    expect(ctx.ui.toast).toHaveBeenCalledWith(
      'Imported — indicators: 12, forms: 0 3 items have no equivalent here and were kept as written',
      'warning',
    )
    const one = testContext({ lang: 'en', api: { upload: answer({ ...withUnmapped, unmappedTotal: 1 }) } })
    await run('dictionary.import', one, { file: file() })
    expect(one.ui.toast).toHaveBeenCalledWith(
      'Imported — indicators: 12, forms: 0 1 item has no equivalent here and was kept as written',
      'warning',
    )
    expect(ctx.invalidate.mock.calls.map((c) => c[0]).sort()).toEqual(['diseases', 'indicators'])
  })

  it('with the dialog listening: the preview writes nothing and reloads nothing, the dialog shows it, no toast repeats it', async () => {
    const preview = { ...result, mode: 'upsert' as const, dryRun: true, added: 1, changed: 2, unchanged: 9 }
    const done = vi.fn()
    const ctx = testContext({ lang: 'en', api: { upload: answer(preview) } })
    await run('dictionary.import', ctx, { file: file(), mode: 'upsert', dryRun: true, listener: { done, refused: vi.fn() } })
    expect(ctx.api.upload).toHaveBeenCalledWith(dictionaryPaths.import, expect.any(File), {
      format: undefined,
      diseaseId: undefined,
      mode: 'upsert',
      dryRun: 'true',
    })
    expect(done).toHaveBeenCalledWith(preview)
    expect(ctx.invalidate).not.toHaveBeenCalled()
    expect(ctx.ui.toast).not.toHaveBeenCalled()

    const applied = testContext({ lang: 'en', api: { upload: answer({ ...preview, dryRun: false }) } })
    await run('dictionary.import', applied, { file: file(), mode: 'upsert', listener: { done: vi.fn(), refused: vi.fn() } })
    expect(applied.invalidate.mock.calls.map((c) => c[0]).sort()).toEqual(['diseases', 'indicators', 'templates'])
    expect(applied.ui.toast).not.toHaveBeenCalled()
  })

  it('says how many errors, hands the rows to the dialog and reloads nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const failure: ImportFailureData = {
      errors: [
        { row: 3, column: 'code', field: 'code', message: 'BP已存在' },
        { row: 5, column: 'minimum', field: 'minimum', message: '最小值9不能大于最大值1' },
      ],
      total: 2,
    }
    const refused = vi.fn()
    const ctx = testContext({ lang: 'zh', api: { upload: () => Promise.reject(apiError('导入失败', failure)) } })
    const r = await run('dictionary.import', ctx, { file: file(), listener: { done: vi.fn(), refused } })
    expect(r).toMatchObject({ ok: false, reason: 'failed' })
    expect(refused).toHaveBeenCalledWith(failure)
    expect(ctx.ui.toast).toHaveBeenCalledWith('导入失败：2 处错误，未写入任何数据', 'danger')
    const en = testContext({ lang: 'en', api: { upload: () => Promise.reject(apiError('failed', { ...failure, total: 1 })) } })
    await run('dictionary.import', en, { file: file(), listener: { done: vi.fn(), refused: vi.fn() } })
    expect(en.ui.toast).toHaveBeenCalledWith('Import refused: 1 error, nothing was written', 'danger')
    expect(ctx.invalidate).not.toHaveBeenCalled()
  })

  it('says a refusal once: the server’s message the API client already showed is not repeated', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const failure: ImportFailureData = { errors: [{ row: 3, column: 'code', field: 'code', message: 'BP已存在' }], total: 1 }
    const refused = vi.fn()
    const shown = Object.assign(apiError('导入失败：1 行有错误', failure), { shown: true })
    const ctx = testContext({ api: { upload: () => Promise.reject(shown) } })
    await expect(run('dictionary.import', ctx, { file: file(), listener: { done: vi.fn(), refused } })).resolves.toMatchObject({
      ok: false,
      error: shown,
    })
    expect(refused).toHaveBeenCalledWith(failure)
    expect(ctx.ui.toast).not.toHaveBeenCalled()

    const status = testContext({ answer: () => Promise.reject(Object.assign(new Error('指标不存在：3'), { shown: true })) })
    await run('dictionary.setIndicatorStatus', status, { id: 3, status: 1 })
    expect(status.ui.toast).not.toHaveBeenCalled()
  })

  it('passes on a failure without a report (a file too large) as it came', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = testContext({ api: { upload: () => Promise.reject(apiError('请求体过大')) } })
    await run('dictionary.import', ctx, { file: file() })
    expect(ctx.ui.toast).toHaveBeenCalledWith('请求体过大', 'danger')
  })

  it('exports xlsx by default, or the chosen format with the list’s filters', async () => {
    const ctx = testContext()
    await run('dictionary.export', ctx)
    expectOnly(ctx, 'api.download')
    expect(ctx.api.download).toHaveBeenCalledWith(dictionaryPaths.export, { format: 'xlsx' })
    await run('dictionary.export', ctx, { format: 'redcap', filters: { diseaseId: 2, status: 1, q: 'BP' } })
    expect(ctx.api.download).toHaveBeenLastCalledWith(dictionaryPaths.export, { format: 'redcap', diseaseId: 2, status: 1, q: 'BP' })
  })

  it('refuses an unknown export format', async () => {
    const ctx = testContext()
    await expect(run('dictionary.export', ctx, { format: 'pdf' })).resolves.toMatchObject({ ok: false, reason: 'badArgs' })
    expect(ctx.api.download).not.toHaveBeenCalled()
  })
})
