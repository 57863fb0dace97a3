import { Button, NonIdealState, type IconName } from '@blueprintjs/core'
import { useT } from '../i18n/useT.ts'
import { CommandButton } from './CommandButton.tsx'
import { useCommandHost } from './commandHost.tsx'

/**
 * A project's screen opened without a project in its path while no current project is chosen
 * (a typed or bookmarked address): it says so and offers to choose one, rather than failing to load.
 */
export function NoProjectState({ icon, title, description }: { icon: IconName; title: string; description: string }) {
  const t = useT()
  const host = useCommandHost()
  return (
    <div className="no-project" data-testid="no-project">
      <NonIdealState
        icon={icon}
        title={title}
        description={description}
        action={
          <>
            <CommandButton id="projects.switch" icon="swap-horizontal" intent="primary" />
            <Button text={t('noProject.goList')} onClick={() => void host.run('go.multiList', 'button')} />
          </>
        }
      />
    </div>
  )
}
