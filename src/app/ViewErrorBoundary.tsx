import { Component, type ReactNode } from 'react'
import { Button, NonIdealState } from '@blueprintjs/core'
import { t } from '../i18n/index.ts'

/**
 * A screen's code that the server no longer has: the app was updated since this tab opened and the
 * old build's files are gone (Chromium, Firefox, Safari and Vite's own CSS preload say it so).
 */
const staleBuild = /dynamically imported module|Importing a module script failed|Unable to preload CSS/

/** A screen that throws shows its error in its own pane; the rest of the workspace goes on. */
export class ViewErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null }

  static getDerivedStateFromError(error: Error) {
    return { error }
  }

  override componentDidCatch(error: Error) {
    console.error('view failed', error)
  }

  override render() {
    const { error } = this.state
    if (error && staleBuild.test(error.message)) {
      return (
        <NonIdealState
          icon="refresh"
          title={t('message.appUpdated')}
          description={t('message.appUpdatedHint')}
          // A failed lazy screen stays failed in this page: only a new page loads the new build.
          action={<Button intent="primary" icon="refresh" text={t('message.reload')} onClick={() => window.location.reload()} />}
        />
      )
    }
    if (error) return <NonIdealState icon="error" title={t('message.loadError')} description={error.message} />
    return this.props.children
  }
}
