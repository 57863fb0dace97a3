import { Alert } from '@blueprintjs/core'
import { proxy, useSnapshot } from 'valtio'
import { useT } from '../i18n/useT.ts'

const state = proxy({ open: false })
let resolve: ((relogin: boolean) => void) | null = null

/** SPEC §8: the dialog for codes 50008/50012/50014; answers true for '重新登录'. */
export function confirmRelogin(): Promise<boolean> {
  state.open = true
  return new Promise((r) => {
    resolve = r
  })
}

function answer(relogin: boolean) {
  state.open = false
  resolve?.(relogin)
  resolve = null
}

export function ReloginDialog() {
  const { open } = useSnapshot(state)
  const t = useT()
  return (
    <Alert
      isOpen={open}
      intent="warning"
      icon="log-out"
      confirmButtonText={t('relogin.confirm')}
      cancelButtonText={t('relogin.cancel')}
      onConfirm={() => answer(true)}
      onCancel={() => answer(false)}
      canEscapeKeyCancel
      // Enter answers yes at once: the keyboard user need not Tab to the button.
      onOpened={(el) => el.querySelector<HTMLButtonElement>('.bp6-alert-footer .bp6-intent-warning')?.focus()}
      className="relogin-dialog"
    >
      <h4 className="bp6-heading">{t('relogin.title')}</h4>
      <p>{t('relogin.message')}</p>
    </Alert>
  )
}
