/**
 * Which of the project's forms the detail shows and in what order (per user per project):
 * a checkbox per form, moved up and down with the buttons or Alt+↑ / Alt+↓ on its checkbox.
 */
import { useState } from 'react'
import { Button, Checkbox, DialogBody, DialogFooter } from '@blueprintjs/core'
import { Dialog } from '../../../ui/Dialog.tsx'
import type { DisplayForm } from '../../../../contract/studyData.ts'
import { invalidate } from '../../../api/query.ts'
import { useT } from '../../../i18n/useT.ts'
import { toast } from '../../../ui/toaster.ts'
import { saveDisplayForms } from './api/saveDisplayForms.ts'
import { BusyButton } from '../../../ui/BusyButton.tsx'

export function DisplayFormsDialog({ studyId, forms, onClose }: { studyId: number; forms: readonly DisplayForm[]; onClose(): void }) {
  const t = useT()
  const [list, setList] = useState(() => forms.map((f) => ({ templateId: f.templateId, name: f.name, shown: f.shown })))
  const [busy, setBusy] = useState(false)
  const move = (i: number, by: -1 | 1) => {
    const j = i + by
    if (j < 0 || j >= list.length) return
    const next = [...list]
    ;[next[i], next[j]] = [next[j]!, next[i]!]
    setList(next)
    requestAnimationFrame(() => document.getElementById(`display-form-${next[j]!.templateId}`)?.focus())
  }
  const save = async () => {
    setBusy(true)
    try {
      await saveDisplayForms({ studyId, forms: list.map(({ templateId, shown }) => ({ templateId, shown })) })
      invalidate('subjectForms')
      toast(t('dataEntry.displayForms.saved'), 'success')
      onClose()
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog isOpen onClose={onClose} title={t('dataEntry.displayForms.title')} data-testid="display-forms-dialog">
      <DialogBody>
        <ol className="entry-display-forms">
          {list.map((f, i) => (
            <li key={f.templateId}>
              <Checkbox
                id={`display-form-${f.templateId}`}
                // The first form takes the focus, not the dialog's frame: Space and Alt+↑/↓ work at once.
                autoFocus={i === 0}
                checked={f.shown}
                label={f.name}
                onChange={() => setList(list.map((x) => (x === f ? { ...x, shown: !x.shown } : x)))}
                onKeyDown={(e) => {
                  if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return
                  e.preventDefault()
                  move(i, e.key === 'ArrowUp' ? -1 : 1)
                }}
              />
              <Button
                size="small"
                variant="minimal"
                icon="arrow-up"
                aria-label={t('dataEntry.displayForms.up', [f.name])}
                disabled={i === 0}
                onClick={() => move(i, -1)}
              />
              <Button
                size="small"
                variant="minimal"
                icon="arrow-down"
                aria-label={t('dataEntry.displayForms.down', [f.name])}
                disabled={i === list.length - 1}
                onClick={() => move(i, 1)}
              />
            </li>
          ))}
        </ol>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} />
            <BusyButton intent="primary" text={t('common.save')} loading={busy} onClick={() => void save()} />
          </>
        }
      />
    </Dialog>
  )
}
