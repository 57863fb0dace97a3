import { useEffect } from 'react'
import { Alert, type AlertProps } from '@blueprintjs/core'
import { proxy, useSnapshot } from 'valtio'
import { useT } from '../i18n/useT.ts'

const state = proxy({ open: false, message: '', detail: '', yes: '', cautious: false })
let resolve: ((yes: boolean) => void) | null = null
/** What had the focus before the question: it gets it back as soon as the answer is given. */
let returnTo: HTMLElement | null = null

/**
 * SPEC §8 delete confirmation and other yes/no questions commands ask through ctx.ui.confirm; `yes`
 * labels the confirm button (default OK); `cautious` opens it on Cancel.
 */
export function confirmDialog(message: string, detail = '', yes = '', cautious = false): Promise<boolean> {
  resolve?.(false)
  if (!state.open) returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null
  state.open = true
  state.message = message
  state.detail = detail
  state.yes = yes
  state.cautious = cautious
  return new Promise((r) => {
    resolve = r
  })
}

function answer(yes: boolean) {
  state.open = false
  resolve?.(yes)
  resolve = null
}

/** Alert hands other props to its Dialog; its own late focus return is replaced by the effect below. */
const noLateFocusReturn = { shouldReturnFocusOnClose: false } as Partial<AlertProps>

export function ConfirmDialog() {
  const { open, message, detail, yes, cautious } = useSnapshot(state)
  const t = useT()
  // Blueprint returns the focus only when its close transition ends; by then the user may have
  // opened the palette and be typing there, and would lose keystrokes. So it is returned at once.
  useEffect(() => {
    if (open || !returnTo) return
    returnTo.focus()
    returnTo = null
  }, [open])
  return (
    <Alert
      isOpen={open}
      intent="danger"
      icon="warning-sign"
      confirmButtonText={yes || t('common.confirm')}
      cancelButtonText={t('common.cancel')}
      onConfirm={() => answer(true)}
      onCancel={() => answer(false)}
      canEscapeKeyCancel
      {...noLateFocusReturn}
      // Enter answers yes at once: the keyboard user need not Tab to the button. A cautious
      // question opens on Cancel, so a reflex Enter keeps things as they are.
      onOpened={(el) =>
        el
          .querySelector<HTMLButtonElement>(`.bp6-alert-footer ${cautious ? 'button:not(.bp6-intent-danger)' : '.bp6-intent-danger'}`)
          ?.focus()
      }
    >
      <p data-testid="confirm-message">{message}</p>
      {detail && <p className="bp6-text-muted">{detail}</p>}
    </Alert>
  )
}
