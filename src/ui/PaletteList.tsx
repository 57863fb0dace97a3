import { useMemo, type ReactNode } from 'react'
import { Command } from 'cmdk'
import { rankEntries, type PaletteEntry } from './paletteRank.ts'

export type { PaletteEntry }

/**
 * The palette's list: cmdk for the keyboard, our own ranking for the filtering. cmdk scores and
 * renders every item on each keystroke; here at most `limit` items reach the DOM, whatever the
 * number of entries (DESIGN §8: render ≤ 100 items).
 */
export function PaletteList({
  entries,
  placeholder,
  empty,
  headings,
  limit = 100,
  search,
  onSearch,
  onSelect,
  children,
}: {
  entries: readonly PaletteEntry[]
  placeholder: string
  empty: string
  headings: Readonly<Record<string, string>>
  limit?: number
  search: string
  onSearch: (search: string) => void
  onSelect: (entry: PaletteEntry) => void
  /** Shown below the commands (the records the search found). */
  children?: ReactNode
}) {
  const shown = useMemo(() => rankEntries(entries, search, limit), [entries, search, limit])
  const groups = useMemo(() => {
    const bySection = new Map<string, PaletteEntry[]>()
    for (const e of shown) bySection.set(e.section, [...(bySection.get(e.section) ?? []), e])
    return [...bySection]
  }, [shown])
  return (
    <>
      <Command.Input autoFocus value={search} onValueChange={onSearch} placeholder={placeholder} data-testid="palette-input" />
      <Command.List data-testid="palette-list">
        <Command.Empty>{empty}</Command.Empty>
        {groups.map(([section, items]) => (
          <Command.Group key={section} heading={headings[section] ?? section}>
            {items.map((e) => (
              <Command.Item key={e.id} value={e.id} disabled={e.disabled} data-testid={`palette-${e.id}`} onSelect={() => onSelect(e)}>
                <span className="palette-title">{e.title}</span>
                {e.alt && <span className="palette-alt">{e.alt}</span>}
                {e.hotkey && <kbd className="palette-key">{e.hotkey}</kbd>}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
        {children}
      </Command.List>
    </>
  )
}
