import { useState } from 'react'
import { Button, Callout, DialogBody, DialogFooter, InputGroup } from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import type { OneTimePassword } from '../../../contract/users.ts'
import { useT } from '../../i18n/useT.ts'

/**
 * Shows a one-time password ONCE, after a create or a reset: nothing keeps it after the dialog
 * closes, and it cannot be closed by a click outside, so it is not lost by accident.
 */
export function UserOneTimePasswordDialog({ otp, onClose }: { otp: OneTimePassword & { reset: boolean }; onClose(): void }) {
  const t = useT()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    await navigator.clipboard.writeText(otp.password)
    setCopied(true)
  }
  return (
    <Dialog isOpen title={t('admin.otp.title')} onClose={onClose} canOutsideClickClose={false}>
      <div data-testid="one-time-password-dialog">
        <DialogBody>
          <p>{t(otp.reset ? 'admin.otp.reset' : 'admin.otp.created', [otp.username])}</p>
          <InputGroup
            readOnly
            value={otp.password}
            aria-label={t('admin.otp.title')}
            className="one-time-password"
            data-testid="one-time-password"
            onFocus={(e) => e.currentTarget.select()}
            rightElement={
              <Button
                icon={copied ? 'tick' : 'clipboard'}
                variant="minimal"
                text={t(copied ? 'admin.otp.copied' : 'admin.otp.copy')}
                onClick={() => void copy().catch(() => undefined)}
                data-testid="one-time-password-copy"
              />
            }
          />
          <Callout intent="warning" className="one-time-password-note">
            {t('admin.otp.note')}
          </Callout>
        </DialogBody>
        <DialogFooter
          actions={<Button intent="primary" text={t('admin.otp.done')} onClick={onClose} data-testid="one-time-password-done" />}
        />
      </div>
    </Dialog>
  )
}
