import { useSnapshot } from 'valtio'
import { invalidation } from '../../state/invalidation.ts'

/** A number that changes whenever someone calls invalidate('templates'): a view reloads on it. */
export function useTemplatesVersion(): number {
  return useSnapshot(invalidation).templates ?? 0
}

/** The id of `?id=` in a view's path, or null. */
export function idOfPath(path: string): number | null {
  const id = Number(new URLSearchParams(path.split('?')[1] ?? '').get('id'))
  return Number.isSafeInteger(id) && id > 0 ? id : null
}

/** A query parameter of a view's path as a positive integer, or null. */
export function intParam(path: string, name: string): number | null {
  const n = Number(new URLSearchParams(path.split('?')[1] ?? '').get(name))
  return Number.isSafeInteger(n) && n > 0 ? n : null
}
