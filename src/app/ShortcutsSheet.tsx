import { DialogBody, HTMLTable } from '@blueprintjs/core'
import { Dialog } from '../ui/Dialog.tsx'
import { useSnapshot } from 'valtio'
import { commands, hotkeyLabel, needsArgs } from '../../commands/registry.ts'
import { ui } from '../state/ui.ts'
import { useT } from '../i18n/useT.ts'
import { keysLabel } from '../ui/keyReference.ts'
import { shortcutSheet } from './shortcutRows.ts'

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
const groups = shortcutSheet(commands, needsArgs)

/** Every command with its hotkey, grouped as in the palette, then the keys of tables, forms, the palette and the tab bar. */
export function ShortcutsSheet() {
  const { shortcutsOpen } = useSnapshot(ui)
  const t = useT()
  return (
    <Dialog
      isOpen={shortcutsOpen}
      onClose={() => (ui.shortcutsOpen = false)}
      title={t('command.shortcuts')}
      icon="key-command"
      style={{ width: 640 }}
    >
      <DialogBody useOverflowScrollContainer={false}>
        {/* The sheet scrolls: a keyboard user reaches it with Tab and scrolls it with the arrows. */}
        <div data-testid="shortcuts-sheet" className="shortcuts-scroll" tabIndex={0} role="region" aria-label={t('command.shortcuts')}>
          {groups.map((group) => (
            <HTMLTable key={group.id} compact striped className="shortcuts-table" data-group={group.id}>
              <thead>
                <tr>
                  <th colSpan={2} scope="colgroup">
                    {t(group.title)}
                  </th>
                </tr>
              </thead>
              <tbody>
                {group.rows.map((row) => (
                  <tr key={row.id} data-row={row.id}>
                    <td>{t(row.label)}</td>
                    <td className="shortcut-key">{row.keys ? <kbd>{keysLabel(row.keys, isMac, hotkeyLabel)}</kbd> : '—'}</td>
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
