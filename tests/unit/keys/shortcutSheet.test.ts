import { describe, expect, it } from 'vitest'
import { commands, getCommand, hotkeyLabel, needsArgs } from '../../../commands/registry.ts'
import { defineCommand } from '../../../commands/define.ts'
import { shortcutSheet } from '../../../src/app/shortcutRows.ts'
import { isKey, keyGroups, keysLabel, tableKeys, tabBarKeys, type KeyEventLike } from '../../../src/ui/keyReference.ts'
import { translateIn } from '../../../src/i18n/index.ts'

const rows = () => shortcutSheet(commands, needsArgs).flatMap((g) => g.rows)

describe('the shortcut sheet lists every key', () => {
  it('every command hotkey appears, with the hotkey written on the command', () => {
    const listed = new Map(rows().map((r) => [r.id, r.keys]))
    const withKeys = commands.filter((c) => c.hotkey)
    expect(withKeys.length).toBeGreaterThan(20)
    for (const c of withKeys) expect(listed.get(c.id), c.id).toBe(c.hotkey)
  })

  it('every key reference entry appears under its group', () => {
    const groups = shortcutSheet(commands, needsArgs)
    for (const g of keyGroups) {
      const group = groups.find((x) => x.id === `keys.${g.id}`)
      expect(
        group?.rows.map((r) => [r.label, r.keys]),
        g.id,
      ).toEqual(g.entries.map((e) => [e.label, e.keys]))
    }
    for (const id of ['table', 'form', 'palette', 'tabs', 'panes']) expect(keyGroups.map((g) => g.id)).toContain(id)
  })

  it('a command with arguments and a hotkey is listed; one with arguments and no hotkey is not', () => {
    const picked = defineCommand({
      id: 'test.withKey',
      title: 'command.shortcuts',
      section: 'help',
      hotkey: 'alt+j',
      args: undefined,
      run: () => undefined,
    })
    const sheet = shortcutSheet([picked, ...commands], () => true).flatMap((g) => g.rows)
    expect(sheet.find((r) => r.id === 'test.withKey')?.keys).toBe('alt+j')
    expect(sheet.some((r) => r.id === 'workspace.showTab')).toBe(false)
  })

  it('a section the palette order does not name still gets a group', () => {
    const odd = { ...commands[0]!, id: 'odd.one', section: 'odd' as never, hotkey: 'alt+k' }
    const groups = shortcutSheet([odd], () => false, [])
    expect(groups.map((g) => g.id)).toEqual(['section.odd'])
  })

  it('every label of the sheet has a Chinese and an English text', () => {
    for (const g of shortcutSheet(commands, needsArgs)) {
      for (const key of [g.title, ...g.rows.map((r) => r.label)]) {
        expect(translateIn('zh', key), key).not.toBe(key)
        expect(translateIn('en', key), key).not.toBe(key)
      }
    }
  })
})

const ev = (key: string, mods: Partial<KeyEventLike> = {}): KeyEventLike => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
})

describe('isKey: what the components match events with', () => {
  it('matches key names and exact modifiers', () => {
    expect(isKey(tableKeys.move, ev('ArrowDown'))).toBe(true)
    expect(isKey(tableKeys.move, ev('ArrowDown', { shiftKey: true }))).toBe(false)
    expect(isKey(tableKeys.open, ev('Enter'))).toBe(true)
    expect(isKey(tableKeys.open, ev('Enter', { ctrlKey: true }))).toBe(false)
    expect(isKey(tableKeys.openToSide, ev('Enter', { ctrlKey: true }))).toBe(true)
    expect(isKey(tableKeys.openToSide, ev('Enter', { metaKey: true }))).toBe(true)
    expect(isKey(tableKeys.pageDown, ev('PageDown'))).toBe(true)
    expect(isKey(tableKeys.first, ev('Home'))).toBe(true)
    expect(isKey(tabBarKeys.show, ev(' '))).toBe(true)
    expect(isKey(tabBarKeys.close, ev('Delete'))).toBe(true)
    expect(isKey(tabBarKeys.menu, ev('F10', { shiftKey: true }))).toBe(true)
  })
})

describe('keysLabel', () => {
  it('shows a platform pair as this platform’s variant and lists the others', () => {
    expect(keysLabel('ctrl+c, command+c', false, hotkeyLabel)).toBe('Ctrl+C')
    expect(keysLabel('ctrl+c, command+c', true, hotkeyLabel)).toBe('⌘C')
    expect(keysLabel('up, down', false, hotkeyLabel)).toBe('↑ / ↓')
    expect(keysLabel('pageup', false, hotkeyLabel)).toBe('PageUp')
    expect(keysLabel('shift+f10', false, hotkeyLabel)).toBe('Shift+F10')
  })

  it('spells a key as a command’s hotkey does in the palette and tooltips: one spelling everywhere', () => {
    // Next subject (Alt+Shift+PageDown): the palette and the buttons read hotkeyLabel, the sheet keysLabel.
    const hotkey = getCommand('dataEntry.nextSubject').hotkey ?? ''
    expect(hotkeyLabel(hotkey, false)).toBe('Alt+Shift+PageDown')
    expect(hotkeyLabel(hotkey, true)).toBe('⌥⇧PageDown')
    expect(keysLabel(hotkey, false, hotkeyLabel)).toBe(hotkeyLabel(hotkey, false))
    expect(hotkeyLabel('alt+pageup', false)).toBe('Alt+PageUp')
    expect(hotkeyLabel('escape', false)).toBe('Esc')
  })
})
