import { picturePath, pictureTypes, userPaths } from '../../../../contract/users.ts'
import { TOKEN_HEADER } from '../../../api/client.ts'
import { getToken } from '../../../state/session.ts'

/**
 * The picture field's upload (SPEC §2, §7 Image): multipart with type 3 and objectId, progress
 * reported as it goes (fetch cannot report upload progress, so this one call uses XHR); answers
 * data.path, or rejects with the server's message in the caller's language.
 */
export function uploadPicture(userId: number, file: File, lang: string, onProgress: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    const query = new URLSearchParams({ type: String(pictureTypes.userAvatar), objectId: String(userId) })
    xhr.open('POST', `/${userPaths.pictureUpload}?${query.toString()}`)
    const token = getToken()
    if (token) xhr.setRequestHeader(TOKEN_HEADER, token)
    xhr.setRequestHeader('Accept-Language', lang)
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total)
    }
    xhr.onload = () => {
      let body: { code?: number; msg?: string; data?: unknown } = {}
      try {
        body = JSON.parse(xhr.responseText) as typeof body
      } catch {
        // Not an envelope: the message below says the upload failed.
      }
      const parsed = picturePath.safeParse(body.data)
      if (xhr.status === 200 && body.code === 0 && parsed.success) resolve(parsed.data.path)
      else reject(new Error(body.msg ?? String(xhr.status)))
    }
    xhr.onerror = () => reject(new Error(String(xhr.status)))
    const form = new FormData()
    form.append('file', file)
    xhr.send(form)
  })
}
