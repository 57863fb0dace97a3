/**
 * The Content-Disposition of every file a route answers, with the name twice: an ASCII stand-in
 * for old clients, and the real one (Chinese CRF and file names) as RFC 5987 `filename*`, which
 * every current browser prefers. `inline` shows the file in the browser, `attachment` saves it.
 */
export function contentDisposition(fileName: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  // encodeURIComponent leaves ' ( ) * as they are; RFC 5987's attr-char does not allow them.
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
