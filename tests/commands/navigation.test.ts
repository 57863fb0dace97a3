import { describe, expect, it } from 'vitest'
import { screens } from '../../contract/screens.ts'
import { goToCommands, openPalette } from '../../commands/navigation.ts'
import { commands, execute, getCommand, isAvailable } from '../../commands/registry.ts'
import { calledEffects, expectOnly, testContext } from './context.ts'

const menuScreens = screens.filter((s) => !s.hidden)

describe('go-to commands', () => {
  it('there is exactly one per screen with a menu entry, and none for hidden screens', () => {
    expect(goToCommands.map((c) => c.id).sort()).toEqual(menuScreens.map((s) => `go.${s.name}`).sort())
    for (const s of screens.filter((x) => x.hidden))
      expect(
        commands.some((c) => c.id === `go.${s.name}`),
        s.name,
      ).toBe(false)
    expect(menuScreens.length).toBeGreaterThan(20)
  })

  it.each(menuScreens.map((s) => [s.name, s.path, s.title] as const))('go.%s navigates to %s', async (name, path, title) => {
    const command = getCommand(`go.${name}`)
    expect(command.title).toBe(title)
    expect(command.section).toBe('navigation')
    const ctx = testContext()
    await expect(execute(command, ctx, 'test')).resolves.toEqual({ ok: true })
    expect(ctx.navigate).toHaveBeenCalledWith(path)
    expectOnly(ctx, 'navigate')
  })

  it.each(menuScreens.map((s) => [s.name] as const))('go.%s is hidden and inert when signed out', async (name) => {
    const command = getCommand(`go.${name}`)
    const ctx = testContext({ signedIn: false })
    expect(isAvailable(command, ctx)).toBe(false)
    await expect(execute(command, ctx, 'test')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })

  it('the ten most used screens have Alt+0 … Alt+9, each digit once', () => {
    const keys = goToCommands.flatMap((c) => (c.hotkey ? [c.hotkey] : [])).sort()
    expect(keys).toEqual(['alt+0', 'alt+1', 'alt+2', 'alt+3', 'alt+4', 'alt+5', 'alt+6', 'alt+7', 'alt+8', 'alt+9'])
    expect(getCommand('go.dashboard').hotkey).toBe('alt+0')
    expect(getCommand('go.multiList').hotkey).toBe('alt+1')
  })
})

describe('palette.open', () => {
  it('opens the palette', async () => {
    const ctx = testContext()
    await expect(execute(openPalette, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'ui.openPalette')
  })

  it('answers Ctrl+K / ⌘K and Ctrl+Shift+P / ⌘⇧P', () => {
    const chords = (openPalette.hotkey ?? '').split(',').map((k) => k.trim())
    expect(chords).toEqual(expect.arrayContaining(['ctrl+k', 'command+k', 'ctrl+shift+p', 'command+shift+p']))
  })

  it('is hidden and inert when signed out', async () => {
    const ctx = testContext({ signedIn: false })
    await expect(execute(openPalette, ctx, 'hotkey')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })
})

describe('go-to commands and the screens a user may open', () => {
  it('offers only the screens the user’s roles grant', () => {
    const ctx = testContext({ screens: ['dashboard', 'multiList', 'patientList'] })
    const offered = goToCommands.filter((c) => isAvailable(c, ctx)).map((c) => c.id)
    expect(offered).toEqual(['go.dashboard', 'go.multiList', 'go.patientList'])
  })
})
