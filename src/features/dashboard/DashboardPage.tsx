import { Card, H3, H5, HTMLTable } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { session } from '../../state/session.ts'
import { useT } from '../../i18n/useT.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { isAvailable } from '../../../commands/registry.ts'
import { ProjectWorkCard } from './ProjectWorkCard.tsx'

/** The home screen: who is signed in, the current project's work today, and the keyboard ways into everything else. */
export default function DashboardPage() {
  const t = useT()
  const { name, userName } = useSnapshot(session)
  const host = useCommandHost()
  const split = host.command('workspace.splitRight')
  // Side by side needs a second page: until one is open the row says how, rather than show no button.
  const splitReady = isAvailable(split, host.context())
  const splitKey = host.hotkeyLabel(split) ?? ''
  return (
    <div className="dashboard" data-testid="dashboard">
      <H3>{t('dashboard.welcome', { name: name || userName })}</H3>
      <ProjectWorkCard />
      <Card compact>
        <H5>{t('dashboard.keyboard')}</H5>
        <HTMLTable compact>
          <tbody>
            <tr>
              <td>
                <CommandButton id="palette.open" icon="search" />
              </td>
              <td>{t('dashboard.paletteHint')}</td>
            </tr>
            <tr>
              <td>
                <CommandButton id="help.shortcuts" icon="key-command" />
              </td>
              <td>{t('dashboard.shortcutsHint')}</td>
            </tr>
            <tr>
              <td>{splitReady ? <CommandButton id="workspace.splitRight" icon="column-layout" /> : <kbd>{splitKey}</kbd>}</td>
              <td data-testid="dashboard-split-hint">{splitReady ? t('dashboard.splitHint') : t('dashboard.splitLater', [splitKey])}</td>
            </tr>
          </tbody>
        </HTMLTable>
      </Card>
    </div>
  )
}
