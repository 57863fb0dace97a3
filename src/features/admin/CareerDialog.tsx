import { useState, type FormEvent } from 'react'
import { Button, DialogBody, DialogFooter, FormGroup, InputGroup, TextArea } from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import { careerNameMax, careerRemarksMax, type Career } from '../../../contract/organization.ts'
import { useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { BusyButton } from '../../ui/BusyButton.tsx'

/** Create (no career) or edit a career: name (unique whatever its case) and remarks; saves through its command. */
export function CareerDialog({ career, onClose }: { career: Career | null; onClose(): void }) {
  const t = useT()
  const host = useCommandHost()
  const [name, setName] = useState(career?.name ?? '')
  const [remarks, setRemarks] = useState(career?.remarks ?? '')
  const [busy, setBusy] = useState(false)
  const [shown, setShown] = useState(false)
  const nameError = name.trim() === '' ? t('validatorMsg.pleaseInput', [t('org.career.name')]) : null

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (busy) return
    setShown(true)
    if (nameError) return
    const input = { name: name.trim(), remarks: remarks.trim() }
    setBusy(true)
    const res = career
      ? await host.run('admin.editCareer', 'button', { id: career.id, input })
      : await host.run('admin.newCareer', 'button', input)
    setBusy(false)
    if (res.ok) onClose()
  }

  return (
    <Dialog isOpen title={t(career ? 'org.career.editTitle' : 'org.career.newTitle')} onClose={onClose} className="career-dialog">
      <form onSubmit={(e) => void submit(e)}>
        <DialogBody>
          <FormGroup
            label={t('org.career.name')}
            labelFor="career-name"
            labelInfo="*"
            intent={shown && nameError ? 'danger' : 'none'}
            helperText={shown ? nameError : null}
          >
            <InputGroup
              id="career-name"
              autoFocus
              maxLength={careerNameMax}
              value={name}
              intent={shown && nameError ? 'danger' : 'none'}
              onChange={(e) => setName(e.currentTarget.value)}
              data-testid="career-name"
            />
          </FormGroup>
          <FormGroup label={t('org.career.remarks')} labelFor="career-remarks">
            <TextArea
              id="career-remarks"
              fill
              maxLength={careerRemarksMax}
              value={remarks}
              onChange={(e) => setRemarks(e.currentTarget.value)}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="primary" text={t('common.save')} loading={busy} data-testid="career-save" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
