import { useEffect, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { invalidation } from '../../state/invalidation.ts'

export interface Loaded<T> {
  data: T | undefined
  error: unknown
  loading: boolean
}

/**
 * Loads something for a screen and loads it again when `deps` change or when one of `resources`
 * is invalidated (a command changed it). The previous data stays shown while the next comes; an
 * answer that arrives after a newer request started is dropped.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[], resources: readonly string[] = []): Loaded<T> {
  const counters = useSnapshot(invalidation)
  const stamp = resources.map((r) => counters[r] ?? 0).join(',')
  const [state, setState] = useState<Loaded<T>>({ data: undefined, error: null, loading: true })
  const loadRef = useRef(load)
  loadRef.current = load
  useEffect(() => {
    const controller = new AbortController()
    setState((s) => ({ ...s, loading: true }))
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: null, loading: false })
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ data: s.data, error, loading: false }))
      },
    )
    return () => controller.abort()
  }, [...deps, stamp])
  return state
}

/** The invalidation counter of `resource`: a DenseTable's reloadKey. */
export function useReloadKey(resource: string): number {
  return useSnapshot(invalidation)[resource] ?? 0
}
