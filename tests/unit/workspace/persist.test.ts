import { afterEach, describe, expect, it, vi } from 'vitest'
import { snapshot } from 'valtio/vanilla'
import * as store from '../../../src/state/workspace.ts'
import { affixTabs, closedLimit, storageKey } from '../../../src/state/workspace.ts'
import { screens } from '../../../contract/screens.ts'
import { MemoryStorage, fresh, invariantProblems, meta } from './support.ts'

const list = '/project/multi-list'
const detail3 = '/project/multi-detail?id=3'
const patients = '/patient/index'
const affixPaths = screens.filter((s) => s.affix).map((s) => s.path)

/** A workspace as a user left it: three tabs, two of them split with custom sizes, one closed. */
function arranged(storage: MemoryStorage, userId: string | number) {
  const w = fresh()
  w.restore(userId, { storage })
  w.open(list, meta('route.multiList'))
  w.open(detail3, meta('route.multiDetail', { noCache: true }))
  w.open(patients, meta('route.patientList'))
  w.open('/sample/index', meta('route.sampleList'))
  w.close()
  w.split('row', list)
  w.setTree({ type: 'split', direction: 'row', children: [patients, list], splitPercentages: [35, 65] })
  return w
}

describe('the affix tabs of contract/screens.ts', () => {
  it('are the screens marked affix, with their i18n titles', () => {
    expect(affixPaths.length).toBeGreaterThan(0)
    expect(affixTabs.map((t) => t.path)).toEqual(affixPaths)
    expect(affixTabs[0]).toEqual({ path: '/dashboard', title: 'route.dashboard', noCache: false })
  })
})

