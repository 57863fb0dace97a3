import { useEffect, useRef, useState } from 'react'
import { DialogBody, NonIdealState, ProgressBar } from '@blueprintjs/core'
import { BusyButton } from '../../ui/BusyButton.tsx'
import { Dialog } from '../../ui/Dialog.tsx'
import { pictureLimits } from '../../../contract/users.ts'
import { useLang, useT } from '../../i18n/useT.ts'
import { toast } from '../../ui/toaster.ts'
import { deletePicture } from './api/deletePicture.ts'
import { fetchPicture } from './api/fetchPicture.ts'
import { uploadPicture } from './api/uploadPicture.ts'

const acceptedTypes = ['image/jpeg', 'image/jpg', 'image/png', 'image/bmp']

/**
 * The picture field of SPEC §2 for a user's avatar: one image; upload when empty, view and delete
 * when filled; disabled when the person is. The SPEC checks (type, 5 MB) run here first so a
 * wrong file never travels; the server checks the content again.
 */
export function UserPicture({
  userId,
  path,
  disabled,
  onChange,
}: {
  userId: number
  path: string
  disabled: boolean
  onChange(path: string): void
}) {
  const t = useT()
  const lang = useLang()
  const input = useRef<HTMLInputElement>(null)
  const root = useRef<HTMLDivElement>(null)
  const thumb = useRef<HTMLButtonElement>(null)
  const uploadButton = useRef<HTMLButtonElement>(null)
  const refocus = useRef(false)
  const [url, setUrl] = useState<string | null>(null)
  const [busy, setBusy] = useState<'uploading' | 'deleting' | null>(null)
  const [progress, setProgress] = useState(0)
  const [viewing, setViewing] = useState(false)

  useEffect(() => {
    if (!path) {
      setUrl(null)
      return
    }
    let live = true
    let made: string | null = null
    fetchPicture(path).then(
      (blob) => {
        if (!live) return
        made = URL.createObjectURL(blob)
        setUrl(made)
      },
      () => live && setUrl(null),
    )
    return () => {
      live = false
      if (made) URL.revokeObjectURL(made)
    }
  }, [path])

  // An upload or a delete swaps the button that had the focus for another: the focus follows, to the
  // new picture or to Upload, unless it went elsewhere meanwhile.
  useEffect(() => {
    if (!refocus.current) return
    refocus.current = false
    ;(path ? thumb : uploadButton).current?.focus()
  }, [path])
  const changed = (next: string) => {
    refocus.current = root.current?.contains(document.activeElement) ?? false
    onChange(next)
  }

  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = ''
    if (!file) return
    if (!acceptedTypes.includes(file.type)) return toast(t('image.typeError'), 'danger')
    if (file.size > pictureLimits.maxBytes) return toast(t('image.sizeError'), 'danger')
    setBusy('uploading')
    setProgress(0)
    try {
      changed(await uploadPicture(userId, file, lang, setProgress))
      toast(t('image.saveSuccess'), 'success')
    } catch (e) {
      toast(e instanceof Error && e.message && !/^\d+$/.test(e.message) ? e.message : t('image.saveFailed'), 'danger')
    } finally {
      setBusy(null)
    }
  }

  const remove = async () => {
    setBusy('deleting')
    try {
      await deletePicture(userId)
      changed('')
      toast(t('image.deleteSuccess'), 'success')
    } catch {
      // The client showed the server's message.
    } finally {
      setBusy(null)
    }
  }

  return (
    <div className="user-picture" data-testid="user-picture" ref={root}>
      {path ? (
        <>
          <button
            ref={thumb}
            type="button"
            className="user-picture-thumb"
            aria-label={t('admin.user.field.image')}
            onClick={() => setViewing(true)}
            data-testid="picture-view"
          >
            {url ? <img src={url} alt={t('admin.user.field.image')} width={64} height={64} /> : null}
          </button>
          <BusyButton
            icon="trash"
            variant="minimal"
            intent="danger"
            text={busy === 'deleting' ? t('image.deleting') : t('common.delete')}
            loading={busy === 'deleting'}
            disabled={disabled}
            onClick={() => void remove()}
            data-testid="picture-delete"
          />
        </>
      ) : (
        <>
          <input
            ref={input}
            type="file"
            hidden
            accept={pictureLimits.accept}
            onChange={(e) => void pick(e.currentTarget.files?.[0])}
            data-testid="picture-input"
          />
          <BusyButton
            ref={uploadButton}
            icon="upload"
            text={busy === 'uploading' ? t('image.uploading') : t('image.upload')}
            loading={busy === 'uploading'}
            disabled={disabled}
            onClick={() => input.current?.click()}
            data-testid="picture-upload"
          />
          {busy === 'uploading' && <ProgressBar value={progress} intent="primary" className="user-picture-progress" />}
        </>
      )}
      {viewing && (
        <Dialog isOpen title={t('admin.user.field.image')} onClose={() => setViewing(false)}>
          <DialogBody>
            {url ? <img src={url} alt={t('admin.user.field.image')} className="user-picture-full" /> : <NonIdealState icon="media" />}
          </DialogBody>
        </Dialog>
      )}
    </div>
  )
}
