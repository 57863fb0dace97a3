import type { AnyCommand, Section } from '../../commands/define.ts'
import type { KeyLike } from '../i18n/index.ts'
import { keyGroups, type KeyGroup } from '../ui/keyReference.ts'

/** One line of the shortcut sheet: what it does and its keys (hotkeys-js syntax), or none. */
export interface SheetRow {
  id: string
  label: KeyLike
  keys: string | null
}

export interface SheetGroup {
  id: string
  title: KeyLike
  rows: SheetRow[]
}

/** The palette's order; a section not named here still gets its group, after these. */
export const sectionOrder: readonly Section[] = [
  'navigation',
  'project',
  'dictionary',
  'templates',
  'admin',
  'audit',
  'workspace',
  'view',
  'account',
  'help',
]

/**
 * Everything the shortcut sheet lists: every command with a hotkey or runnable without
 * arguments, grouped by section, then every key that is not a command (src/ui/keyReference.ts).
 */
export function shortcutSheet(
  commands: readonly AnyCommand[],
  needsArgs: (c: AnyCommand) => boolean,
  keys: readonly KeyGroup[] = keyGroups,
): SheetGroup[] {
  const sections = [...sectionOrder, ...new Set(commands.map((c) => c.section).filter((s) => !sectionOrder.includes(s)))]
  const commandGroups = sections.map((section) => ({
    id: `section.${section}`,
    title: `section.${section}`,
    rows: commands
      .filter((c) => c.section === section && (c.hotkey !== undefined || !needsArgs(c)))
      .map((c) => ({ id: c.id, label: c.title, keys: c.hotkey ?? null })),
  }))
  const keyRows = keys.map((g) => ({
    id: `keys.${g.id}`,
    title: g.title,
    rows: g.entries.map((e) => ({ id: e.label, label: e.label, keys: e.keys })),
  }))
  return [...commandGroups.filter((g) => g.rows.length > 0), ...keyRows]
}
