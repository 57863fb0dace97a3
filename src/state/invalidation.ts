import { proxy } from 'valtio'

/** A counter per resource; a view reloads when the counter of what it shows changes. */
export const invalidation = proxy<Record<string, number>>({})

export function invalidate(resource: string): void {
  invalidation[resource] = (invalidation[resource] ?? 0) + 1
}
