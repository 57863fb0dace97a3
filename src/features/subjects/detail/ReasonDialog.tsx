/**
 * The reason a change of stored data needs (a saved value changed, a form deleted, a group
 * revealed, a picture deleted): required, at most the contract's length, kept in the audit trail
 * by the server. A command asks through ctx.ui.reason with its own question.
 */
import { useState } from 'react'
import { Button, DialogBody, DialogFooter, FormGroup, TextArea } from '@blueprintjs/core'
import { Dialog } from '../../../ui/Dialog.tsx'
import { studyDataLimits } from '../../../../contract/studyData.ts'
import { useT } from '../../../i18n/useT.ts'
import { BusyButton } from '../../../ui/BusyButton.tsx'

export function ReasonDialog({
  purpose,
  question,
  detail,
  onDone,
  busy = false,
}: {
  /** Which of the detail's own questions; without it, `question` is asked (a deletion). */
  purpose?: 'save' | 'deleteForm' | 'unblind'
  question?: string
  detail?: string
  /** The reason, or null when the user cancels. */
  onDone(reason: string | null): void
  busy?: boolean
}) {
  const t = useT()
  const [text, setText] = useState('')
  const [tried, setTried] = useState(false)
  const reason = text.trim()
  const problem =
    reason === ''
      ? t('dataEntry.reason.required')
      : reason.length > studyDataLimits.reason
        ? t('dataEntry.reason.tooLong', [studyDataLimits.reason])
        : null
  const submit = () => {
    setTried(true)
    if (problem === null) onDone(reason)
  }
  const danger = purpose !== 'save'
  return (
    <Dialog isOpen onClose={() => onDone(null)} title={t('dataEntry.reason.title')} data-testid="reason-dialog">
      <DialogBody>
        <p data-testid="reason-question">{purpose ? t(`dataEntry.reason.${purpose}`) : question}</p>
        {detail && <p className="bp6-text-muted">{detail}</p>}
        <FormGroup
          label={t('dataEntry.reason.label')}
          labelFor="entry-reason"
          intent={tried && problem ? 'danger' : 'none'}
          helperText={tried ? problem : null}
        >
          <TextArea
            id="entry-reason"
            autoFocus
            fill
            value={text}
            maxLength={studyDataLimits.reason + 1}
            intent={tried && problem ? 'danger' : 'none'}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              // Ctrl+Enter confirms from the text area (Enter is a line break in it).
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault()
                submit()
              }
            }}
            data-testid="reason-input"
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={() => onDone(null)} />
            <BusyButton
              intent={danger ? 'danger' : 'primary'}
              text={t('common.confirm')}
              loading={busy}
              onClick={submit}
              data-testid="reason-ok"
            />
          </>
        }
      />
    </Dialog>
  )
}
