import { download } from '../../../api/client.ts'

/** A stored picture as a blob: <img> cannot send the session header, so it shows a blob URL. */
export async function fetchPicture(path: string): Promise<Blob> {
  return (await download(path, undefined, { toast: false })).blob
}
