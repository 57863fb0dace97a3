/**
 * The one client door (issue 7 item 5): a command needs a session unless it is public, the
 * designer commands reach the designer through its capability, and one record opened from two
 * entry points (palette, manager) is one tab, so it has one draft.
 */
import { describe, expect, it, vi } from 'vitest'
import { commands, execute, getCommand, hotkeyLabel, isAvailable } from '../../commands/registry.ts'
import {
  addSection,
  designer,
  designerPath,
  editSectionTitle,
  toggleRequired,
  toggleSubForm,
  type DesignerActions,
} from '../../commands/templates.ts'
import { templateRecord } from '../../src/app/paletteSources.ts'
import { fresh, meta } from '../unit/workspace/support.ts'
import { calledEffects, offer, testContext } from './context.ts'

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

describe('a session is every command’s default', () => {
  it('without a session only the public commands are available, and the others refuse to run', async () => {
    const ctx = testContext({ signedIn: false, lang: 'en', size: 'small' })
    const available = commands.filter((c) => isAvailable(c, ctx)).map((c) => c.id)
    expect(available.sort()).toEqual([...publicIds].sort())
    for (const c of commands.filter((x) => !x.public)) {
      const r = await execute(c, ctx, 'test')
      expect(r, c.id).toMatchObject({ ok: false, reason: 'unavailable' })
    }
    expect(calledEffects(ctx)).toEqual([])
  })

  it('a public command runs without a session', async () => {
    const ctx = testContext({ signedIn: false, lang: 'zh' })
    await expect(execute(getCommand('view.lang.en'), ctx, 'test')).resolves.toEqual({ ok: true })
    expect(ctx.settings.setLang).toHaveBeenCalledWith('en')
  })
})

function testDesigner(over: Partial<DesignerActions> = {}): DesignerActions {
  return {
    templateId: 7,
    kind: 'crf',
    selected: 12,
    selectedRequired: false,
    section: { key: 's1', repeating: false },
    dirty: false,
    canMove: () => true,
    moveSelected: vi.fn(),
    toggleRequired: vi.fn(),
    addSection: vi.fn(),
    editSectionTitle: vi.fn(),
    toggleRepeating: vi.fn(),
    openAddIndicators: vi.fn(),
    save: vi.fn(() => Promise.resolve()),
    ...over,
  }
}

describe('the designer’s required, section title, add section and sub form commands', () => {
  const at = designerPath('crf', 7)

  it('each runs its designer action, by hotkey, and only on a designer', async () => {
    const cases = [
      [toggleRequired, 'toggleRequired', 'Alt+R'],
      [addSection, 'addSection', 'Alt+Shift+S'],
      [editSectionTitle, 'editSectionTitle', 'Alt+Shift+R'],
      [toggleSubForm, 'toggleRepeating', 'Alt+Shift+U'],
    ] as const
    for (const [command, action, key] of cases) {
      const d = testDesigner()
      const ctx = testContext({ path: at, provides: [offer(designer, d)] })
      await expect(execute(command, ctx, 'hotkey')).resolves.toEqual({ ok: true })
      expect(d[action], command.id).toHaveBeenCalledOnce()
      expect(calledEffects(ctx)).toEqual([])
      expect(hotkeyLabel(command.hotkey ?? '', false)).toBe(key)
      expect(isAvailable(command, testContext({ path: '/dataDictionary/crf-template' })), command.id).toBe(false)
    }
  })

  it('required needs a selected item; section commands need a section', () => {
    const none = testContext({ path: at, provides: [offer(designer, testDesigner({ selected: null, selectedRequired: null }))] })
    expect(isAvailable(toggleRequired, none)).toBe(false)
    const empty = testContext({ path: at, provides: [offer(designer, testDesigner({ selected: null, section: null }))] })
    expect(isAvailable(editSectionTitle, empty)).toBe(false)
    expect(isAvailable(toggleSubForm, empty)).toBe(false)
    expect(isAvailable(addSection, empty)).toBe(true)
  })
})

describe('one record, one tab', () => {
  it('a CRF opened from the palette and from the manager is one tab', async () => {
    const ws = fresh()
    const open = (path: string) => void ws.open(path, meta('route.editCrfTemp'))
    const ctx = testContext({ navigate: open, panes: { show: open } })
    const crf = { id: 4, name: 'Baseline & follow-up', description: '' } as Parameters<typeof templateRecord>[0]
    // The palette opens its record's path; the manager's row runs templates.design.
    await execute(getCommand('workspace.showTab'), ctx, 'palette', { path: templateRecord(crf).path })
    await execute(getCommand('templates.design'), ctx, 'button', { id: 4, kind: 'crf' })
    expect(ws.state.tabs.filter((t) => t.path.startsWith('/dataDictionary/edit-crf-temp')).map((t) => t.path)).toEqual([
      '/dataDictionary/edit-crf-temp?id=4',
    ])
  })
})
