/** What the file answers of data loading share: their content types and the attachment header. */

export const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** The content type of a kept file, by the extension of its name. */
export function contentTypeOf(fileName: string): string {
  if (/\.xlsx$/i.test(fileName)) return xlsxType
  if (/\.csv$/i.test(fileName)) return 'text/csv; charset=utf-8'
  if (/\.xml$/i.test(fileName)) return 'application/xml'
  return 'application/octet-stream'
}

/**
 * `attachment` with the name twice: an ASCII stand-in for old clients, and the real one (Chinese
 * CRF names) as RFC 5987 `filename*`, which every current browser prefers.
 */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
