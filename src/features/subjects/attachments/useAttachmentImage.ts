import { useEffect, useState } from 'react'
import { download } from '../../../api/client.ts'

/**
 * An object URL of the picture at `path` (fetched with the session header, as the download is
 * scoped to who may read the subject), revoked when the path changes or the view goes;
 * 'failed' when it cannot be read.
 */
export function useAttachmentImage(path: string | null): string | null | 'failed' {
  const [url, setUrl] = useState<string | null | 'failed'>(null)
  useEffect(() => {
    setUrl(null)
    if (!path) return
    let live = true
    let made: string | null = null
    download(path, undefined, { toast: false }).then(
      ({ blob }) => {
        if (!live) return
        made = URL.createObjectURL(blob)
        setUrl(made)
      },
      () => live && setUrl('failed'),
    )
    return () => {
      live = false
      if (made) URL.revokeObjectURL(made)
    }
  }, [path])
  return url
}
