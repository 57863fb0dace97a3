import { useRef, useState } from 'react'
import { Button, ProgressBar, Spinner } from '@blueprintjs/core'
import { attachmentLimits, type Attachment } from '../../../contract/attachments.ts'
import { useApi } from '../../api/query.ts'
import { useT } from '../../i18n/useT.ts'
import { isEnabled } from '../../../commands/registry.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { listAttachments } from './attachments/listAttachments.ts'
import { PictureThumb } from './attachments/PictureThumb.tsx'

export interface PictureFieldProps {
  studyId: number
  subjectId: number
  /** The record, and the field of it, that holds the picture (one per field: the server refuses a second). */
  recordId: number
  indicatorId: number
  /** The object is disabled (SPEC §2): no upload, no delete. */
  disabled?: boolean
}

/**
 * The picture field of SPEC §2 for a research object: one image at a time; upload when empty
 * (with progress), view and delete when filled; disabled if the object is. Upload and delete run
 * the attachments commands, so button, palette and hotkey do the same thing.
 */
export function PictureField({ studyId, subjectId, recordId, indicatorId, disabled = false }: PictureFieldProps) {
  const t = useT()
  const host = useCommandHost()
  const input = useRef<HTMLInputElement>(null)
  const [busy, setBusy] = useState<'uploading' | 'deleting' | null>(null)
  const [progress, setProgress] = useState(0)
  const where = { studyId, subjectId, recordId, indicatorId }
  // Without the grant (or away from a subject) the commands would refuse: the buttons say so first.
  const may = (id: string) => isEnabled(host.command(id), host.context())
  const list = useApi(['attachments', studyId, subjectId, recordId ?? null, indicatorId ?? null], (signal) =>
    listAttachments(where, signal),
  )
  // A field holds one picture; a subject's or record's slot shows the latest.
  const picture: Attachment | undefined = indicatorId !== undefined ? list.data?.[0] : list.data?.at(-1)

  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = ''
    if (!file) return
    setBusy('uploading')
    setProgress(0)
    try {
      await host.run('attachments.upload', 'button', { ...where, file, onProgress: setProgress })
    } finally {
      setBusy(null)
    }
  }

  const remove = async (a: Attachment) => {
    setBusy('deleting')
    try {
      await host.run('attachments.delete', 'button', { studyId, subjectId, attachmentId: a.id, name: a.name })
    } finally {
      setBusy(null)
    }
  }

  if (list.data === undefined) return list.loading ? <Spinner size={20} /> : null
  return (
    <div className="picture-field" data-testid="picture-field">
      {picture ? (
        <>
          <PictureThumb attachment={picture} />
          <Button
            icon="trash"
            variant="minimal"
            intent="danger"
            text={busy === 'deleting' ? t('image.deleting') : t('common.delete')}
            loading={busy === 'deleting'}
            disabled={disabled || busy !== null || !may('attachments.delete')}
            onClick={() => void remove(picture)}
            data-testid="picture-field-delete"
          />
        </>
      ) : (
        <>
          <input
            ref={input}
            type="file"
            hidden
            accept={attachmentLimits.accept}
            onChange={(e) => void pick(e.currentTarget.files?.[0])}
            data-testid="picture-field-input"
          />
          <Button
            icon="upload"
            text={busy === 'uploading' ? t('image.uploading') : t('image.upload')}
            disabled={disabled || busy !== null || !may('attachments.upload')}
            onClick={() => input.current?.click()}
            data-testid="picture-field-upload"
          />
          {busy === 'uploading' && <ProgressBar value={progress} intent="primary" className="picture-field-progress" />}
        </>
      )}
    </div>
  )
}
