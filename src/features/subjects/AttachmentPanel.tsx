import { useRef, useState } from 'react'
import { Card, H5, NonIdealState, ProgressBar, Spinner } from '@blueprintjs/core'
import { attachmentLimits, type Attachment } from '../../../contract/attachments.ts'
import { useApi } from '../../api/query.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { formatTime } from '../../lib/time.ts'
import { BusyButton } from '../../ui/BusyButton.tsx'
import { useFocusAfterRemoval } from '../../ui/focusAfterRemoval.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { isEnabled } from '../../../commands/registry.ts'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { listAttachments } from './attachments/listAttachments.ts'
import { PictureThumb } from './attachments/PictureThumb.tsx'

/**
 * The pictures of a research object, or of one of its records: each with who uploaded it and
 * when, to view, download or delete; and an upload with progress. The detail screen mounts it.
 */
export function AttachmentPanel({ studyId, subjectId, recordId }: { studyId: number; subjectId: number; recordId?: number }) {
  const t = useT()
  const lang = useLang()
  const host = useCommandHost()
  const input = useRef<HTMLInputElement>(null)
  const uploadButton = useRef<HTMLButtonElement>(null)
  const [progress, setProgress] = useState<number | null>(null)
  const list = useApi(['attachments', studyId, subjectId, recordId ?? null, null], (signal) =>
    listAttachments({ studyId, subjectId, recordId }, signal),
  )

  // A deleted picture's row leaves with the focus: it goes to the row now in its place, else to Upload.
  const rows = useFocusAfterRemoval<HTMLUListElement>(list.data, '[data-testid="cmd-attachments.delete"]', () => uploadButton.current)

  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = ''
    if (!file) return
    setProgress(0)
    try {
      await host.run('attachments.upload', 'button', { studyId, subjectId, recordId, file, onProgress: setProgress })
    } finally {
      setProgress(null)
    }
  }

  const row = (a: Attachment) => (
    <li key={a.id} className="attachment-row" data-testid={`attachment-${a.id}`}>
      <PictureThumb attachment={a} />
      <div className="attachment-meta">
        <div className="attachment-name">{a.name}</div>
        <div className="bp6-text-muted">
          {t('attachments.uploadedBy', [a.createdBy, formatTime(a.createdAt, undefined, lang) ?? a.createdAt])} ·{' '}
          {t('attachments.size', [Math.max(1, Math.round(a.size / 1024))])}
        </div>
      </div>
      <CommandButton id="attachments.download" args={{ studyId, attachmentId: a.id }} icon="download" variant="minimal" iconOnly />
      <CommandButton
        id="attachments.delete"
        args={{ studyId, subjectId, attachmentId: a.id, name: a.name }}
        icon="trash"
        intent="danger"
        variant="minimal"
        iconOnly
      />
    </li>
  )

  return (
    <Card className="attachment-panel" data-testid="attachment-panel">
      <div className="attachment-head">
        <H5>{t('attachments.title')}</H5>
        <input
          ref={input}
          type="file"
          hidden
          accept={attachmentLimits.accept}
          onChange={(e) => void pick(e.currentTarget.files?.[0])}
          data-testid="attachment-input"
        />
        <BusyButton
          ref={uploadButton}
          icon="upload"
          text={progress !== null ? t('image.uploading') : t('image.upload')}
          loading={progress !== null}
          disabled={!isEnabled(host.command('attachments.upload'), host.context())}
          onClick={() => input.current?.click()}
          data-testid="attachment-upload"
        />
      </div>
      {progress !== null && <ProgressBar value={progress} intent="primary" />}
      {list.data === undefined ? (
        list.loading ? (
          <Spinner size={20} />
        ) : null
      ) : list.data.length === 0 ? (
        <NonIdealState icon="media" description={t('attachments.empty')} />
      ) : (
        <ul ref={rows.ref} className="attachment-list" onFocus={rows.onFocus}>
          {list.data.map(row)}
        </ul>
      )}
    </Card>
  )
}
