/**
 * The palette's matcher as a user meets it: the real commands, the real dictionaries, and the
 * entries built exactly as src/app/Palette.tsx builds them (title in the current language, the
 * other language's title as `alt`, keywords = zh title, en title, the command's keywords), ranked
 * by the palette's own rankEntries / paletteScore (src/ui/paletteRank.ts).
 */
import { describe, expect, it } from 'vitest'
import type { Lang } from '../../commands/context.ts'
import type { Section } from '../../commands/define.ts'
import { commands, isAvailable, isEnabled, needsArgs } from '../../commands/registry.ts'
import { translateIn } from '../../src/i18n/index.ts'
import { paletteScore, rankEntries, type PaletteEntry } from '../../src/ui/paletteRank.ts'
import { testContext } from '../commands/context.ts'

const sectionOrder: Section[] = [
  'navigation',
  'project',
  'subject',
  'dictionary',
  'templates',
  'admin',
  'audit',
  'workspace',
  'view',
  'account',
  'help',
]
const langs: readonly Lang[] = ['zh', 'en']

/** What the palette lists for a signed-in user with two tabs, two panes and a closed tab. */
function paletteEntries(lang: Lang): PaletteEntry[] {
  const ctx = testContext({ lang })
  return sectionOrder.flatMap((section) =>
    commands
      .filter((c) => c.section === section && c.id !== 'palette.open' && !needsArgs(c) && isAvailable(c, ctx))
      .map((c) => {
        const zh = translateIn('zh', c.title)
        const en = translateIn('en', c.title)
        return {
          id: c.id,
          section,
          title: translateIn(lang, c.title),
          alt: lang === 'zh' ? en : zh,
          keywords: [zh, en, ...(c.keywords ?? [])],
          hotkey: c.hotkey ?? null,
          disabled: !isEnabled(c, ctx),
        }
      }),
  )
}

/** The texts rankEntries scores for an entry. */
const textsOf = (e: PaletteEntry): string[] => [e.title, e.alt ?? '', ...e.keywords, e.id]

function scores(lang: Lang, search: string): Map<string, number> {
  return new Map(paletteEntries(lang).map((e) => [e.id, paletteScore(textsOf(e), search)]))
}

/** The ids the palette shows for `search`, in its order. */
const shown = (lang: Lang, search: string): string[] => rankEntries(paletteEntries(lang), search, 1000).map((e) => e.id)

describe.each(langs.map((l) => [l] as const))('with the interface in %s', (lang) => {
  it('the palette lists every command but its own and those that need an argument', () => {
    const ids = paletteEntries(lang).map((e) => e.id)
    // Commands of a screen's door (the CRF designer's) are hidden where that screen is not focused.
    const ctx = testContext({ lang })
    expect(ids).toHaveLength(
      commands.filter((c) => isAvailable(c, ctx)).length - 1 - commands.filter((c) => needsArgs(c) && isAvailable(c, ctx)).length,
    )
    for (const id of ['palette.open', 'workspace.showTab', 'workspace.openToSide']) expect(ids).not.toContain(id)
  })

  it.each([
    ['English', ['view.lang.en']],
    ['english', ['view.lang.en']],
    ['中文', ['view.lang.zh']],
    ['split', ['workspace.splitRight', 'workspace.splitDown']],
    ['split right', ['workspace.splitRight']],
    ['split down', ['workspace.splitDown']],
    ['分屏', ['workspace.splitRight', 'workspace.splitDown']],
    ['log out', ['account.logout']],
    ['Log Out', ['account.logout']],
    ['退出', ['account.logout']],
    ['password', ['account.changePassword']],
    ['密码', ['account.changePassword']],
    ['close all', ['workspace.closeAll']],
    ['fullscreen', ['view.toggleFullscreen']],
    ['全屏', ['view.toggleFullscreen']],
    ['shortcuts', ['help.shortcuts']],
    ['reopen', ['workspace.reopenClosed']],
    ['Single-center', ['go.singleList']],
  ] as const)('%j ranks %j first, above every other command', (search, expectedIds) => {
    const expected: readonly string[] = expectedIds
    const s = scores(lang, search)
    const top = Math.max(...s.values())
    expect(top).toBeGreaterThan(0)
    for (const id of expected) expect(s.get(id), id).toBe(top)
    for (const [id, score] of s) if (!expected.includes(id)) expect(score, id).toBeLessThan(top)
    // What the user sees: these at the head of the list.
    expect(shown(lang, search).slice(0, expected.length)).toEqual([...expected])
  })

  it('a screen is found by its English and by its Chinese title', () => {
    for (const id of ['go.dataSearch', 'go.patientList', 'go.user', 'go.multiList']) {
      const command = commands.find((c) => c.id === id)
      expect(command, id).toBeDefined()
      if (!command) continue
      for (const titleLang of langs) {
        const title = translateIn(titleLang, command.title)
        expect(shown(lang, title)[0], `${titleLang}: ${title}`).toBe(id)
      }
    }
  })

  it("'split' does not find Single-center Projects (no scattered letters)", () => {
    const singleList = paletteEntries(lang).find((e) => e.id === 'go.singleList')
    expect(singleList).toBeDefined()
    if (!singleList) return
    // The letters are there, scattered, as cmdk's default scorer would accept them.
    expect(textsOf(singleList).join(' ').toLowerCase()).toMatch(/s.*p.*l.*i.*t/)
    expect(paletteScore(textsOf(singleList), 'split')).toBe(0)
    expect(shown(lang, 'split')).toEqual(['workspace.splitRight', 'workspace.splitDown'])
  })

  it.each(['xqzzv', 'zzzzzzzz', '§§§', 'log zzz', '密码 qqqq'])('gibberish %j matches nothing', (search) => {
    expect([...scores(lang, search).values()].filter((v) => v > 0)).toEqual([])
    expect(shown(lang, search)).toEqual([])
  })

  it.each(['', '   ', '\t'])('an empty search %j matches everything, in the palette order', (search) => {
    expect([...scores(lang, search).values()].every((v) => v > 0)).toBe(true)
    expect(shown(lang, search)).toEqual(paletteEntries(lang).map((e) => e.id))
  })
})

