// src/api/query.ts: one data-loading path; invalidate(resource) reloads that resource's queries only.
import { QueryObserver } from '@tanstack/react-query'
import { afterEach, describe, expect, it } from 'vitest'
import { invalidate, queryClient } from '../../../src/api/query.ts'

const settle = () => new Promise((r) => setTimeout(r, 10))

/** An on-screen query (an observer keeps it active) counting its loads. */
function watch(key: readonly unknown[]) {
  let loads = 0
  const observer = new QueryObserver(queryClient, { queryKey: key, queryFn: () => ++loads })
  const stop = observer.subscribe(() => undefined)
  return { loads: () => loads, data: () => observer.getCurrentResult().data, stop }
}

afterEach(() => queryClient.clear())

describe('invalidate(resource)', () => {
  it('reloads every query on screen whose key starts with the resource, and no other', async () => {
    const one = watch(['indicators', 3])
    const list = watch(['indicators', { q: 'bp' }])
    const diseases = watch(['diseases'])
    await settle()
    expect([one.loads(), list.loads(), diseases.loads()]).toEqual([1, 1, 1])
    invalidate('indicators')
    await settle()
    expect([one.loads(), list.loads(), diseases.loads()]).toEqual([2, 2, 1])
    expect(one.data()).toBe(2)
    for (const w of [one, list, diseases]) w.stop()
  })

  it('a query off screen is not fetched now but is stale for its next view', async () => {
    const w = watch(['templates', 7, 'preview', null])
    await settle()
    w.stop()
    invalidate('templates')
    await settle()
    expect(w.loads()).toBe(1)
    expect(queryClient.getQueryState(['templates', 7, 'preview', null])?.isInvalidated).toBe(true)
  })

  it('a loaded query is not asked again while nothing changes (no refetch on focus, no retry)', async () => {
    const w = watch(['diseases'])
    await settle()
    const again = watch(['diseases'])
    await settle()
    expect(w.loads() + again.loads()).toBe(1)
    w.stop()
    again.stop()
  })
})
