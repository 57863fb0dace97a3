import { useState, type FormEvent } from 'react'
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { passwordProblem } from '../../../contract/password.ts'
import { ui } from '../../state/ui.ts'
import { session } from '../../state/session.ts'
import { useT } from '../../i18n/useT.ts'
import { toast } from '../../ui/toaster.ts'
import { changePassword } from './api/changePassword.ts'

type Field = 'oldPwd' | 'password' | 'confirm'
type Values = Record<Field, string>

const problemKey = {
  required: 'changePwd.newRequired',
  length: 'changePwd.length',
  charset: 'changePwd.charset',
  tooLong: 'changePwd.tooLong',
  sameAsOld: 'changePwd.sameAsOld',
} as const

/** SPEC §5 rules, in the order the dialog reports them; null when the field is fine. */
export function validate(values: Values): Record<Field, { key: string; params?: (string | number)[] } | null> {
  const problem = passwordProblem(values.password, values.oldPwd === '' ? undefined : values.oldPwd)
  return {
    oldPwd: values.oldPwd === '' ? { key: 'changePwd.oldRequired' } : null,
    password: problem ? { key: problemKey[problem], params: [128] } : null,
    confirm: values.confirm === '' || values.confirm !== values.password ? { key: 'changePwd.mismatch' } : null,
  }
}

const empty: Values = { oldPwd: '', password: '', confirm: '' }

/** Opened from the user menu or the palette; an outside click does not close it (SPEC §2). */
export function ChangePasswordDialog() {
  const { changePasswordOpen } = useSnapshot(ui)
  const t = useT()
  const [values, setValues] = useState<Values>(empty)
  const [touched, setTouched] = useState<Record<Field, boolean>>({ oldPwd: false, password: false, confirm: false })
  const [busy, setBusy] = useState(false)
  const errors = validate(values)

  const close = () => {
    ui.changePasswordOpen = false
    setValues(empty)
    setTouched({ oldPwd: false, password: false, confirm: false })
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    setTouched({ oldPwd: true, password: true, confirm: true })
    if (errors.oldPwd || errors.password || errors.confirm || session.userId === null) return
    setBusy(true)
    try {
      const res = await changePassword({ id: session.userId, oldPwd: values.oldPwd, password: values.password })
      toast(res.msg, 'success')
      // SPEC §9: the success message stays 0.8 s, then the dialog closes.
      setTimeout(close, 800)
    } catch {
      // The API client has shown the server's message as an error toast.
    } finally {
      setBusy(false)
    }
  }

  const field = (name: Field, label: string, autoComplete: string, helper?: string) => {
    const error = touched[name] ? errors[name] : null
    return (
      <FormGroup
        label={label}
        labelFor={`pwd-${name}`}
        labelInfo="*"
        intent={error ? 'danger' : 'none'}
        helperText={error ? t(error.key, error.params) : helper}
      >
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
      isOpen={changePasswordOpen}
      onClose={close}
      title={t('changePwd.title')}
      icon="key"
      canOutsideClickClose={false}
    >
      <form onSubmit={submit} noValidate data-testid="change-password-form">
        <DialogBody>
          {field('oldPwd', t('changePwd.oldPassword'), 'current-password')}
          {field('password', t('changePwd.newPassword'), 'new-password', t('changePwd.hint'))}
          {field('confirm', t('changePwd.confirmPassword'), 'new-password')}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={close} />
              <Button type="submit" intent="primary" loading={busy} text={t('common.confirm')} data-testid="pwd-submit" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
