import { Command } from 'cmdk'
import { useSnapshot } from 'valtio'
import { commands, isAvailable, isEnabled, needsArgs } from '../../commands/registry.ts'
import type { Section } from '../../commands/define.ts'
import { ui } from '../state/ui.ts'
import { translateIn } from '../i18n/index.ts'
import { useT } from '../i18n/useT.ts'
import { useCommandHost } from '../ui/commandHost.tsx'
import { PaletteList, type PaletteEntry } from '../ui/PaletteList.tsx'

const sectionOrder: Section[] = ['navigation', 'dictionary', 'templates', 'workspace', 'view', 'account', 'help']

/**
 * The command palette (Ctrl+K / ⌘K, Ctrl+Shift+P). A command is found by its Chinese and its
 * English title whatever the current language, and by its keywords.
 */
export function Palette() {
  const { paletteOpen } = useSnapshot(ui)
  const host = useCommandHost()
  const t = useT()
  if (!paletteOpen) return null
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
    >
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
    </Command.Dialog>
  )
}
