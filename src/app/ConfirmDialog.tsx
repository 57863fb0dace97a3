import { Alert } from '@blueprintjs/core'
import { proxy, useSnapshot } from 'valtio'
import { useT } from '../i18n/useT.ts'

const state = proxy({ open: false, message: '', detail: '' })
let resolve: ((yes: boolean) => void) | null = null

/** SPEC §8 delete confirmation and other yes/no questions commands ask through ctx.ui.confirm. */
export function confirmDialog(message: string, detail = ''): Promise<boolean> {
  resolve?.(false)
  state.open = true
  state.message = message
  state.detail = detail
  return new Promise((r) => {
    resolve = r
  })
}

function answer(yes: boolean) {
  state.open = false
  resolve?.(yes)
  resolve = null
}

export function ConfirmDialog() {
  const { open, message, detail } = useSnapshot(state)
  const t = useT()
  return (
    <Alert
      isOpen={open}
      intent="danger"
      icon="warning-sign"
      confirmButtonText={t('common.confirm')}
      cancelButtonText={t('common.cancel')}
      onConfirm={() => answer(true)}
      onCancel={() => answer(false)}
      canEscapeKeyCancel
      // Enter answers yes at once: the keyboard user need not Tab to the button.
      onOpened={(el) => el.querySelector<HTMLButtonElement>('.bp6-alert-footer .bp6-intent-danger')?.focus()}
    >
      <p data-testid="confirm-message">{message}</p>
      {detail && <p className="bp6-text-muted">{detail}</p>}
    </Alert>
  )
}
