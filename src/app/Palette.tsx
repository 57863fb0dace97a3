import { Command } from 'cmdk'
import { useSnapshot } from 'valtio'
import { commands, isAvailable, isEnabled } from '../../commands/registry.ts'
import type { Section } from '../../commands/define.ts'
import { ui } from '../state/ui.ts'
import { translateIn } from '../i18n/index.ts'
import { useT } from '../i18n/useT.ts'
import { useCommandHost } from '../ui/commandHost.tsx'
import { paletteScore } from './paletteFilter.ts'

const sectionOrder: Section[] = ['navigation', 'workspace', 'view', 'account', 'help']

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
  const close = () => {
    ui.paletteOpen = false
  }
  const visible = commands.filter((c) => c.id !== 'palette.open' && isAvailable(c, ctx))
  return (
    <Command.Dialog
      open
      onOpenChange={(open) => (ui.paletteOpen = open)}
      label={t('palette.label')}
      className="palette"
      overlayClassName="palette-overlay"
      contentClassName="palette-content"
      loop
      filter={paletteScore}
    >
      <Command.Input autoFocus placeholder={t('palette.placeholder')} data-testid="palette-input" />
      <Command.List data-testid="palette-list">
        <Command.Empty>{t('palette.empty')}</Command.Empty>
        {sectionOrder.map((section) => {
          const items = visible.filter((c) => c.section === section)
          if (items.length === 0) return null
          return (
            <Command.Group key={section} heading={t(`section.${section}`)}>
              {items.map((c) => {
                const zh = translateIn('zh', c.title)
                const en = translateIn('en', c.title)
                const hotkey = host.hotkeyLabel(c)
                return (
                  <Command.Item
                    key={c.id}
                    value={c.id}
                    keywords={[zh, en, ...(c.keywords ?? [])]}
                    disabled={!isEnabled(c, ctx)}
                    data-testid={`palette-${c.id}`}
                    onSelect={() => {
                      close()
                      void host.run(c.id, 'palette')
                    }}
                  >
                    <span className="palette-title">{t(c.title)}</span>
                    <span className="palette-alt">{ctx.lang === 'zh' ? en : zh}</span>
                    {hotkey && <kbd className="palette-key">{hotkey}</kbd>}
                  </Command.Item>
                )
              })}
            </Command.Group>
          )
        })}
      </Command.List>
    </Command.Dialog>
  )
}
