import { getToken } from '../state/session.ts'
import { TOKEN_HEADER, ApiError, type Query } from './client.ts'

/**
 * Fetches a file answer (an export) with the session header and hands it to the browser as a
 * download. A failure answers the server's envelope message like any other call.
 */
export async function download(path: string, query: Query = {}): Promise<void> {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.append(k, String(v))
  const url = `/${path.replace(/^\/+/, '')}${params.size ? `?${params}` : ''}`
  const token = getToken()
  const res = await fetch(url, { headers: token ? { [TOKEN_HEADER]: token } : {} })
  if (!res.ok) {
    const text = await res.text()
    let msg = `HTTP ${res.status}`
    try {
      msg = (JSON.parse(text) as { msg?: string }).msg ?? msg
    } catch {
      // not an envelope: keep the status
    }
    throw new ApiError({ message: msg, kind: 'http', method: 'GET', url: path, status: res.status })
  }
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '')?.[1]
  const blob = await res.blob()
  const a = document.createElement('a')
  a.href = URL.createObjectURL(blob)
  a.download = name ? decodeURIComponent(name) : 'download'
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000)
}
