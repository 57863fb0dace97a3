import { useState, type FormEvent } from 'react'
import { Button, DialogBody, DialogFooter, FormGroup, Radio, RadioGroup, TextArea } from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import { sampleLimits, sampleStatuses, type Sample, type SampleStatus } from '../../../contract/samples.ts'
import { useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { BusyButton } from '../../ui/BusyButton.tsx'

/** Available, used or destroyed; destroying is final and asks for a reason, as the server does. */
export function SampleStatusDialog({ studyId, sample, onClose }: { studyId: number; sample: Sample; onClose(): void }) {
  const t = useT()
  const host = useCommandHost()
  const [status, setStatus] = useState<SampleStatus>(sample.status)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [shown, setShown] = useState(false)
  const reasonError = status === 'destroyed' && reason.trim() === '' ? t('samples.dialog.reasonHint') : null

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (busy) return
    setShown(true)
    if (reasonError) return
    setBusy(true)
    const res = await host.run('samples.setStatus', 'button', { studyId, sampleId: sample.id, change: { status, reason: reason.trim() } })
    setBusy(false)
    if (res.ok) onClose()
  }

  return (
    <Dialog isOpen title={t('samples.dialog.statusTitle', [sample.sampleNo])} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} data-testid="sample-status-dialog">
        <DialogBody>
          <RadioGroup
            label={t('samples.field.status')}
            selectedValue={status}
            onChange={(e) => setStatus(e.currentTarget.value as SampleStatus)}
          >
            {sampleStatuses.map((s) => (
              <Radio
                key={s}
                value={s}
                label={t(`samples.statuses.${s}`)}
                data-testid={`sample-status-${s}`}
                // The status it has now takes the focus: the arrows choose another, Tab goes on to the reason.
                autoFocus={s === sample.status}
              />
            ))}
          </RadioGroup>
          <FormGroup
            label={t('samples.field.reason')}
            labelFor="sample-reason"
            labelInfo={status === 'destroyed' ? '*' : undefined}
            intent={shown && reasonError ? 'danger' : 'none'}
            helperText={shown && reasonError ? reasonError : undefined}
          >
            <TextArea
              id="sample-reason"
              fill
              maxLength={sampleLimits.reason}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              data-testid="sample-reason"
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="primary" text={t('common.save')} loading={busy} data-testid="sample-status-save" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
