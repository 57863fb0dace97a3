import { Component, type ReactNode } from 'react'
import { NonIdealState } from '@blueprintjs/core'
import { t } from '../i18n/index.ts'

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
    if (this.state.error) {
      return <NonIdealState icon="error" title={t('message.loadError')} description={this.state.error.message} />
    }
    return this.props.children
  }
}
