/** The content types of the files data loading answers. */

export const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** The content type of a kept file, by the extension of its name. */
export function contentTypeOf(fileName: string): string {
  if (/\.xlsx$/i.test(fileName)) return xlsxType
  if (/\.csv$/i.test(fileName)) return 'text/csv; charset=utf-8'
  if (/\.xml$/i.test(fileName)) return 'application/xml'
  return 'application/octet-stream'
}
