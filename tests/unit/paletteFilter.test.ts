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
import { subjectDetail, type SubjectDetailActions } from '../../commands/dataEntry.ts'
import { dataLoadScreen, type DataLoadActions } from '../../commands/dataLoader.ts'
import { translateIn } from '../../src/i18n/index.ts'
import { paletteScore, rankEntries, type PaletteEntry } from '../../src/ui/paletteRank.ts'
import { offer, testContext, type TestOverrides } from '../commands/context.ts'

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

/** What the palette lists for a signed-in user with two tabs, two panes and a closed tab (and what `focused` adds). */
function paletteEntries(lang: Lang, focused: TestOverrides = {}): PaletteEntry[] {
  const ctx = testContext({ ...focused, lang })
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
const shown = (lang: Lang, search: string, focused?: TestOverrides): string[] =>
  rankEntries(paletteEntries(lang, focused), search, 1000).map((e) => e.id)

/** A subject's detail comparing a saved form with another pane: its data-entry commands are listed. */
const onDetail: TestOverrides = {
  path: '/project/patientDetail?studyId=1&id=2',
  provides: [
    offer(subjectDetail, {
      studyId: 1,
      subjectId: 2,
      form: { templateId: 3, recordId: 4, rev: 1, status: null, editable: true, dirty: false },
      comparing: true,
    } as SubjectDetailActions),
  ],
}
/** The download records of a project's data loading. */
const onDownloads: TestOverrides = {
  path: '/project/data-loading?id=1&tab=downloads',
  provides: [offer(dataLoadScreen, { studyId: 1, tab: 'downloads' } as DataLoadActions)],
}

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

  // The wording people use, as the product's issues put it; Chinese typed without spaces.
  it.each([
    ['下载模板', 'dataLoad.downloadTemplate', {}],
    ['download template', 'dataLoad.downloadTemplate', {}],
    ['上传数据', 'dataLoad.upload', {}],
    ['upload data', 'dataLoad.upload', {}],
    ['下载数据', 'dataLoad.download', {}],
    ['download data', 'dataLoad.download', {}],
    ['数据装载', 'dataLoad.open', {}],
    ['data loading', 'dataLoad.open', {}],
    ['enrol', 'subjects.new', {}],
    ['入组', 'subjects.new', {}],
    ['查找患者', 'subjectList.find', {}],
    ['find subject', 'subjectList.find', {}],
    ['字段历史', 'dataEntry.fieldHistory', onDetail],
    ['show field history', 'dataEntry.fieldHistory', onDetail],
    ['下一个差异', 'dataEntry.nextDifference', onDetail],
    ['next difference', 'dataEntry.nextDifference', onDetail],
    ['重新下载', 'dataLoad.redownload', onDownloads],
    ['re-download', 'dataLoad.redownload', onDownloads],
  ] as const)('%j ranks %s first, so Enter runs it', (search, id, focused: TestOverrides) => {
    expect(shown(lang, search, focused)[0]).toBe(id)
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
    // The panes' splits first; "New aliquot" (splitting a sample) after them.
    expect(shown(lang, 'split')).toEqual(['workspace.splitRight', 'workspace.splitDown', 'samples.newAliquot'])
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
  it('a title that is the search beats one that starts with it', () => {
    expect(paletteScore(['下载数据'], '下载数据')).toBe(1)
    expect(paletteScore(['下载数据模板'], '下载数据')).toBeLessThan(1)
    expect(paletteScore(['Close all tabs'], 'close')).toBeLessThan(1)
  })

  it('a keyword that is the search beats one that starts with it', () => {
    expect(paletteScore(['New research object', '新增研究对象', 'enrol'], 'enrol')).toBeGreaterThan(
      paletteScore(['Open project progress', '打开项目进度', 'enrolment'], 'enrol'),
    )
  })

  it('a Chinese word matches a title by its characters in order, or by pieces of two or more found among the texts', () => {
    const inTitle = paletteScore(['下载数据模板'], '下载模板')
    const inPieces = paletteScore(['打开数据装载', '下载', '模板'], '下载模板')
    expect(inTitle).toBeGreaterThan(inPieces)
    expect(inPieces).toBeGreaterThan(0)
    // Single characters scattered over the texts are no match.
    expect(paletteScore(['下一个', '模具', '装载'], '下载模板')).toBe(0)
  })

  it('a text that starts with the search beats a word inside it, which beats a mere substring', () => {
    expect(paletteScore(['Close all tabs'], 'close')).toBeGreaterThan(0.9)
    const wordStart = paletteScore(['Close all tabs'], 'tabs')
    const inside = paletteScore(['Close all tabs'], 'abs')
    expect(wordStart).toBeLessThan(1)
    expect(inside).toBeGreaterThan(0)
    expect(inside).toBeLessThan(wordStart)
  })

  it('a title that starts with the search beats a keyword that does', () => {
    const title = paletteScore(['Compare with…', '对比…', 'diff'], 'compare')
    const keyword = paletteScore(['Open project to the side', '在侧边打开项目', 'compare', 'split'], 'compare')
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
