/**
 * The palette's matcher as a user meets it: the real commands, the real dictionaries, and the
 * keywords built exactly as src/app/Palette.tsx builds them (zh title, en title, keywords;
 * value = the command id).
 */
import { describe, expect, it } from 'vitest'
import { commands } from '../../commands/registry.ts'
import type { AnyCommand } from '../../commands/define.ts'
import { translateIn } from '../../src/i18n/index.ts'
import { paletteScore } from '../../src/app/paletteFilter.ts'

const keywordsOf = (c: AnyCommand): string[] => [translateIn('zh', c.title), translateIn('en', c.title), ...(c.keywords ?? [])]

function scores(search: string): Map<string, number> {
  return new Map(commands.map((c) => [c.id, paletteScore(c.id, search, keywordsOf(c))]))
}

/** The ids matching `search`, best first. */
function matches(search: string): string[] {
  return [...scores(search)]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([id]) => id)
}

/** The ids with the highest score (> 0), sorted. */
function best(search: string): string[] {
  const all = [...scores(search)].filter(([, s]) => s > 0)
  const top = Math.max(...all.map(([, s]) => s))
  return all
    .filter(([, s]) => s === top)
    .map(([id]) => id)
    .sort()
}

describe('typing finds the command, whatever the current language', () => {
  it.each([
    ['English', ['view.lang.en']],
    ['english', ['view.lang.en']],
    ['中文', ['view.lang.zh']],
    ['split', ['workspace.splitDown', 'workspace.splitRight']],
    ['split right', ['workspace.splitRight']],
    ['split down', ['workspace.splitDown']],
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
    expect(best(search)).toEqual([...expected].sort())
    const s = scores(search)
    const top = s.get(expected[0] ?? '') ?? 0
    expect(top).toBeGreaterThan(0)
    for (const [id, score] of s) if (!expected.includes(id)) expect(score, id).toBeLessThan(top)
  })

  it('a screen is found by its English and its Chinese title', () => {
    for (const id of ['go.dataSearch', 'go.patientList', 'go.user']) {
      const command = commands.find((c) => c.id === id)
      expect(command, id).toBeDefined()
      if (!command) continue
      for (const lang of ['zh', 'en'] as const) {
        const title = translateIn(lang, command.title)
        expect(matches(title)[0], `${lang}: ${title}`).toBe(id)
      }
    }
  })
})

describe('what must not match', () => {
  it("'split' does not find Single-center Projects (no scattered letters)", () => {
    const singleList = commands.find((c) => c.id === 'go.singleList')
    expect(singleList).toBeDefined()
    if (!singleList) return
    // The letters are there, scattered, as cmdk's default scorer would accept them.
    expect([singleList.id, ...keywordsOf(singleList)].join(' ').toLowerCase()).toMatch(/s.*p.*l.*i.*t/)
    expect(paletteScore(singleList.id, 'split', keywordsOf(singleList))).toBe(0)
    expect(matches('split').sort()).toEqual(['workspace.splitDown', 'workspace.splitRight'])
  })

  it.each(['xqzzv', 'zzzzzzzz', '§§§', 'log zzz', '密码 qqqq'])('gibberish %j matches nothing', (search) => {
    expect(matches(search)).toEqual([])
  })

  it.each(['', '   ', '\t'])('an empty search %j matches everything', (search) => {
    const s = scores(search)
    expect([...s.values()].every((v) => v > 0)).toBe(true)
    expect(matches(search)).toHaveLength(commands.length)
  })
})

describe('the score itself', () => {
  it('a title that starts with the search beats a word inside it, which beats a mere substring', () => {
    expect(paletteScore('a', 'close', ['Close all tabs'])).toBe(1)
    const wordStart = paletteScore('a', 'tabs', ['Close all tabs'])
    const inside = paletteScore('a', 'abs', ['Close all tabs'])
    expect(wordStart).toBeLessThan(1)
    expect(inside).toBeGreaterThan(0)
    expect(inside).toBeLessThan(wordStart)
  })

  it('every typed word must match somewhere', () => {
    expect(paletteScore('a', 'close tabs', ['Close all tabs'])).toBeGreaterThan(0)
    expect(paletteScore('a', 'close windows', ['Close all tabs'])).toBe(0)
  })

  it('is case-insensitive and matches the value (the id) too', () => {
    expect(paletteScore('workspace.closeAll', 'CLOSEALL', [])).toBeGreaterThan(0)
    expect(paletteScore('x', 'ENGLISH', ['english'])).toBe(1)
  })

  it('stays within (0, 1] for a match', () => {
    const s = paletteScore('a', 'b c d e f g', ['xbx xcx xdx xex xfx xgx'])
    expect(s).toBeGreaterThan(0)
    expect(s).toBeLessThanOrEqual(1)
  })
})
