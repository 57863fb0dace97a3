import { useRef } from 'react'
import { Command } from 'cmdk'
import { useSnapshot } from 'valtio'
import { commands, isAvailable, isEnabled, needsArgs } from '../../commands/registry.ts'
import type { Section } from '../../commands/define.ts'
import { ui } from '../state/ui.ts'
import { translateIn } from '../i18n/index.ts'
import { useT } from '../i18n/useT.ts'
import { useCommandHost } from '../ui/commandHost.tsx'
import { PaletteList, type PaletteEntry } from '../ui/PaletteList.tsx'
import { paletteSources } from './paletteSources.ts'
import { RecordPalette } from './RecordPalette.tsx'

const sectionOrder: Section[] = ['navigation', 'dictionary', 'templates', 'workspace', 'view', 'account', 'help']

/**
 * The command palette (Ctrl+K / ⌘K, Ctrl+Shift+P). A command is found by its Chinese and its
 * English title whatever the current language, and by its keywords. When `ui.paletteMode` names
 * a record source (src/app/paletteSources.ts), it searches those records on the server instead;
 * Enter opens the record, Ctrl/⌘+Enter opens it to the side.
 */
export function Palette() {
  const { paletteOpen, paletteMode } = useSnapshot(ui)
  const host = useCommandHost()
  const t = useT()
  const toSide = useRef(false)
  if (!paletteOpen) return null
  const source = paletteMode ? paletteSources[paletteMode] : undefined
  const ctx = host.context()
  const entries: PaletteEntry[] = sectionOrder.flatMap((section) =>
    commands
      .filter((c) => c.section === section && c.id !== 'palette.open' && !needsArgs(c) && isAvailable(c, ctx))
      .map((c) => {
        const zh = translateIn('zh', c.title)
        const en = translateIn('en', c.title)
        return {
          id: c.id,
          section,
          title: t(c.title),
          alt: ctx.lang === 'zh' ? en : zh,
          keywords: [zh, en, ...(c.keywords ?? [])],
          hotkey: host.hotkeyLabel(c),
          disabled: !isEnabled(c, ctx),
        }
      }),
  )
  const headings = Object.fromEntries(sectionOrder.map((s) => [s, t(`section.${s}`)]))
  return (
    <Command.Dialog
      open
      onOpenChange={(open) => (ui.paletteOpen = open)}
      label={t('palette.label')}
      className="palette"
      overlayClassName="palette-overlay"
      contentClassName="palette-content"
      shouldFilter={false}
      loop
      key={paletteMode ?? 'commands'}
      onKeyDown={(e) => {
        if (e.key === 'Enter') toSide.current = e.ctrlKey || e.metaKey
      }}
      onPointerDown={(e) => (toSide.current = e.ctrlKey || e.metaKey)}
    >
      {source ? (
        <RecordPalette
          source={source}
          onOpen={(r) => {
            ui.paletteOpen = false
            void host.run(toSide.current ? 'workspace.openToSide' : 'workspace.showTab', 'palette', { path: r.path })
          }}
        />
      ) : (
        <PaletteList
          entries={entries}
          placeholder={t('palette.placeholder')}
          empty={t('palette.empty')}
          headings={headings}
          onSelect={(e) => {
            ui.paletteOpen = false
            void host.run(e.id, 'palette')
          }}
        />
      )}
    </Command.Dialog>
  )
}
