import { useState, type FormEvent } from 'react'
import { Button, Callout, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import { useSnapshot } from 'valtio'
import { hasErrors, validateChangePassword } from '../../lib/validators.ts'
import { ui } from '../../state/ui.ts'
import { session } from '../../state/session.ts'
import { useT } from '../../i18n/useT.ts'
import { toast } from '../../ui/toaster.ts'
import { changePassword } from './api/changePassword.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'

type Field = 'oldPassword' | 'newPassword' | 'confirmPassword'
type Values = Record<Field, string>

const empty: Values = { oldPassword: '', newPassword: '', confirmPassword: '' }
const untouched: Record<Field, boolean> = { oldPassword: false, newPassword: false, confirmPassword: false }
const allTouched: Record<Field, boolean> = { oldPassword: true, newPassword: true, confirmPassword: true }

/**
 * Opened from the user menu or the palette; an outside click does not close it (SPEC §2).
 * `forced`: an administrator set the password, the server refuses everything else until it is
 * changed, so the dialog stays open and cannot be dismissed (signing out remains).
 */
export function ChangePasswordDialog({ forced = false, onSignOut }: { forced?: boolean; onSignOut?: () => void }) {
  const { changePasswordOpen } = useSnapshot(ui)
  const t = useT()
  const [values, setValues] = useState<Values>(empty)
  const [touched, setTouched] = useState(untouched)
  const [busy, setBusy] = useState(false)
  const errors = validateChangePassword(values, t)

  const close = () => {
    if (forced) return
    ui.changePasswordOpen = false
    setValues(empty)
    setTouched(untouched)
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    setTouched(allTouched)
    if (hasErrors(errors) || session.userId === null) return
    setBusy(true)
    try {
      const res = await changePassword({ id: session.userId, oldPwd: values.oldPassword, password: values.newPassword })
      toast(res.msg, 'success')
      // SPEC §9: the success message stays 0.8 s, then the dialog closes.
      setTimeout(forced ? () => (session.mustChangePassword = false) : close, 800)
    } catch {
      // The API client has shown the server's message as an error toast.
    } finally {
      setBusy(false)
    }
  }

  const field = (name: Field, label: string, autoComplete: string, helper?: string) => {
    const error = touched[name] ? errors[name] : null
    return (
      <FormGroup label={label} labelFor={`pwd-${name}`} labelInfo="*" intent={error ? 'danger' : 'none'} helperText={error ?? helper}>
        <InputGroup
          id={`pwd-${name}`}
          type="password"
          autoComplete={autoComplete}
          value={values[name]}
          intent={error ? 'danger' : 'none'}
          data-testid={`pwd-${name}`}
          onChange={(ev) => setValues((v) => ({ ...v, [name]: ev.target.value }))}
          onBlur={() => setTouched((x) => ({ ...x, [name]: true }))}
        />
      </FormGroup>
    )
  }

  return (
    <Dialog
      isOpen={forced || changePasswordOpen}
      onClose={close}
      title={t('changePwd.title')}
      icon="key"
      canOutsideClickClose={false}
      canEscapeKeyClose={!forced}
      isCloseButtonShown={!forced}
    >
      <form onSubmit={submit} noValidate data-testid="change-password-form">
        <DialogBody>
          {forced ? (
            <Callout intent="warning" className="forced-password-note" data-testid="forced-password-note">
              {t('changePwd.forced')}
            </Callout>
          ) : null}
          {field('oldPassword', t('changePwd.oldPassword'), 'current-password')}
          {field('newPassword', t('changePwd.newPassword'), 'new-password', t('changePwd.hint'))}
          {field('confirmPassword', t('changePwd.confirmPassword'), 'new-password')}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              {forced ? (
                <Button text={t('changePwd.signOut')} onClick={onSignOut} data-testid="pwd-sign-out" />
              ) : (
                <Button text={t('common.cancel')} onClick={close} />
              )}
              <BusyButton type="submit" intent="primary" loading={busy} text={t('common.confirm')} data-testid="pwd-submit" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
