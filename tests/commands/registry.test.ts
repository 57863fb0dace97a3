import hotkeys from 'hotkeys-js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Refusal, defineCommand, type AnyCommand } from '../../commands/define.ts'
import { commands, execute, getCommand, hotkeyLabel, isAvailable, isEnabled, needsArgs } from '../../commands/registry.ts'
import { hasKey, langs, translate } from '../../src/i18n/index.ts'
import { calledEffects, testContext } from './context.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

/**
 * The shell's own commands. The commands of an area (dictionary, templates) need a route or a
 * screen's door and arguments of their own: each area tests them in its own file
 * (tests/commands/dictionary.test.ts, …); the registry-wide checks above and below still cover
 * their ids, titles, hotkeys and signed-out state.
 */
const areaSections: readonly string[] = ['dictionary', 'templates', 'admin', 'audit', 'project', 'subject']
const shellCommands = commands.filter((c) => !areaSections.includes(c.section))

describe('the registry', () => {
  it('every command id is unique and getCommand finds it', () => {
    const ids = commands.map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const c of commands) expect(getCommand(c.id)).toBe(c)
    expect(() => getCommand('no.such.command')).toThrow(/unknown command/)
  })

  it('holds every command the issue asks for', () => {
    const ids = new Set(commands.map((c) => c.id))
    for (const id of [
      'palette.open',
      'view.lang.zh',
      'view.lang.en',
      'view.size.default',
      'view.size.medium',
      'view.size.small',
      'view.size.mini',
      'view.toggleSidebar',
      'view.toggleFullscreen',
      'account.changePassword',
      'account.logout',
      'workspace.closeTab',
      'workspace.closeOthers',
      'workspace.closeAll',
      'workspace.splitRight',
      'workspace.splitDown',
      'workspace.focusNext',
      'workspace.focusPrevious',
      'workspace.reopenClosed',
      'workspace.showTab',
      'workspace.openToSide',
      'help.shortcuts',
    ])
      expect(ids.has(id), id).toBe(true)
  })

  it.each(langs.map((l) => [l] as const))('every title and section has a %s text', (lang) => {
    const missing: string[] = []
    for (const c of commands) {
      for (const key of [c.title, `section.${c.section}`]) {
        if (!hasKey(key, lang) || translate(lang, key) === key) missing.push(`${c.id}: ${key}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('titles differ between languages where they should, and no two commands share a title', () => {
    for (const lang of langs) {
      const titles = commands.map((c) => translate(lang, c.title))
      expect(new Set(titles).size, lang).toBe(titles.length)
    }
    expect(translate('en', 'command.logout')).toBe('Log out')
    expect(translate('zh', 'command.logout')).not.toBe('Log out')
  })
})

describe('hotkeys', () => {
  const modifiers = hotkeys.modifier
  const keyMap = hotkeys.keyMap

  /** hotkeys-js's own splitting (getKeys): no spaces, comma-separated chords, '+'-joined keys. */
  function chords(hotkey: string): string[] {
    return hotkey.replace(/\s/g, '').split(',')
  }

  /** A chord as hotkeys-js sees it: the set of modifier codes and the key code; null if unparsable. */
  function parse(chord: string): string | null {
    const parts = chord.split('+')
    const key = parts.pop() ?? ''
    const mods: number[] = []
    for (const m of parts) {
      const code = modifiers[m.toLowerCase()]
      if (code === undefined || mods.includes(code)) return null
      mods.push(code)
    }
    const code = keyMap[key.toLowerCase()] ?? (/^[a-z0-9]$/i.test(key) ? key.toUpperCase().charCodeAt(0) : undefined)
    if (code === undefined) return null
    return `${mods.sort((a, b) => a - b).join('+')}|${code}`
  }

  const bound = commands.filter((c): c is AnyCommand & { hotkey: string } => typeof c.hotkey === 'string')

  it('the parser refuses what hotkeys-js would misread', () => {
    expect(parse('ctrl+k')).not.toBeNull()
    expect(parse('ctrl+\\')).not.toBeNull()
    expect(parse('ctl+k')).toBeNull()
    expect(parse('ctrl+kk')).toBeNull()
    expect(parse('ctrl+')).toBeNull()
    expect(parse('shift+shift+a')).toBeNull()
    expect(parse('command+k')).toBe(parse('cmd+k'))
  })

  it('every hotkey parses, chord by chord', () => {
    expect(bound.length).toBeGreaterThan(15)
    const bad = bound.flatMap((c) =>
      chords(c.hotkey)
        .filter((k) => parse(k) === null)
        .map((k) => `${c.id}: ${k}`),
    )
    expect(bad).toEqual([])
  })

  /** Save is Ctrl+S wherever something is saved: each of these applies only while its own view has the focus. */
  const sharedSave = new Set(['templates.saveLayout', 'dataEntry.saveForm'])

  it('no key chord is bound twice, across commands or within one', () => {
    const owner = new Map<string, string>()
    const twice: string[] = []
    for (const c of bound) {
      for (const chord of chords(c.hotkey)) {
        const key = parse(chord) ?? chord
        const previous = owner.get(key)
        if (previous !== undefined && !(sharedSave.has(previous) && sharedSave.has(c.id))) twice.push(`${chord}: ${previous} and ${c.id}`)
        owner.set(key, c.id)
      }
    }
    expect(twice).toEqual([])
  })

  it('hotkeyLabel shows the platform variant', () => {
    expect(hotkeyLabel('ctrl+k, command+k', false)).toBe('Ctrl+K')
    expect(hotkeyLabel('ctrl+k, command+k', true)).toBe('⌘K')
    expect(hotkeyLabel('ctrl+shift+p, command+shift+p', false)).toBe('Ctrl+Shift+P')
    expect(hotkeyLabel('alt+shift+q', false)).toBe('Alt+Shift+Q')
    expect(hotkeyLabel('alt+shift+q', true)).toBe('⌥⇧Q')
    expect(hotkeyLabel('alt+1', false)).toBe('Alt+1')
    expect(hotkeyLabel('shift+/', false)).toBe('Shift+/')
    expect(hotkeyLabel('ctrl+\\, command+\\', false)).toBe('Ctrl+\\')
    expect(hotkeyLabel('ctrl+\\, command+\\', true)).toBe('⌘\\')
  })

  it('the palette command shows Ctrl+K off a Mac and ⌘K on one', () => {
    const palette = getCommand('palette.open')
    expect(hotkeyLabel(palette.hotkey ?? '', false)).toBe('Ctrl+K')
    expect(hotkeyLabel(palette.hotkey ?? '', true)).toBe('⌘K')
  })

  it('every hotkey has a label on both platforms', () => {
    for (const c of bound) {
      for (const mac of [false, true]) expect(hotkeyLabel(c.hotkey, mac), `${c.id} mac=${mac}`).toMatch(/\S/)
    }
  })
})

describe('when: signed out', () => {
  const publicIds = [
    'view.lang.zh',
    'view.lang.en',
    'view.size.default',
    'view.size.medium',
    'view.size.small',
    'view.size.mini',
    'view.toggleFullscreen',
    'help.shortcuts',
  ]

  it('only the commands of the sign-in page remain (language, size, fullscreen, shortcuts)', () => {
    const ctx = testContext({ signedIn: false })
    expect(
      commands
        .filter((c) => isAvailable(c, ctx))
        .map((c) => c.id)
        .sort(),
    ).toEqual([...publicIds].sort())
  })

  it('every other command is refused as unavailable and does nothing', async () => {
    for (const command of commands.filter((c) => !publicIds.includes(c.id))) {
      const ctx = testContext({ signedIn: false })
      await expect(execute(command, ctx, 'hotkey'), command.id).resolves.toEqual({ ok: false, reason: 'unavailable' })
      expect(calledEffects(ctx), command.id).toEqual([])
    }
  })

  it('signed in, with two tabs, two panes and a closed tab, every command is shown', () => {
    const ctx = testContext({ lang: 'zh', size: 'default' })
    expect(shellCommands.filter((c) => !isAvailable(c, ctx)).map((c) => c.id)).toEqual([])
    expect(
      shellCommands
        .filter((c) => !isEnabled(c, ctx))
        .map((c) => c.id)
        .sort(),
    ).toEqual(['view.lang.zh', 'view.size.default'])
  })
})

describe('every command runs through execute', () => {
  /** What each command does to the world; a new command fails here until it is listed. */
  const effectOf = (id: string): string[] => {
    if (id.startsWith('go.')) return ['navigate']
    if (id.startsWith('view.lang.')) return ['settings.setLang', 'ui.toast']
    if (id.startsWith('view.size.')) return ['settings.setSize', 'ui.toast']
    const table: Record<string, string[]> = {
      'palette.open': ['ui.openPalette'],
      'view.toggleSidebar': ['settings.toggleSidebar'],
      'view.toggleFullscreen': ['settings.toggleFullscreen'],
      'account.changePassword': ['ui.openChangePassword'],
      'account.logout': ['session.logout'],
      'workspace.closeTab': ['panes.close'],
      'workspace.closeOthers': ['panes.closeOthers'],
      'workspace.closeAll': ['panes.closeAll'],
      'workspace.splitRight': ['panes.split'],
      'workspace.splitDown': ['panes.split'],
      'workspace.focusNext': ['panes.focusNext'],
      'workspace.focusPrevious': ['panes.focusPrevious'],
      'workspace.reopenClosed': ['panes.reopenClosed'],
      'workspace.showTab': ['panes.show'],
      'workspace.openToSide': ['panes.openToSide'],
      'help.shortcuts': ['ui.openShortcuts'],
    }
    const effect = table[id]
    if (!effect) throw new Error(`no expected effect listed for ${id}`)
    return effect
  }

  it.each(shellCommands.map((c) => [c.id, c] as const))('%s has exactly its effect', async (_id, command) => {
    // A language and a size other than the command's own, so that it is enabled.
    const ctx = testContext({
      lang: command.id === 'view.lang.en' ? 'zh' : 'en',
      size: command.id === 'view.size.mini' ? 'small' : 'mini',
    })
    const args = needsArgs(command) ? { path: '/data/list' } : undefined
    await expect(execute(command, ctx, 'test', args)).resolves.toEqual({ ok: true })
    expect(calledEffects(ctx)).toEqual([...effectOf(command.id)].sort())
  })

  it('only the tab click and open-to-the-side need an argument (the palette cannot give one)', () => {
    expect(
      shellCommands
        .filter(needsArgs)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['workspace.openToSide', 'workspace.showTab'])
  })

  it.each(commands.filter(needsArgs).map((c) => [c.id, c] as const))(
    '%s without its argument is refused and does nothing but toast',
    async (_id, command) => {
      const ctx = testContext({ lang: 'en' })
      await expect(execute(command, ctx, 'palette')).resolves.toMatchObject({ ok: false, reason: 'badArgs' })
      expect(ctx.ui.toast).toHaveBeenCalledWith(`Invalid arguments for the command "${translate('en', command.title)}"`, 'danger')
      expect(calledEffects(ctx)).toEqual(['ui.toast'])
    },
  )
})

describe('failures', () => {
  const failing = (run: () => void | Promise<void>): AnyCommand =>
    defineCommand({ id: 'test.failing', title: 'command.logout', section: 'help', run })

  it('a run that throws ends in a danger toast with its message and { ok:false, reason:failed }', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const boom = new Error('boom')
    const ctx = testContext()
    const result = await execute(
      failing(() => {
        throw boom
      }),
      ctx,
      'test',
    )
    expect(result).toEqual({ ok: false, reason: 'failed', error: boom })
    expect(ctx.ui.toast).toHaveBeenCalledWith('boom', 'danger')
    expect(calledEffects(ctx)).toEqual(['ui.toast'])
    expect(log).toHaveBeenCalledTimes(1)
    expect(String(log.mock.calls[0]?.[0])).toContain('test.failing')
  })

  it('a refusal the command makes (no project chosen) is toasted but not logged as a failure', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = testContext({ lang: 'en', path: '/dashboard' })
    const result = await execute(getCommand('dataLoad.open'), ctx, 'palette')
    expect(result).toMatchObject({ ok: false, reason: 'failed' })
    expect((result as { error?: unknown }).error).toBeInstanceOf(Refusal)
    expect(ctx.ui.toast).toHaveBeenCalledWith('Choose a project first', 'danger')
    expect(log).not.toHaveBeenCalled()
  })

  it('a refusal the API client already showed and logged is neither toasted nor logged again', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const refusal = Object.assign(new Error('指标不存在'), { shown: true })
    const ctx = testContext()
    const result = await execute(
      failing(() => Promise.reject(refusal)),
      ctx,
      'test',
    )
    expect(result).toEqual({ ok: false, reason: 'failed', error: refusal })
    expect(ctx.ui.toast).not.toHaveBeenCalled()
    expect(log).not.toHaveBeenCalled()
  })

  it('a run that rejects never rejects execute', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = testContext()
    const promise = execute(
      failing(() => Promise.reject(new Error('later'))),
      ctx,
      'palette',
    )
    await expect(promise).resolves.toMatchObject({ ok: false, reason: 'failed' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('later', 'danger')
  })

  it.each([
    ['zh', '未知错误'],
    ['en', 'Unknown error'],
  ] as const)('something thrown without a message toasts the unknown error in %s', async (lang, message) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = testContext({ lang })
    for (const thrown of ['a string', undefined, new Error('')]) {
      ctx.ui.toast.mockClear()
      const result = await execute(
        failing(() => {
          throw thrown
        }),
        ctx,
        'test',
      )
      expect(result).toMatchObject({ ok: false, reason: 'failed' })
      expect(ctx.ui.toast).toHaveBeenCalledWith(message, 'danger')
    }
  })

  it('a real command whose door throws fails the same way', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = testContext({
      navigate: () => {
        throw new Error('router gone')
      },
    })
    await expect(execute(getCommand('go.dashboard'), ctx, 'hotkey')).resolves.toMatchObject({ ok: false, reason: 'failed' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('router gone', 'danger')
  })
})

describe('permissions: a command the user’s roles do not grant', () => {
  it('is unavailable and inert from every source, and available once granted', async () => {
    const guarded = commands.filter((c) => c.permission)
    expect(guarded.length).toBeGreaterThanOrEqual(20)
    const none = testContext({ grants: [] })
    for (const c of guarded) {
      expect(isAvailable(c, none), c.id).toBe(false)
      expect(await execute(c, none, 'hotkey'), c.id).toEqual({ ok: false, reason: 'unavailable' })
    }
    expect(calledEffects(none)).toEqual([])
    // Those that apply everywhere come back with their one grant.
    for (const c of guarded.filter((g) => !g.when)) expect(isAvailable(c, testContext({ grants: [c.permission!] })), c.id).toBe(true)
  })

  it('keeps the dictionary’s writing commands from a user who may only read it', () => {
    const reader = testContext({ grants: ['dictionary.view', 'template.view'] })
    expect(isAvailable(getCommand('dictionary.findIndicator'), reader)).toBe(true)
    for (const id of [
      'dictionary.newIndicator',
      'dictionary.deleteIndicator',
      'dictionary.import',
      'templates.newCrf',
      'templates.publish',
    ]) {
      expect(isAvailable(getCommand(id), reader), id).toBe(false)
    }
  })
})
