import { Dialog, DialogBody, HTMLTable } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { commands, needsArgs } from '../../commands/registry.ts'
import type { Section } from '../../commands/define.ts'
import { ui } from '../state/ui.ts'
import { useT } from '../i18n/useT.ts'
import { useCommandHost } from '../ui/commandHost.tsx'

const sections: Section[] = ['navigation', 'dictionary', 'templates', 'workspace', 'view', 'account', 'help']

/** Every command with its hotkey, grouped as in the palette. */
export function ShortcutsSheet() {
  const { shortcutsOpen } = useSnapshot(ui)
  const host = useCommandHost()
  const t = useT()
  return (
    <Dialog
      isOpen={shortcutsOpen}
      onClose={() => (ui.shortcutsOpen = false)}
      title={t('command.shortcuts')}
      icon="key-command"
      style={{ width: 640 }}
    >
      <DialogBody>
        <div data-testid="shortcuts-sheet">
          {sections.map((section) => (
            <HTMLTable key={section} compact striped className="shortcuts-table">
              <thead>
                <tr>
                  <th colSpan={2}>{t(`section.${section}`)}</th>
                </tr>
              </thead>
              <tbody>
                {commands
                  .filter((c) => c.section === section && !needsArgs(c))
                  .map((c) => (
                    <tr key={c.id}>
                      <td>{t(c.title)}</td>
                      <td className="shortcut-key">{host.hotkeyLabel(c) ? <kbd>{host.hotkeyLabel(c)}</kbd> : '—'}</td>
                    </tr>
                  ))}
              </tbody>
            </HTMLTable>
          ))}
        </div>
      </DialogBody>
    </Dialog>
  )
}
