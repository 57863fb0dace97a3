/**
 * The state of a form's values, always visible next to it: not entered yet / saved / unsaved /
 * sending / queued (n) / conflict / refused. A live region, so a screen reader hears a save arrive or fail.
 */
import { Tag, type Intent } from '@blueprintjs/core'
import { formatTime } from '../../../lib/time.ts'
import { useLang, useT } from '../../../i18n/useT.ts'
import type { SaveState } from './pipeline.ts'

/** A form with no saved instance and nothing typed: not 'saved', as nothing was. */
type ShownState = SaveState | { kind: 'empty' }

const intents: Record<ShownState['kind'], Intent> = {
  empty: 'none',
  saved: 'success',
  unsaved: 'warning',
  sending: 'primary',
  queued: 'warning',
  conflict: 'danger',
  refused: 'danger',
}

export function SaveStateTag({ state }: { state: ShownState }) {
  const t = useT()
  const lang = useLang()
  let text: string
  let hint: string | undefined
  switch (state.kind) {
    case 'empty':
      text = t('offline.saveState.empty')
      break
    case 'saved': {
      const at = state.at ? formatTime(state.at, '{h}:{i}:{s}', lang) : null
      text = at ? t('offline.saveState.savedAt', [at]) : t('offline.saveState.saved')
      break
    }
    case 'unsaved':
      text = t('offline.saveState.unsaved')
      hint = t('offline.saveState.unsavedHint')
      break
    case 'sending':
      text = t('offline.saveState.sending')
      break
    case 'queued':
      text = t('offline.saveState.queued', [state.count])
      hint = t('offline.saveState.queuedHint')
      break
    case 'conflict':
      text = t('offline.saveState.conflict')
      hint = t('offline.saveState.conflictHint')
      break
    case 'refused':
      text = t('offline.saveState.refused', [state.message])
      break
  }
  return (
    <span role="status" aria-live="polite" data-testid="save-state" data-state={state.kind} title={hint}>
      <Tag
        intent={intents[state.kind]}
        minimal={state.kind === 'saved' || state.kind === 'empty'}
        icon={state.kind === 'queued' ? 'offline' : undefined}
      >
        {text}
      </Tag>
    </span>
  )
}
