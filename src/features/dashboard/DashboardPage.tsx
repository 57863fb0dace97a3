import { Card, H3, H5, HTMLTable } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { session } from '../../state/session.ts'
import { useT } from '../../i18n/useT.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { ProjectWorkCard } from './ProjectWorkCard.tsx'

/** The home screen: who is signed in, the current project's work today, and the keyboard ways into everything else. */
export default function DashboardPage() {
  const t = useT()
  const { name, userName } = useSnapshot(session)
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
              <td>
                <CommandButton id="workspace.splitRight" icon="column-layout" />
              </td>
              <td>{t('dashboard.splitHint')}</td>
            </tr>
          </tbody>
        </HTMLTable>
      </Card>
    </div>
  )
}
