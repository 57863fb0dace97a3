import { describe, expect, it, vi } from 'vitest'
import { changePassword, logout } from '../../commands/account.ts'
import { showShortcuts } from '../../commands/help.ts'
import { execute, isAvailable } from '../../commands/registry.ts'
import { calledEffects, expectOnly, testContext } from './context.ts'

describe('account.changePassword', () => {
  it('opens the change password dialog', async () => {
    const ctx = testContext()
    await expect(execute(changePassword, ctx, 'menu')).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'ui.openChangePassword')
  })

  it('is hidden and inert when signed out', async () => {
    const ctx = testContext({ signedIn: false })
    expect(isAvailable(changePassword, ctx)).toBe(false)
    await expect(execute(changePassword, ctx, 'menu')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })
})

describe('account.logout', () => {
  it('logs out through the session and waits for it', async () => {
    let finished = false
    const ctx = testContext({
      session: {
        logout: async () => {
          await new Promise((resolve) => setTimeout(resolve, 5))
          finished = true
        },
      },
    })
    await expect(execute(logout, ctx, 'menu')).resolves.toEqual({ ok: true })
    expect(finished).toBe(true)
    expectOnly(ctx, 'session.logout')
  })

  it('a failing logout ends in a toast with its message, not a rejection', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = testContext({ session: { logout: () => Promise.reject(new Error('network down')) } })
    const result = await execute(logout, ctx, 'menu')
    expect(result).toMatchObject({ ok: false, reason: 'failed' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('network down', 'danger')
    expect(log).toHaveBeenCalledTimes(1)
    log.mockRestore()
  })

  it('is hidden and inert when signed out', async () => {
    const ctx = testContext({ signedIn: false })
    expect(isAvailable(logout, ctx)).toBe(false)
    await expect(execute(logout, ctx, 'hotkey')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })
})

describe('help.shortcuts', () => {
  it('opens the keyboard shortcut sheet', async () => {
    const ctx = testContext()
    await expect(execute(showShortcuts, ctx, 'hotkey')).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'ui.openShortcuts')
  })

  it('answers ? (shift+/)', () => {
    expect(showShortcuts.hotkey).toBe('shift+/')
  })
})
