/**
 * The one way a screen loads data (TanStack Query). A query's key starts with the resource it
 * reads ('indicators', 'templates', …); `invalidate(resource)` reloads every query of it that is
 * on screen, keeping what is shown until the new answer comes.
 */
import { keepPreviousData, QueryClient, useQuery } from '@tanstack/react-query'

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The API client already toasted a failure; asking again would toast it again.
      retry: false,
      refetchOnWindowFocus: false,
      // A view reads afresh when it mounts; while mounted, invalidation decides.
      staleTime: Infinity,
      gcTime: 60_000,
    },
  },
})

export interface Loaded<T> {
  data: T | undefined
  error: unknown
  loading: boolean
  reload(): void
}

/** Loads `load` under `key` (its first element the resource); the previous data stays shown while the next comes. */
export function useApi<T>(
  key: readonly [string, ...unknown[]],
  load: (signal: AbortSignal) => Promise<T>,
  options: { enabled?: boolean } = {},
): Loaded<T> {
  const q = useQuery({ queryKey: key, queryFn: ({ signal }) => load(signal), placeholderData: keepPreviousData, enabled: options.enabled })
  return { data: q.data, error: q.error, loading: q.isFetching, reload: () => void q.refetch() }
}

let stamp = 0

/**
 * A number that changes each time `resource` is invalidated: for views that fetch on their own
 * terms (a keyset-paged table, the designer's draft) and only need to know when to read again.
 */
export function useReloadKey(resource: string): number {
  const q = useQuery({ queryKey: [resource, '#reload'], queryFn: () => ++stamp })
  return q.data ?? 0
}

/** Reloads every query of `resource` on screen (a command changed it). */
export function invalidate(resource: string): void {
  void queryClient.invalidateQueries({ queryKey: [resource] })
}
