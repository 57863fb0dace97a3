import { describe, expect, it } from 'vitest'
import type { Lang, Size } from '../../commands/context.ts'
import { languageCommands, sizeCommands, sizes, toggleFullscreen, toggleSidebar } from '../../commands/view.ts'
import { execute, getCommand, isAvailable, isEnabled } from '../../commands/registry.ts'
import { calledEffects, expectOnly, testContext } from './context.ts'

const langs: readonly Lang[] = ['zh', 'en']

describe('language commands', () => {
  it('there is one per language', () => {
    expect(languageCommands.map((c) => c.id)).toEqual(['view.lang.zh', 'view.lang.en'])
  })

  it.each([
    ['zh', 'en', 'Switch Language Success'],
    ['en', 'zh', '切换语言成功'],
  ] as const)('from %s, view.lang.%s switches and toasts in the new language', async (from, to, message) => {
    const ctx = testContext({ lang: from })
    await expect(execute(getCommand(`view.lang.${to}`), ctx, 'palette')).resolves.toEqual({ ok: true })
    expect(ctx.settings.setLang).toHaveBeenCalledWith(to)
    expect(ctx.ui.toast).toHaveBeenCalledWith(message, 'success')
    expectOnly(ctx, 'settings.setLang', 'ui.toast')
    // The switch happened before the toast was written.
    expect(ctx.settings.setLang.mock.invocationCallOrder[0]).toBeLessThan(ctx.ui.toast.mock.invocationCallOrder[0] ?? 0)
  })

  it('waits for a dictionary still being fetched: the toast speaks English once English is current', async () => {
    let arrive = () => {}
    const ctx = testContext({
      lang: 'zh',
      settings: {
        setLang: (lang: Lang) =>
          new Promise<void>((resolve) => {
            arrive = () => {
              ctx.lang = lang
              resolve()
            }
          }),
      },
    })
    const run = execute(getCommand('view.lang.en'), ctx, 'palette')
    await Promise.resolve()
    expect(ctx.ui.toast).not.toHaveBeenCalled()
    arrive()
    await expect(run).resolves.toEqual({ ok: true })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Switch Language Success', 'success')
  })

  it.each(langs)('view.lang.%s is shown but disabled in that language, and does nothing', async (lang) => {
    const ctx = testContext({ lang })
    const command = getCommand(`view.lang.${lang}`)
    expect(isAvailable(command, ctx)).toBe(true)
    expect(isEnabled(command, ctx)).toBe(false)
    await expect(execute(command, ctx, 'menu')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })

  it.each(langs)('view.lang.%s is available on the sign-in page (signed out)', async (lang) => {
    const ctx = testContext({ signedIn: false, lang: lang === 'zh' ? 'en' : 'zh' })
    await expect(execute(getCommand(`view.lang.${lang}`), ctx, 'menu')).resolves.toEqual({ ok: true })
    expect(ctx.settings.setLang).toHaveBeenCalledWith(lang)
  })
})

describe('size commands', () => {
  it('there is one per size: default, medium, small, mini', () => {
    expect(sizes).toEqual(['default', 'medium', 'small', 'mini'])
    expect(sizeCommands.map((c) => c.id)).toEqual(['view.size.default', 'view.size.medium', 'view.size.small', 'view.size.mini'])
  })

  const others = (size: Size): Size => (size === 'mini' ? 'default' : 'mini')

  it.each(sizes.map((s) => [s] as const))('view.size.%s sets the size and toasts Switch Size Success', async (size) => {
    const ctx = testContext({ lang: 'en', size: others(size) })
    await expect(execute(getCommand(`view.size.${size}`), ctx, 'menu')).resolves.toEqual({ ok: true })
    expect(ctx.settings.setSize).toHaveBeenCalledWith(size)
    expect(ctx.ui.toast).toHaveBeenCalledWith('Switch Size Success', 'success')
    expectOnly(ctx, 'settings.setSize', 'ui.toast')
  })

  it('speaks Chinese in Chinese', async () => {
    const ctx = testContext({ lang: 'zh', size: 'default' })
    await execute(getCommand('view.size.small'), ctx, 'menu')
    expect(ctx.ui.toast).toHaveBeenCalledWith('切换大小成功', 'success')
  })

  it.each(sizes.map((s) => [s] as const))('view.size.%s is disabled in that size and does nothing', async (size) => {
    const ctx = testContext({ size })
    const command = getCommand(`view.size.${size}`)
    expect(isAvailable(command, ctx)).toBe(true)
    expect(isEnabled(command, ctx)).toBe(false)
    await expect(execute(command, ctx, 'menu')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })
})

describe('view.toggleSidebar', () => {
  it('toggles the sidebar', async () => {
    const ctx = testContext()
    await expect(execute(toggleSidebar, ctx, 'button')).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'settings.toggleSidebar')
  })

  it('is hidden and inert when signed out', async () => {
    const ctx = testContext({ signedIn: false })
    expect(isAvailable(toggleSidebar, ctx)).toBe(false)
    await expect(execute(toggleSidebar, ctx, 'hotkey')).resolves.toEqual({ ok: false, reason: 'unavailable' })
    expect(calledEffects(ctx)).toEqual([])
  })
})

describe('view.toggleFullscreen', () => {
  it('toggles fullscreen without a word where the browser can', async () => {
    const ctx = testContext()
    await expect(execute(toggleFullscreen, ctx, 'button')).resolves.toEqual({ ok: true })
    expectOnly(ctx, 'settings.toggleFullscreen')
  })

  it.each([
    ['en', 'you browser can not work'],
    ['zh', '您的浏览器不支持全屏'],
  ] as const)('warns (SPEC text) where the browser cannot, in %s', async (lang, message) => {
    const ctx = testContext({ lang, settings: { toggleFullscreen: () => false } })
    await expect(execute(toggleFullscreen, ctx, 'button')).resolves.toEqual({ ok: true })
    expect(ctx.ui.toast).toHaveBeenCalledWith(message, 'warning')
    expectOnly(ctx, 'settings.toggleFullscreen', 'ui.toast')
  })
})
