import { useEffect, useRef, useState } from 'react'
import { Command } from 'cmdk'
import { useSnapshot } from 'valtio'
import { commands, isAvailable, isEnabled, needsArgs } from '../../commands/registry.ts'
import type { Section } from '../../commands/define.ts'
import { ui } from '../state/ui.ts'
import { translateIn } from '../i18n/index.ts'
import { titleOfKey } from '../state/catalog.ts'
import { useLang, useT } from '../i18n/useT.ts'
import { useCommandHost } from '../ui/commandHost.tsx'
import { PaletteList, type PaletteEntry } from '../ui/PaletteList.tsx'
import { rankEntries } from '../ui/paletteRank.ts'
import { anyRecord, paletteSources, type PaletteRecord } from './paletteSources.ts'
import { RecordGroup, RecordPalette } from './RecordPalette.tsx'
import { useRecordSearch } from './useRecordSearch.ts'
import { afterPaletteClose } from './paletteClose.ts'

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

/**
 * The command palette (Ctrl+K / ⌘K, Ctrl+Shift+P). A command is found by its Chinese and its
 * English title whatever the current language, and by its keywords; below the commands, records
 * found on the server: the current project's subjects by number, CRFs, indicators and projects
 * by name or code. When `ui.paletteMode` names a record
 * source (src/app/paletteSources.ts), it searches only those records. The first match is
 * selected: Enter opens a record, Ctrl/⌘+Enter opens it to the side.
 */
export function Palette() {
  const { paletteOpen, paletteMode } = useSnapshot(ui)
  if (!paletteOpen) return null
  return <PaletteDialog key={paletteMode ?? 'commands'} mode={paletteMode} />
}

function PaletteDialog({ mode }: { mode: string | null }) {
  const host = useCommandHost()
  const t = useT()
  const toSide = useRef(false)
  // The selected item is ours, so the first record found can be selected when it arrives.
  const [selected, setSelected] = useState('')
  const source = mode ? paletteSources[mode] : undefined
  // What had the focus before the palette (read at the first render, before its input takes it).
  const [returnTo] = useState(() => document.activeElement)
  // The command chosen: it runs once the palette has closed and given the focus back.
  const afterClose = useRef<(() => void) | null>(null)
  const closeThen = (run: () => void) => {
    afterClose.current = run
    ui.paletteOpen = false
  }
  // Radix gives the focus of a closed dialog to its trigger, which the palette has none of, so it
  // fell to the page. It goes back a task after the dialog and its focus trap are gone (sooner when
  // a hotkey comes first: paletteClose.ts); then the chosen command runs, seeing the focus where a
  // hotkey would (the field of the row to delete, the selected record), and a view it opens takes
  // the focus from there.
  useEffect(
    () => () =>
      afterPaletteClose(() => {
        if (returnTo instanceof HTMLElement && returnTo.isConnected && document.activeElement === document.body) returnTo.focus()
        afterClose.current?.()
      }),
    [returnTo],
  )

  const open = (r: PaletteRecord) =>
    closeThen(() => {
      if (r.command) void host.run(r.command.id, 'palette', r.command.args)
      else void host.run(toSide.current ? 'workspace.openToSide' : 'workspace.showTab', 'palette', { path: r.path })
    })

  return (
    <Command.Dialog
      open
      onOpenChange={(isOpen) => (ui.paletteOpen = isOpen)}
      label={t('palette.label')}
      className="palette"
      overlayClassName="palette-overlay"
      contentClassName="palette-content"
      shouldFilter={false}
      loop
      value={selected}
      onValueChange={setSelected}
      onKeyDown={(e) => {
        if (e.key === 'Enter') toSide.current = e.ctrlKey || e.metaKey
      }}
      onPointerDown={(e) => (toSide.current = e.ctrlKey || e.metaKey)}
    >
      {source ? (
        <RecordPalette source={source} onOpen={open} select={setSelected} />
      ) : (
        <CommandsAndRecords onOpen={open} onCommand={(id) => closeThen(() => void host.run(id, 'palette'))} select={setSelected} />
      )}
    </Command.Dialog>
  )
}

function CommandsAndRecords({
  onOpen,
  onCommand,
  select,
}: {
  onOpen: (r: PaletteRecord) => void
  onCommand: (id: string) => void
  select: (value: string) => void
}) {
  const host = useCommandHost()
  const t = useT()
  const lang = useLang()
  const [search, setSearch] = useState('')
  const { records } = useRecordSearch(anyRecord, search, lang, true)
  const ctx = host.context()
  const entries: PaletteEntry[] = sectionOrder.flatMap((section) =>
    commands
      .filter((c) => c.section === section && c.id !== 'palette.open' && !needsArgs(c) && isAvailable(c, ctx))
      .map((c) => {
        // A go-to command is named as the catalog names its screen; the built-in names still match.
        const zh = titleOfKey(c.title, 'zh')
        const en = titleOfKey(c.title, 'en')
        return {
          id: c.id,
          section,
          title: ctx.lang === 'zh' ? zh : en,
          alt: ctx.lang === 'zh' ? en : zh,
          keywords: [zh, en, translateIn('zh', c.title), translateIn('en', c.title), ...(c.keywords ?? [])],
          hotkey: host.hotkeyLabel(c),
          disabled: !isEnabled(c, ctx),
        }
      }),
  )
  const headings = Object.fromEntries(sectionOrder.map((s) => [s, t(`section.${s}`)]))

  // Records arrive after the commands were ranked: with no command matching, the first record is selected.
  useEffect(() => {
    const first = records[0]?.id
    if (first !== undefined && rankEntries(entries, search, 1).length === 0) select(first)
  }, [records])

  return (
    <PaletteList
      entries={entries}
      placeholder={t('palette.placeholder')}
      empty={t('palette.empty')}
      headings={headings}
      search={search}
      onSearch={setSearch}
      onSelect={(e) => onCommand(e.id)}
    >
      <RecordGroup heading={t('palette.records')} records={records} onOpen={onOpen} />
    </PaletteList>
  )
}
