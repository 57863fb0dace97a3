import { download, type Query } from './client.ts'

/**
 * Fetches a file answer (an export) through the one client (session header, language, SPEC §8)
 * and hands it to the browser as a download.
 */
export async function saveDownload(path: string, query: Query = {}): Promise<void> {
  const { blob, filename } = await download(path, query)
  const a = document.createElement('a')
  a.href = URL.createObjectURL(blob)
  a.download = filename ?? 'download'
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000)
}
