/**
 * Keys that are not commands (a command's hotkey is written on the command): what the table,
 * the form, the palette and the tab bar do with a key. Written once here, in hotkeys-js syntax
 * like a command's hotkey; the components' key handlers match events with `isKey`, and the
 * shortcut sheet lists every group, so the sheet cannot drift from what the keys do.
 */
import type { KeyLike } from '../i18n/index.ts'

export interface KeyEntry {
  /** hotkeys-js syntax; variants separated by ', ' (e.g. 'ctrl+enter, command+enter'). */
  keys: string
  /** i18n key of what the key does. */
  label: KeyLike
}

export interface KeyGroup {
  id: string
  /** i18n key of the group's heading. */
  title: KeyLike
  entries: readonly KeyEntry[]
}

/** DenseTable (Blueprint's table in row focus; ↑ ↓ and Ctrl+C are the table's own hotkeys). */
export const tableKeys = {
  move: { keys: 'up, down', label: 'keys.table.move' },
  first: { keys: 'home', label: 'keys.table.first' },
  last: { keys: 'end', label: 'keys.table.last' },
  pageUp: { keys: 'pageup', label: 'keys.table.pageUp' },
  pageDown: { keys: 'pagedown', label: 'keys.table.pageDown' },
  open: { keys: 'enter', label: 'keys.table.open' },
  openToSide: { keys: 'ctrl+enter, command+enter', label: 'keys.table.openToSide' },
  copy: { keys: 'ctrl+c, command+c', label: 'keys.table.copy' },
  leave: { keys: 'tab, shift+tab', label: 'keys.table.leave' },
} as const satisfies Record<string, KeyEntry>

/** The form renderer (src/ui/formRenderer/keyboard.ts, Field.tsx). */
export const formKeys = {
  nextControl: { keys: 'tab, shift+tab', label: 'keys.form.nextControl' },
  nextField: { keys: 'enter', label: 'keys.form.nextField' },
  choice: { keys: 'up, down, left, right', label: 'keys.form.choice' },
  toggle: { keys: 'space', label: 'keys.form.toggle' },
  now: { keys: 'ctrl+;, command+;', label: 'keys.form.now' },
  picker: { keys: 'alt+down', label: 'keys.form.picker' },
} as const satisfies Record<string, KeyEntry>

/** The command palette and the record pickers (cmdk). */
export const paletteKeys = {
  move: { keys: 'up, down', label: 'keys.palette.move' },
  run: { keys: 'enter', label: 'keys.palette.run' },
  toSide: { keys: 'ctrl+enter, command+enter', label: 'keys.palette.toSide' },
  close: { keys: 'escape', label: 'keys.palette.close' },
} as const satisfies Record<string, KeyEntry>

/** The tab bar (a tablist: one tab stop, arrows move between tabs). */
export const tabBarKeys = {
  move: { keys: 'left, right', label: 'keys.tabs.move' },
  ends: { keys: 'home, end', label: 'keys.tabs.ends' },
  show: { keys: 'enter, space', label: 'keys.tabs.show' },
  close: { keys: 'delete', label: 'keys.tabs.close' },
  menu: { keys: 'shift+f10', label: 'keys.tabs.menu' },
} as const satisfies Record<string, KeyEntry>

/** Panes: moving between and within them; splitting and closing are commands. */
export const paneKeys = {
  within: { keys: 'tab, shift+tab', label: 'keys.panes.within' },
  dialog: { keys: 'escape', label: 'keys.panes.dialog' },
} as const satisfies Record<string, KeyEntry>

export const keyGroups: readonly KeyGroup[] = [
  { id: 'table', title: 'keys.table.title', entries: Object.values(tableKeys) },
  { id: 'form', title: 'keys.form.title', entries: Object.values(formKeys) },
  { id: 'palette', title: 'keys.palette.title', entries: Object.values(paletteKeys) },
  { id: 'tabs', title: 'keys.tabs.title', entries: Object.values(tabBarKeys) },
  { id: 'panes', title: 'keys.panes.title', entries: Object.values(paneKeys) },
]

/** hotkeys-js key names → KeyboardEvent.key (lower case). */
const eventKeys: Record<string, string> = {
  up: 'arrowup',
  down: 'arrowdown',
  left: 'arrowleft',
  right: 'arrowright',
  space: ' ',
  esc: 'escape',
  del: 'delete',
}

export interface KeyEventLike {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  shiftKey: boolean
}

/** Whether the event is exactly one of the entry's variants (modifiers included). */
export function isKey(entry: KeyEntry, e: KeyEventLike): boolean {
  const key = e.key.toLowerCase()
  return entry.keys.split(',').some((variant) => {
    const parts = variant.trim().split('+')
    const name = parts.pop() ?? ''
    const mods = new Set(parts)
    return (
      (eventKeys[name] ?? name) === key &&
      mods.has('ctrl') === e.ctrlKey &&
      mods.has('command') === e.metaKey &&
      mods.has('alt') === e.altKey &&
      mods.has('shift') === e.shiftKey
    )
  })
}

/**
 * The keys of an entry as the sheet shows them, each key read by `label` (the commands' own
 * hotkeyLabel): a platform pair ('ctrl+c, command+c') reads as this platform's variant, like a
 * command's hotkey; other variants are all listed ('↑ / ↓').
 */
export function keysLabel(keys: string, mac: boolean, label: (hotkey: string, mac: boolean) => string): string {
  const variants = keys.split(',').map((v) => v.trim())
  if (variants.some((v) => v.includes('command'))) return label(variants.join(', '), mac)
  return variants.map((v) => label(v, mac)).join(' / ')
}
