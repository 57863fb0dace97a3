import { afterEach, describe, expect, it, vi } from 'vitest'
import { snapshot } from 'valtio/vanilla'
import { createDraftStore, draftKey, emptyDraft, emptyQueue } from '../../../src/state/projectDraft.ts'
import { MemoryStorage } from '../workspace/support.ts'

class RemovableStorage extends MemoryStorage {
  removeItem(key: string): void {
    this.data.delete(key)
  }
}

/** A draft as a user leaves it on the center step: base filled, two queues, one form, one center. */
function fill(store: ReturnType<typeof createDraftStore>) {
  Object.assign(store.state.baseForm, { type: 'prospective', name: 'Lung study', number: 'LS-1', plannedQuantity: '120' })
  store.state.queueForm.domains[0]!.name = 'Arm A'
  store.state.queueForm.domains.push({ ...emptyQueue(), name: 'Arm B', key: 'b' })
  store.state.forms.push({ templateId: 3, kind: 'crf', name: 'Vitals', versionId: 9, version: 2 })
  store.state.centers.push({ id: 5, code: 'BJ01', nameZh: '北京', nameEn: 'Beijing' })
  store.state.activeIndex = 3
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the project info draft', () => {
  it('starts as the SPEC says: step 0, an empty base form and one empty queue', () => {
    const store = createDraftStore(new RemovableStorage())
    expect(store.restore(7, 'multi')).toBe(false)
    expect(snapshot(store.state)).toEqual(emptyDraft('multi'))
    expect(store.state.queueForm.domains).toEqual([emptyQueue()])
    expect(store.isEmpty()).toBe(true)
  })

  it('persists per user and scope and restores after a reload (a new store on the same storage)', () => {
    const storage = new RemovableStorage()
    const before = createDraftStore(storage)
    before.restore(7, 'multi')
    fill(before)
    expect(before.persist(7)).toBe(true)
    expect(storage.data.has(draftKey(7, 'multi'))).toBe(true)

    const after = createDraftStore(storage)
    expect(after.restore(7, 'multi')).toBe(true)
    expect(snapshot(after.state)).toEqual(snapshot(before.state))
    expect(after.state.activeIndex).toBe(3)
    expect(after.state.queueForm.domains.map((q) => q.name)).toEqual(['Arm A', 'Arm B'])

    // Another user, or the single-center wizard, starts empty.
    expect(after.restore(8, 'multi')).toBe(false)
    expect(after.isEmpty()).toBe(true)
    expect(after.restore(7, 'single')).toBe(false)
    expect(after.state.scope).toBe('single')
  })

  it('writes changes by itself shortly after they happen', async () => {
    vi.useFakeTimers()
    const storage = new RemovableStorage()
    const store = createDraftStore(storage)
    store.restore(7, 'multi')
    const stop = store.autoPersist(7, 100)
    store.state.baseForm.name = 'Typed'
    await vi.advanceTimersByTimeAsync(150)
    expect(JSON.parse(storage.data.get(draftKey(7, 'multi'))!).baseForm.name).toBe('Typed')
    store.state.baseForm.number = 'N-1'
    stop()
    expect(JSON.parse(storage.data.get(draftKey(7, 'multi'))!).baseForm.number).toBe('N-1')
  })

  it('clears: empty in memory and gone from storage, also while writing by itself', async () => {
    vi.useFakeTimers()
    const storage = new RemovableStorage()
    const store = createDraftStore(storage)
    store.restore(7, 'multi')
    const stop = store.autoPersist(7, 100)
    fill(store)
    await vi.advanceTimersByTimeAsync(150)
    expect(storage.data.has(draftKey(7, 'multi'))).toBe(true)
    store.clear(7)
    await vi.advanceTimersByTimeAsync(150)
    stop()
    expect(storage.data.has(draftKey(7, 'multi'))).toBe(false)
    expect(snapshot(store.state)).toEqual(emptyDraft('multi'))
    expect(createDraftStore(storage).restore(7, 'multi')).toBe(false)
  })

  it('treats a corrupt or foreign stored draft as none', () => {
    const storage = new RemovableStorage()
    storage.setItem(draftKey(7, 'multi'), '{not json')
    const store = createDraftStore(storage)
    expect(store.restore(7, 'multi')).toBe(false)
    storage.setItem(draftKey(7, 'multi'), JSON.stringify({ version: 1, ...emptyDraft('multi'), queueForm: { domains: [] } }))
    expect(store.restore(7, 'multi')).toBe(false)
    storage.setItem(draftKey(7, 'multi'), JSON.stringify({ version: 1, ...emptyDraft('multi'), activeIndex: 9 }))
    expect(store.restore(7, 'multi')).toBe(false)
    expect(snapshot(store.state)).toEqual(emptyDraft('multi'))
  })

  it('survives a storage that refuses writes (private mode, full quota)', () => {
    const storage = new RemovableStorage()
    storage.failWrites = true
    const store = createDraftStore(storage)
    store.restore(7, 'multi')
    fill(store)
    expect(store.persist(7)).toBe(false)
    expect(store.state.baseForm.name).toBe('Lung study')
    expect(createDraftStore(null).persist(7)).toBe(false)
  })
})
