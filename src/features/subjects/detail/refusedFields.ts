/**
 * The fields a refused save was refused for (the server's 400, by fieldPath), while the user
 * edits: a field's message goes once its value changes, a sub-form row's once rows are added or
 * removed there (its position, and so its path, may name another row by then).
 */
import type { FieldValue, FormData, FormErrors } from '../../../../contract/formValues.ts'

function valueAt(data: FormData, path: string): FieldValue | undefined {
  const [where, a = '', b = '', c = ''] = path.split(':')
  return where === 'f' ? data.values[a] : data.rows[a]?.[Number(b)]?.[c]
}

const rowCount = (data: FormData, path: string) => (path.startsWith('r:') ? data.rows[path.split(':')[1] ?? '']?.length : 0)

export function stillRefused(refused: FormErrors, before: FormData, after: FormData): FormErrors {
  const kept = Object.entries(refused).filter(
    ([path]) =>
      rowCount(before, path) === rowCount(after, path) && JSON.stringify(valueAt(before, path)) === JSON.stringify(valueAt(after, path)),
  )
  return kept.length === Object.keys(refused).length ? refused : Object.fromEntries(kept)
}
