/**
 * The fields a refused save was refused for (the server's 400, by fieldPath), while the user
 * edits: a field's message goes once its value changes, a sub-form row's once rows are added or
 * removed there (its position, and so its path, may name another row by then).
 */
import { parseFieldPath, type FieldValue, type FormData, type FormErrors } from '../../../../contract/formValues.ts'

function valueAt(data: FormData, path: string): FieldValue | undefined {
  const { section, row, key } = parseFieldPath(path)
  return section === null ? data.values[key] : data.rows[section]?.[row]?.[key]
}

const rowCount = (data: FormData, path: string) => {
  const { section } = parseFieldPath(path)
  return section === null ? 0 : data.rows[section]?.length
}

export function stillRefused(refused: FormErrors, before: FormData, after: FormData): FormErrors {
  const kept = Object.entries(refused).filter(
    ([path]) =>
      rowCount(before, path) === rowCount(after, path) && JSON.stringify(valueAt(before, path)) === JSON.stringify(valueAt(after, path)),
  )
  return kept.length === Object.keys(refused).length ? refused : Object.fromEntries(kept)
}
