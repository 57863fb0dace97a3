import { useState } from 'react'
import { DialogBody, Icon, NonIdealState } from '@blueprintjs/core'
import { Dialog } from '../../../ui/Dialog.tsx'
import type { Attachment } from '../../../../contract/attachments.ts'
import { useT } from '../../../i18n/useT.ts'
import { useAttachmentImage } from './useAttachmentImage.ts'

/** One picture as a thumbnail button; Enter or a click shows it whole in a dialog. */
export function PictureThumb({ attachment, size = 64 }: { attachment: Attachment; size?: number }) {
  const t = useT()
  const url = useAttachmentImage(attachment.path)
  const [viewing, setViewing] = useState(false)
  const label = `${t('attachments.view')}: ${attachment.name}`
  return (
    <>
      <button
        type="button"
        className="attachment-thumb"
        style={{ width: size + 2, height: size + 2 }}
        aria-label={label}
        title={attachment.name}
        onClick={() => setViewing(true)}
        disabled={url === null}
        data-testid={`attachment-thumb-${attachment.id}`}
      >
        {url === 'failed' ? (
          <Icon icon="media" title={t('attachments.loadFailed')} />
        ) : url ? (
          <img src={url} alt={attachment.name} width={size} height={size} />
        ) : null}
      </button>
      {viewing && (
        <Dialog isOpen title={attachment.name} onClose={() => setViewing(false)}>
          <DialogBody>
            {url && url !== 'failed' ? (
              <img src={url} alt={attachment.name} className="attachment-full" />
            ) : (
              <NonIdealState icon="media" title={t('attachments.loadFailed')} />
            )}
          </DialogBody>
        </Dialog>
      )}
    </>
  )
}
