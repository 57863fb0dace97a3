import { proxy } from 'valtio'

/** Bumped by /redirect/<path>: the view of that tab remounts (SPEC §2 refresh helper). */
export const refreshKeys = proxy<Record<string, number>>({})

export function refresh(path: string): void {
  refreshKeys[path] = (refreshKeys[path] ?? 0) + 1
}
