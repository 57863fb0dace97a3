import { idValue } from '../../contract/ids.ts'
import { ServiceError } from './errors.ts'

/**
 * The opaque cursor of keyset pages (DESIGN §6): base64url JSON of [sort value, id] of the last
 * row of a page. One module for every list, so every list refuses a forged cursor the same way.
 */
export function encodeCursor(value: string | number, id: number): string {
  return Buffer.from(JSON.stringify([value, id]), 'utf8').toString('base64url')
}

/**
 * The [sort value, id] in a cursor whose sort value is a number (`numeric`) or a string; a 400
 * naming `field` (the query parameter) when it is not one of ours. A forged cursor must not carry
 * what the input checks refuse elsewhere: an id past the database's range or a NUL byte (both
 * fail on PostgreSQL).
 */
export function decodeKeyCursor(cursor: string, numeric: boolean, field = 'after'): [string | number, number] {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    parsed = undefined
  }
  if (Array.isArray(parsed) && parsed.length === 2) {
    const [value, id] = parsed as unknown[]
    const checked = idValue.safeParse(id)
    const valueOk = numeric ? Number.isSafeInteger(value) : typeof value === 'string' && !value.includes('\u0000')
    if (valueOk && checked.success) return [value as string | number, checked.data]
  }
  throw new ServiceError('badRequest', 'field.invalid', [field])
}

/** A cursor whose sort value is a string (most lists). */
export const decodeCursor = (cursor: string, field = 'after') => decodeKeyCursor(cursor, false, field) as [string, number]
