import { describe, expect, it, vi } from 'vitest'
import { auditPaths } from '../../contract/audit.ts'
import { auditView } from '../../commands/audit.ts'
import { execute, getCommand, isAvailable } from '../../commands/registry.ts'
import { calledEffects, offer, testContext } from './context.ts'

/** The audit log commands (issue 8 item 6), run through the registry as every entry point runs them. */

const auditLogAt = '/management/audit-log'
const indicatorAt = '/dataDictionary/fields?id=5'

describe('audit.open', () => {
  it('goes to the audit log, unfiltered', async () => {
    const ctx = testContext()
    await expect(execute(getCommand('audit.open'), ctx, 'palette')).resolves.toEqual({ ok: true })
    expect(ctx.navigate).toHaveBeenCalledWith(auditLogAt)
    expect(calledEffects(ctx)).toEqual(['navigate'])
  })

  it('needs a session', async () => {
    const ctx = testContext({ signedIn: false })
    await expect(execute(getCommand('audit.open'), ctx, 'palette')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })
})

describe('audit.exportCsv / audit.exportXlsx', () => {
  it('a button passes the filters it shows; headers in the user language', async () => {
    const ctx = testContext({ lang: 'en' })
    const filters = { action: 'template.', outcome: 'denied' as const, objectId: 5 }
    await expect(execute(getCommand('audit.exportCsv'), ctx, 'button', { filters })).resolves.toEqual({ ok: true })
    expect(ctx.api.download).toHaveBeenCalledWith(auditPaths.export, { format: 'csv', lang: 'en', ...filters })
    expect(calledEffects(ctx)).toEqual(['api.download'])
  })

  it('from the palette: the filters the focused audit log offers now', async () => {
    const shown = { username: 'ali*', from: '2031-01-01T00:00:00.000Z' }
    const ctx = testContext({ path: `${auditLogAt}?username=bob`, provides: [offer(auditView, shown)] })
    await execute(getCommand('audit.exportXlsx'), ctx, 'palette')
    expect(ctx.api.download).toHaveBeenCalledWith(auditPaths.export, { format: 'xlsx', lang: 'zh', ...shown })
  })

  it('an audit log pane that has not published yet: the filters of its path', async () => {
    const ctx = testContext({ path: `${auditLogAt}?objectType=indicator&objectId=7` })
    await execute(getCommand('audit.exportCsv'), ctx, 'hotkey')
    expect(ctx.api.download).toHaveBeenCalledWith(auditPaths.export, { format: 'csv', lang: 'zh', objectType: 'indicator', objectId: 7 })
  })

  it('elsewhere: the whole log', async () => {
    const ctx = testContext({ path: indicatorAt, record: { kind: 'indicator', id: 5, name: 'BP' } })
    await execute(getCommand('audit.exportCsv'), ctx, 'palette')
    expect(ctx.api.download).toHaveBeenCalledWith(auditPaths.export, { format: 'csv', lang: 'zh' })
  })

  it('filters the contract refuses are refused before any call', async () => {
    const ctx = testContext({ lang: 'en' })
    const result = await execute(getCommand('audit.exportCsv'), ctx, 'button', { filters: { outcome: 'maybe' } })
    expect(result).toMatchObject({ ok: false, reason: 'badArgs' })
    expect(calledEffects(ctx)).toEqual(['ui.toast'])
  })

  it('a refused download ends in a toast, not an unhandled rejection', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = testContext({
      lang: 'en',
      api: { download: () => Promise.reject(new Error('The start (from) must not be later than the end (to)')) },
    })
    await expect(execute(getCommand('audit.exportCsv'), ctx, 'button', { filters: {} })).resolves.toMatchObject({
      ok: false,
      reason: 'failed',
    })
    expect(ctx.ui.toast).toHaveBeenCalledWith('The start (from) must not be later than the end (to)', 'danger')
    log.mockRestore()
  })
})

describe('audit.recordHistory', () => {
  const history = getCommand('audit.recordHistory')

  it('opens the audit log of the focused record beside it', async () => {
    const ctx = testContext({ path: indicatorAt, record: { kind: 'indicator', id: 5, name: 'BP' } })
    expect(isAvailable(history, ctx)).toBe(true)
    await expect(execute(history, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expect(ctx.panes.openToSide).toHaveBeenCalledWith(`${auditLogAt}?objectType=indicator&objectId=5`)
    expect(calledEffects(ctx)).toEqual(['panes.openToSide'])
  })

  it('a CRF by its kind', async () => {
    const ctx = testContext({ path: '/dataDictionary/edit-crf-temp?id=9', record: { kind: 'crf', id: 9, name: 'Baseline' } })
    await execute(history, ctx, 'palette')
    expect(ctx.panes.openToSide).toHaveBeenCalledWith(`${auditLogAt}?objectType=crf&objectId=9`)
  })

  it('hidden and inert where the focused pane shows no record', async () => {
    const ctx = testContext({ path: '/dataDictionary/dictionaryList' })
    expect(isAvailable(history, ctx)).toBe(false)
    await expect(execute(history, ctx, 'hotkey')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })

  it('has its own hotkey', () => {
    expect(history.hotkey).toBe('alt+shift+h')
  })
})
