import { describe, expect, it } from 'vitest'
import {
  closeAllTabs,
  closeOtherTabs,
  closeTab,
  focusNextPane,
  focusPreviousPane,
  openToSide,
  reopenClosedTab,
  showTab,
  splitDown,
  splitRight,
  workspaceCommands,
} from '../../commands/workspace.ts'
import type { AnyCommand } from '../../commands/define.ts'
import { execute, isAvailable } from '../../commands/registry.ts'
import { translate } from '../../src/i18n/index.ts'
import { calledEffects, expectOnly, tab, testContext } from './context.ts'

describe('close tab', () => {
  it('closes the focused tab without an argument', async () => {
    const ctx = testContext()
    await expect(execute(closeTab, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expect(ctx.panes.close).toHaveBeenCalledWith(undefined)
    expectOnly(ctx, 'panes.close')
  })

  it('closes the named tab with a path argument', async () => {
    const ctx = testContext()
    await expect(execute(closeTab, ctx, 'button', { path: '/data/list' })).resolves.toEqual({ ok: true })
    expect(ctx.panes.close).toHaveBeenCalledWith('/data/list')
    expectOnly(ctx, 'panes.close')
  })

  it.each([['x'], [42], [{ path: 42 }]])('refuses the argument %j with a toast and no effect', async (bad) => {
    const ctx = testContext({ lang: 'en' })
    const result = await execute(closeTab, ctx, 'button', bad)
    expect(result).toMatchObject({ ok: false, reason: 'badArgs' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Invalid arguments for the command "Close tab"', 'danger')
    expectOnly(ctx, 'ui.toast')
  })
})

describe.each([
  [showTab, 'panes.show'],
  [openToSide, 'panes.openToSide'],
] as const)('$0.id', (command, effect) => {
  it(`runs ${effect} with the path`, async () => {
    const ctx = testContext()
    await expect(execute(command, ctx, 'button', { path: '/data/search' })).resolves.toEqual({ ok: true })
    expect(effect === 'panes.show' ? ctx.panes.show : ctx.panes.openToSide).toHaveBeenCalledWith('/data/search')
    expectOnly(ctx, effect)
  })

  it.each([[undefined], ['x'], ['/data/search'], [{ path: 'x' }], [{ path: 1 }], [{}]])(
    'refuses %j with badArgs, a toast and no effect',
    async (bad) => {
      const ctx = testContext({ lang: 'zh' })
      await expect(execute(command, ctx, 'button', bad)).resolves.toMatchObject({ ok: false, reason: 'badArgs' })
      expect(ctx.ui.toast).toHaveBeenCalledWith(`命令“${translate('zh', command.title)}”的参数无效`, 'danger')
      expectOnly(ctx, 'ui.toast')
    },
  )

  it('is hidden and inert when signed out', async () => {
    const ctx = testContext({ signedIn: false })
    await expect(execute(command, ctx, 'button', { path: '/data/search' })).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })
})

describe('close other tabs, close all tabs', () => {
  it('close others closes the others', async () => {
    const ctx = testContext()
    await expect(execute(closeOtherTabs, ctx, 'menu')).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'panes.closeOthers')
  })

  it('close all closes all', async () => {
    const ctx = testContext()
    await expect(execute(closeAllTabs, ctx, 'menu')).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'panes.closeAll')
  })

  it.each([closeOtherTabs, closeAllTabs].map((c) => [c.id, c] as const))(
    '%s does not apply when only affixed tabs are open',
    async (_id, command) => {
      const ctx = testContext({ panes: { tabs: [tab('/dashboard', true)] } })
      expect(isAvailable(command, ctx)).toBe(false)
      await expect(execute(command, ctx, 'menu')).resolves.toEqual({ ok: false, reason: 'unavailable' })
      expect(calledEffects(ctx)).toEqual([])
    },
  )
})

const splits = [
  [splitRight, 'row'],
  [splitDown, 'column'],
] as const

describe.each(splits.map(([c, d]) => [c.id, c, d] as const))('%s', (_id, command, direction) => {
  it(`puts the previous tab beside the focused pane (${direction}) without an argument`, async () => {
    const ctx = testContext()
    await expect(execute(command, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expect(ctx.panes.split).toHaveBeenCalledWith(direction, undefined)
    expectOnly(ctx, 'panes.split')
  })

  it(`puts the given path beside the focused pane (${direction})`, async () => {
    const ctx = testContext()
    await expect(execute(command, ctx, 'palette', { path: '/data/search' })).resolves.toEqual({ ok: true })
    expect(ctx.panes.split).toHaveBeenCalledWith(direction, '/data/search')
    expectOnly(ctx, 'panes.split')
  })

  it.each([['x'], [{ path: 'x' }], [{ path: '' }], [{ path: 7 }], [['/data/list']]])(
    'refuses the argument %j with badArgs, a toast and no split',
    async (bad) => {
      const ctx = testContext({ lang: 'en' })
      const result = await execute(command, ctx, 'palette', bad)
      expect(result).toMatchObject({ ok: false, reason: 'badArgs' })
      expect(ctx.ui.toast).toHaveBeenCalledWith(`Invalid arguments for the command "${translate('en', command.title)}"`, 'danger')
      expectOnly(ctx, 'ui.toast')
    },
  )

  it('does not apply with a single tab', async () => {
    const ctx = testContext({ panes: { tabs: [tab('/dashboard', true)], visibleCount: 1 } })
    expect(isAvailable(command, ctx)).toBe(false)
    await expect(execute(command, ctx, 'hotkey')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })

  it('applies with two tabs even when one pane shows', () => {
    expect(isAvailable(command, testContext({ panes: { tabs: [tab('/a'), tab('/b')], visibleCount: 1 } }))).toBe(true)
  })
})

describe.each([
  [focusNextPane, 'panes.focusNext'],
  [focusPreviousPane, 'panes.focusPrevious'],
] as const)('$0.id', (command, effect) => {
  it(`moves the focus (${effect})`, async () => {
    const ctx = testContext({ panes: { visibleCount: 2 } })
    await expect(execute(command, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expectOnly(ctx, effect)
  })

  it('does not apply with one pane on screen', async () => {
    const ctx = testContext({ panes: { visibleCount: 1 } })
    expect(isAvailable(command, ctx)).toBe(false)
    await expect(execute(command, ctx, 'hotkey')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })
})

describe('reopen closed tab', () => {
  it('reopens the last closed tab', async () => {
    const ctx = testContext({ panes: { canReopen: true } })
    await expect(execute(reopenClosedTab, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'panes.reopenClosed')
  })

  it('does not apply when nothing was closed', async () => {
    const ctx = testContext({ panes: { canReopen: false } })
    expect(isAvailable(reopenClosedTab, ctx)).toBe(false)
    await expect(execute(reopenClosedTab, ctx, 'hotkey')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })
})

describe('every workspace command', () => {
  const all: readonly AnyCommand[] = workspaceCommands

  it('is hidden and inert when signed out', async () => {
    for (const command of all) {
      const ctx = testContext({ signedIn: false })
      expect(isAvailable(command, ctx), command.id).toBe(false)
      await expect(execute(command, ctx, 'hotkey'), command.id).resolves.toEqual({ ok: false, reason: 'unavailable' })
      expect(calledEffects(ctx), command.id).toEqual([])
    }
  })

  it('those that act on open tabs are hidden and inert with no tab open', async () => {
    const onTabs = [closeTab, closeOtherTabs, closeAllTabs, splitRight, splitDown, focusNextPane, focusPreviousPane]
    for (const command of onTabs) {
      const ctx = testContext({ panes: { tabs: [], visibleCount: 0 } })
      expect(isAvailable(command, ctx), command.id).toBe(false)
      await expect(execute(command, ctx, 'hotkey'), command.id).resolves.toEqual({ ok: false, reason: 'unavailable' })
      expect(calledEffects(ctx), command.id).toEqual([])
    }
  })

  it('reopen, show and open to the side stay available with no tab open', () => {
    const ctx = testContext({ panes: { tabs: [], visibleCount: 0, canReopen: true } })
    for (const command of [reopenClosedTab, showTab, openToSide]) expect(isAvailable(command, ctx), command.id).toBe(true)
  })
})