describe('the score itself', () => {
  it('a text that starts with the search beats a word inside it, which beats a mere substring', () => {
    expect(paletteScore(['Close all tabs'], 'close')).toBe(1)
    const wordStart = paletteScore(['Close all tabs'], 'tabs')
    const inside = paletteScore(['Close all tabs'], 'abs')
    expect(wordStart).toBeLessThan(1)
    expect(inside).toBeGreaterThan(0)
    expect(inside).toBeLessThan(wordStart)
  })

  it('a title that starts with the search beats a keyword that does', () => {
    const title = paletteScore(['Compare with…', '对比…', 'diff'], 'compare')
    const keyword = paletteScore(['Open project to the side', '在侧边打开项目', 'compare', 'split'], 'compare')
    expect(title).toBe(1)
    expect(keyword).toBeGreaterThan(0.8)
    expect(keyword).toBeLessThan(title)
    const entry = (id: string, section: string, title: string, keywords: string[]): PaletteEntry => ({ id, section, title, keywords })
    const ranked = rankEntries(
      [
        entry('projects.openToSide', 'project', 'Open project to the side', ['compare']),
        entry('dataEntry.compareWith', 'subject', 'Compare with…', []),
      ],
      'compare',
      10,
    )
    expect(ranked.map((e) => e.id)).toEqual(['dataEntry.compareWith', 'projects.openToSide'])
  })

  it('every typed word must match somewhere', () => {
    expect(paletteScore(['Close all tabs'], 'close tabs')).toBeGreaterThan(0)
    expect(paletteScore(['Close all tabs'], 'close windows')).toBe(0)
  })

  it('is case-insensitive and ignores surrounding spaces', () => {
    expect(paletteScore(['english'], 'ENGLISH')).toBe(1)
    expect(paletteScore(['Log out'], '  log out ')).toBe(1)
  })

  it('stays within (0, 1] for a match', () => {
    const s = paletteScore(['xbx xcx xdx xex xfx xgx'], 'b c d e f g')
    expect(s).toBeGreaterThan(0)
    expect(s).toBeLessThanOrEqual(1)
  })
})

describe('rankEntries', () => {
  const many: PaletteEntry[] = Array.from({ length: 5000 }, (_, i) => ({
    id: `e${i}`,
    section: 'navigation',
    title: `Entry ${i}`,
    keywords: [],
  }))

  it('shows at most `limit` entries, best first, ties in their given order', () => {
    expect(rankEntries(many, '', 100)).toHaveLength(100)
    expect(rankEntries(many, 'entry', 100).map((e) => e.id)).toEqual(many.slice(0, 100).map((e) => e.id))
    expect(rankEntries(many, 'entry 4999', 100).map((e) => e.id)).toEqual(['e4999'])
    expect(rankEntries(many, 'nothing', 100)).toEqual([])
  })
})