describe('persist and restore', () => {
  it('stores under a key that includes the user id', () => {
    expect(storageKey(7)).toContain('7')
    expect(storageKey('7')).toBe(storageKey(7))
    expect(storageKey('alice')).not.toBe(storageKey('bob'))
  })

  it('restores exactly the layout that was saved: tabs, tree with sizes, focus, closed stack', () => {
    const storage = new MemoryStorage()
    const w = arranged(storage, 'alice')
    expect(w.persist('alice', storage)).toBe(true)
    const saved = JSON.parse(JSON.stringify(snapshot(w.state))) as unknown

    const v = fresh()
    expect(v.restore('alice', { storage })).toBe(true)
    expect(snapshot(v.state)).toEqual(saved)
    expect(v.state.tree).toEqual({ type: 'split', direction: 'row', children: [patients, list], splitPercentages: [35, 65] })
    expect(v.state.focused).toBe(list)
    expect(v.state.tabs.find((t) => t.path === detail3)?.noCache).toBe(true)
    expect(v.state.closed.map((c) => c.path)).toEqual(['/sample/index'])
    expect(invariantProblems(v.state, affixPaths)).toEqual([])
  })

  it('keeps each user their own layout', () => {
    const storage = new MemoryStorage()
    arranged(storage, 'alice').persist('alice', storage)
    const b = fresh()
    expect(b.restore('bob', { storage })).toBe(false)
    expect(b.state.tabs.map((t) => t.path)).toEqual(affixPaths)
    b.open(patients, meta('route.patientList'))
    b.persist('bob', storage)

    const a = fresh()
    a.restore('alice', { storage })
    expect(a.visibleLeaves()).toEqual([patients, list])
    const again = fresh()
    again.restore('bob', { storage })
    expect(again.visibleLeaves()).toEqual([patients])
  })

  it('with nothing saved, opens the affix tabs and shows the first', () => {
    const w = fresh()
    expect(w.restore(1, { storage: new MemoryStorage() })).toBe(false)
    expect(w.state.tabs).toEqual(affixTabs.map((a) => ({ path: a.path, title: a.title, affix: true, noCache: false })))
    expect(w.state.tree).toBe(affixPaths[0])
    expect(w.state.focused).toBe(affixPaths[0])
    expect(w.state.closed).toEqual([])
  })

  it('replaces whatever was in the workspace (a previous user)', () => {
    const storage = new MemoryStorage()
    const w = arranged(storage, 'alice')
    w.restore('bob', { storage })
    expect(w.state.tabs.map((t) => t.path)).toEqual(affixPaths)
    expect(w.state.closed).toEqual([])
  })

  const corrupt: [string, string][] = [
    ['not JSON', '{tabs: ['],
    ['JSON null', 'null'],
    ['an array', '[]'],
    ['a number', '42'],
    ['an unknown version', JSON.stringify({ version: 2, tabs: [], tree: null, focused: null, closed: [] })],
    ['tabs not an array', JSON.stringify({ version: 1, tabs: 'x', tree: null, focused: null, closed: [] })],
    ['a tab without a path', JSON.stringify({ version: 1, tabs: [{ title: 'x', affix: false }], tree: null, focused: null, closed: [] })],
    [
      'a tab with an empty path',
      JSON.stringify({ version: 1, tabs: [{ path: '', title: 'x', affix: false }], tree: null, focused: null, closed: [] }),
    ],
    [
      'affix not a boolean',
      JSON.stringify({ version: 1, tabs: [{ path: '/a', title: 'x', affix: 'yes' }], tree: '/a', focused: '/a', closed: [] }),
    ],
    ['focused a number', JSON.stringify({ version: 1, tabs: [], tree: null, focused: 3, closed: [] })],
    ['closed missing', JSON.stringify({ version: 1, tabs: [], tree: null, focused: null })],
  ]

  it.each(corrupt)('falls back to the default on corrupt storage: %s', (_name, raw) => {
    const storage = new MemoryStorage()
    storage.setItem(storageKey('u'), raw)
    const w = fresh()
    expect(w.restore('u', { storage })).toBe(false)
    expect(w.state.tabs.map((t) => t.path)).toEqual(affixPaths)
    expect(w.state.tree).toBe(affixPaths[0])
    expect(w.state.focused).toBe(affixPaths[0])
    expect(invariantProblems(w.state, affixPaths)).toEqual([])
  })

  it('repairs a record that parses but does not hold together', () => {
    const storage = new MemoryStorage()
    storage.setItem(
      storageKey('u'),
      JSON.stringify({
        version: 1,
        tabs: [
          { path: list, title: 'route.multiList', affix: false },
          { path: list, title: 'duplicate', affix: false },
          { path: patients, title: 'route.patientList', affix: false, noCache: true },
        ],
        // A leaf that is no tab, a repeated leaf, a split with a bad direction inside.
        tree: {
          type: 'split',
          direction: 'row',
          children: [list, '/ghost', list, { type: 'split', direction: 'up', children: [patients] }],
          splitPercentages: [10, 20, 30, 40],
        },
        focused: '/ghost',
        closed: [
          { path: list, title: 'open already' },
          { path: '/x', title: 'x' },
          { path: '/x', title: 'again' },
        ],
        recent: [patients, '/ghost', list],
      }),
    )
    const w = fresh()
    expect(w.restore('u', { storage })).toBe(true)
    expect(w.state.tabs.map((t) => t.path)).toEqual([...affixPaths, list, patients])
    expect(w.state.tree).toBe(list)
    expect(w.state.focused).toBe(list)
    expect(w.state.closed.map((c) => c.path)).toEqual(['/x'])
    expect(w.state.recent).toEqual([list, patients])
    expect(invariantProblems(w.state, affixPaths)).toEqual([])
  })

  it('a saved tree of garbage shows the first affix tab; the saved tabs stay', () => {
    const storage = new MemoryStorage()
    storage.setItem(
      storageKey('u'),
      JSON.stringify({ version: 1, tabs: [{ path: list, title: 't', affix: false }], tree: { evil: true }, focused: list, closed: [] }),
    )
    const w = fresh()
    w.restore('u', { storage })
    expect(w.state.tabs.map((t) => t.path)).toEqual([...affixPaths, list])
    expect(w.state.tree).toBe(affixPaths[0])
    expect(w.state.focused).toBe(affixPaths[0])
  })

  it('opens affix tabs missing from an old save, and marks them affixed', () => {
    const storage = new MemoryStorage()
    storage.setItem(
      storageKey('u'),
      JSON.stringify({
        version: 1,
        tabs: [
          { path: list, title: 't', affix: false },
          { path: '/dashboard', title: 'route.dashboard', affix: false },
        ],
        tree: list,
        focused: list,
        closed: [],
      }),
    )
    const w = fresh()
    w.restore('u', { storage })
    expect(w.state.tabs.map((t) => [t.path, t.affix])).toEqual([
      ['/dashboard', true],
      [list, false],
    ])
    expect(w.close('/dashboard')).toBe(list)
    expect(w.state.tabs).toHaveLength(2)
  })

  it('caps the restored closed stack', () => {
    const storage = new MemoryStorage()
    const closed = Array.from({ length: 60 }, (_, i) => ({ path: `/p/${i}`, title: 't' }))
    storage.setItem(storageKey('u'), JSON.stringify({ version: 1, tabs: [], tree: null, focused: null, closed }))
    const w = fresh()
    w.restore('u', { storage })
    expect(w.state.closed).toHaveLength(closedLimit)
    expect(w.state.closed[0]?.path).toBe('/p/0')
  })

  it('takes its affix list from the caller when given', () => {
    const w = fresh()
    w.restore('u', { storage: new MemoryStorage(), affix: [{ path: '/home', title: 'route.home' }] })
    expect(w.state.tabs).toEqual([{ path: '/home', title: 'route.home', affix: true, noCache: false }])
    const none = fresh()
    none.restore('u', { storage: new MemoryStorage(), affix: [] })
    expect(none.state.tabs).toEqual([])
    expect(none.state.tree).toBeNull()
    expect(none.state.focused).toBeNull()
  })

  it('survives storage that throws or is missing', () => {
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('SecurityError')
      },
    }
    const w = fresh()
    expect(w.restore('u', { storage: throwing })).toBe(false)
    expect(w.state.tabs.map((t) => t.path)).toEqual(affixPaths)
    expect(w.persist('u', throwing)).toBe(false)
    const full = new MemoryStorage()
    full.failWrites = true
    expect(w.persist('u', full)).toBe(false)
    expect(w.persist('u', null)).toBe(false)
    expect(w.restore('u', { storage: null })).toBe(false)
  })

  describe('with globalThis.localStorage', () => {
    afterEach(() => {
      vi.unstubAllGlobals()
      store.resetWorkspace()
    })

    it('uses it by default', () => {
      const storage = new MemoryStorage()
      vi.stubGlobal('localStorage', storage)
      store.restore(9)
      store.open(list, meta('route.multiList'))
      expect(store.persist(9)).toBe(true)
      expect(storage.data.has(storageKey(9))).toBe(true)
      store.resetWorkspace()
      expect(store.restore(9)).toBe(true)
      expect(store.workspace.focused).toBe(list)
    })
  })

  describe('autoPersist', () => {
    afterEach(() => vi.useRealTimers())

    it('writes once after a burst of changes (a resize drag), and on stop', async () => {
      vi.useFakeTimers()
      const storage = new MemoryStorage()
      const set = vi.spyOn(storage, 'setItem')
      const w = fresh()
      w.restore('u', { storage })
      w.open(list, meta('a'))
      w.open(patients, meta('b'))
      w.split('row')
      const stop = w.autoPersist('u', { storage, wait: 100 })
      for (let p = 20; p < 80; p += 5)
        w.setTree({ type: 'split', direction: 'row', children: [patients, list], splitPercentages: [p, 100 - p] })
      await vi.advanceTimersByTimeAsync(0)
      expect(set).not.toHaveBeenCalled()
      await vi.advanceTimersByTimeAsync(150)
      expect(set).toHaveBeenCalledTimes(1)
      const saved = JSON.parse(storage.getItem(storageKey('u')) ?? 'null') as { tree: { splitPercentages: number[] } }
      expect(saved.tree.splitPercentages[0]).toBeCloseTo(75)

      w.close()
      await vi.advanceTimersByTimeAsync(0)
      stop()
      expect(set).toHaveBeenCalledTimes(2)
      w.open(detail3, meta('c'))
      await vi.advanceTimersByTimeAsync(500)
      expect(set).toHaveBeenCalledTimes(2)
    })
  })
})
