import { useState, type FormEvent } from 'react'
import { Button, DialogBody, DialogFooter, FormGroup, TextArea } from '@blueprintjs/core'
import { Dialog } from '../../ui/Dialog.tsx'
import { projectLimits, type Application, type ProjectRole } from '../../../contract/projects.ts'
import { useT } from '../../i18n/useT.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { RoleSelect } from './RoleSelect.tsx'
import { BusyButton } from '../../ui/BusyButton.tsx'

/** Approve an application with the role to grant (the wished one by default): runs the approve command. */
export function ApproveDialog({
  projectId,
  application,
  roles,
  onClose,
}: {
  projectId: number
  application: Application
  roles: readonly ProjectRole[]
  onClose(): void
}) {
  const t = useT()
  const host = useCommandHost()
  const [roleId, setRoleId] = useState<number | null>(application.roleId ?? roles.find((r) => r.builtin === null)?.id ?? null)
  const [busy, setBusy] = useState(false)

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (busy || roleId === null) return
    setBusy(true)
    const res = await host.run('projectMembers.approve', 'button', { id: projectId, applicationId: application.id, roleId })
    setBusy(false)
    if (res.ok) onClose()
  }

  return (
    <Dialog isOpen title={t('projectMembers.application.approveTitle', [application.name])} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} data-testid="approve-dialog">
        <DialogBody>
          <p>{application.reason}</p>
          <FormGroup
            label={t('projectMembers.application.grantRole')}
            labelFor="approve-role"
            labelInfo="*"
            intent={roleId === null ? 'danger' : 'none'}
            helperText={roleId === null ? t('projectMembers.member.pickRole') : null}
          >
            <RoleSelect
              id="approve-role"
              autoFocus
              roles={roles}
              value={roleId}
              onChange={setRoleId}
              prompt={t('projectMembers.member.pickRole')}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton
                type="submit"
                intent="primary"
                loading={busy}
                disabled={roleId === null}
                text={t('common.confirm')}
                data-testid="approve-save"
              />
            </>
          }
        />
      </form>
    </Dialog>
  )
}

/** Refuse an application: the reason is required (the applicant reads it). Runs the refuse command. */
export function RefuseDialog({ projectId, application, onClose }: { projectId: number; application: Application; onClose(): void }) {
  const t = useT()
  const host = useCommandHost()
  const [reason, setReason] = useState('')
  const [shown, setShown] = useState(false)
  const [busy, setBusy] = useState(false)
  const error = reason.trim() === '' ? t('validatorMsg.pleaseInput', [t('projectMembers.application.refuseReason')]) : null

  const submit = async (e?: FormEvent) => {
    e?.preventDefault()
    if (busy) return
    setShown(true)
    if (error) return
    setBusy(true)
    const res = await host.run('projectMembers.refuse', 'button', { id: projectId, applicationId: application.id, reason: reason.trim() })
    setBusy(false)
    if (res.ok) onClose()
  }

  return (
    <Dialog isOpen title={t('projectMembers.application.refuseTitle', [application.name])} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} data-testid="refuse-dialog">
        <DialogBody>
          <FormGroup
            label={t('projectMembers.application.refuseReason')}
            labelFor="refuse-reason"
            labelInfo="*"
            intent={shown && error ? 'danger' : 'none'}
            helperText={shown ? error : null}
          >
            <TextArea
              id="refuse-reason"
              autoFocus
              fill
              maxLength={projectLimits.reason}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              data-testid="refuse-reason"
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <BusyButton type="submit" intent="danger" loading={busy} text={t('common.confirm')} data-testid="refuse-save" />
            </>
          }
        />
      </form>
    </Dialog>
  )
}
