import { afterEach, describe, expect, it } from 'vitest'
import { snapshot } from 'valtio/vanilla'
import * as store from '../../../src/state/workspace.ts'
import { closedLimit } from '../../../src/state/workspace.ts'
import { fresh, invariantProblems, meta } from './support.ts'

const dash = '/dashboard'
const list = '/project/multi-list'
const detail3 = '/project/multi-detail?id=3'
const detail4 = '/project/multi-detail?id=4'
const patients = '/patient/index'

/** A workspace with the affixed dashboard and the given tabs opened in order (the last one focused). */
function withTabs(...paths: string[]) {
  const w = fresh()
  w.open(dash, meta('route.dashboard', { affix: true }))
  for (const p of paths) w.open(p, meta(`title${p}`))
  return w
}

const tabPaths = (w: ReturnType<typeof fresh>) => w.state.tabs.map((t) => t.path)

function healthy(w: ReturnType<typeof fresh>) {
  expect(
    invariantProblems(
      w.state,
      w.state.tabs.filter((t) => t.affix).map((t) => t.path),
    ),
  ).toEqual([])
}

describe('open', () => {
  it('adds a tab, shows it alone and focuses it, like a classic admin page', () => {
    const w = fresh()
    expect(w.open(list, meta('route.multiList'))).toBe(true)
    expect(w.state.tabs).toEqual([{ path: list, title: 'route.multiList', affix: false, noCache: false }])
    expect(w.state.tree).toBe(list)
    expect(w.state.focused).toBe(list)
    w.open(detail3, meta('route.multiDetail', { noCache: true }))
    expect(tabPaths(w)).toEqual([list, detail3])
    expect(w.state.tabs[1]).toEqual({ path: detail3, title: 'route.multiDetail', affix: false, noCache: true })
    expect(w.state.tree).toBe(detail3)
    expect(w.state.focused).toBe(detail3)
    healthy(w)
  })

  it('keys tabs by full path: the same screen with another query is another tab', () => {
    const w = withTabs(detail3, detail4)
    expect(tabPaths(w)).toEqual([dash, detail3, detail4])
  })

  it('does not duplicate a tab; reopening it focuses it and shows it alone', () => {
    const w = withTabs(list, detail3)
    expect(w.open(list, meta('route.multiList'))).toBe(true)
    expect(tabPaths(w)).toEqual([dash, list, detail3])
    expect(w.state.tree).toBe(list)
    expect(w.state.focused).toBe(list)
  })

  it('keeps the layout when the tab is already on screen, only moving the focus', () => {
    const w = withTabs(list, detail3)
    w.split('row', list)
    const tree = snapshot(w.state).tree
    expect(w.open(detail3)).toBe(true)
    expect(snapshot(w.state).tree).toEqual(tree)
    expect(w.state.focused).toBe(detail3)
  })

  it('needs a title for a tab it does not know, and refuses an empty path', () => {
    const w = fresh()
    expect(w.open(list)).toBe(false)
    expect(w.open('', meta('x'))).toBe(false)
    expect(w.state.tabs).toEqual([])
    expect(w.state.tree).toBeNull()
  })

  it('updates the title (an i18n key) of a known tab', () => {
    const w = withTabs(list)
    w.open(list, meta('route.list'))
    expect(w.state.tabs[1]?.title).toBe('route.list')
    expect(w.setTitle(list, 'route.multiList')).toBe(true)
    expect(w.state.tabs[1]?.title).toBe('route.multiList')
    expect(w.setTitle('/nope', 'x')).toBe(false)
  })

  it('shows a hidden tab of a react-mosaic tabs node by making it active', () => {
    const w = withTabs(list, detail3, patients)
    w.setTree({ type: 'split', direction: 'row', children: [list, { type: 'tabs', tabs: [detail3, patients], activeTabIndex: 0 }] })
    expect(w.visibleLeaves()).toEqual([list, detail3])
    w.open(patients)
    expect(w.visibleLeaves()).toEqual([list, patients])
    expect(w.state.focused).toBe(patients)
    healthy(w)
  })
})

describe('close', () => {
  it('closes the focused tab by default and focuses the tab to its right in the tab bar', () => {
    const w = withTabs(list, detail3, patients)
    w.open(detail3)
    expect(w.close()).toBe(patients)
    expect(tabPaths(w)).toEqual([dash, list, patients])
    expect(w.state.tree).toBe(patients)
    expect(w.state.focused).toBe(patients)
    healthy(w)
  })

  it('focuses the tab to the left when the closed one was last', () => {
    const w = withTabs(list, detail3)
    expect(w.close(detail3)).toBe(list)
    expect(w.state.tree).toBe(list)
    expect(w.state.focused).toBe(list)
  })

  it('refuses an affixed tab and an unknown one, changing nothing', () => {
    const w = withTabs(list)
    w.open(dash)
    const before = JSON.stringify(snapshot(w.state))
    expect(w.close(dash)).toBe(dash)
    expect(w.close()).toBe(dash)
    expect(w.close('/unknown')).toBe(dash)
    expect(JSON.stringify(snapshot(w.state))).toBe(before)
  })

  it('closing a hidden tab keeps the focus and the layout', () => {
    const w = withTabs(list, detail3, patients)
    expect(w.close(list)).toBe(patients)
    expect(tabPaths(w)).toEqual([dash, detail3, patients])
    expect(w.state.tree).toBe(patients)
    expect(w.state.closed[0]?.path).toBe(list)
  })

  it('closing one of two split panes leaves the other alone as the whole tree, focused', () => {
    const w = withTabs(list, detail3)
    w.split('row', list)
    expect(w.visibleLeaves()).toEqual([detail3, list])
    expect(w.state.focused).toBe(list)
    expect(w.close()).toBe(detail3)
    expect(w.state.tree).toBe(detail3)
    healthy(w)
  })

  it('closing the unfocused pane of a split leaves the focused one alone and focused', () => {
    const w = withTabs(list, detail3)
    w.split('column', list)
    w.setFocused(detail3)
    expect(w.close(list)).toBe(detail3)
    expect(w.state.tree).toBe(detail3)
  })

  it('in a three-pane split focuses the next pane on screen, else the previous', () => {
    const w = withTabs(list, detail3, patients)
    w.setTree({ type: 'split', direction: 'row', children: [list, detail3, patients] })
    w.setFocused(detail3)
    expect(w.close()).toBe(patients)
    expect(w.visibleLeaves()).toEqual([list, patients])
    expect(w.close()).toBe(list)
    expect(w.state.tree).toBe(list)
  })

  it('closing the last closable tab shows the affixed one', () => {
    const w = withTabs(list)
    expect(w.close()).toBe(dash)
    expect(w.state.tree).toBe(dash)
  })

  it('with no tabs left the workspace is empty and nothing is focused', () => {
    const w = fresh()
    w.open(list, meta('a'))
    expect(w.close()).toBeNull()
    expect(w.state.tree).toBeNull()
    expect(w.state.focused).toBeNull()
    expect(w.close()).toBeNull()
    healthy(w)
  })
})

describe('closeOthers and closeAll', () => {
  it('closeOthers keeps the focused tab (alone on screen) and the affixed tabs', () => {
    const w = withTabs(list, detail3, patients)
    w.split('row', list)
    expect(w.closeOthers()).toBe(list)
    expect(tabPaths(w)).toEqual([dash, list])
    expect(w.state.tree).toBe(list)
    expect(w.state.focused).toBe(list)
    healthy(w)
  })

  it('closeOthers can keep a given tab', () => {
    const w = withTabs(list, detail3, patients)
    expect(w.closeOthers(detail3)).toBe(detail3)
    expect(tabPaths(w)).toEqual([dash, detail3])
    expect(w.state.tree).toBe(detail3)
  })

  it('closeOthers on an affixed tab closes every closable one', () => {
    const w = withTabs(list, detail3)
    w.open(dash)
    expect(w.closeOthers()).toBe(dash)
    expect(tabPaths(w)).toEqual([dash])
  })

  it('closeAll keeps the affixed tabs and focuses the first of them', () => {
    const w = withTabs(list, detail3)
    w.open('/settings', meta('route.settings', { affix: true }))
    w.open(patients, meta('route.patientList'))
    expect(w.closeAll()).toBe(dash)
    expect(tabPaths(w)).toEqual([dash, '/settings'])
    expect(w.state.tabs.every((t) => t.affix)).toBe(true)
    expect(w.state.tree).toBe(dash)
    healthy(w)
  })

  it('closeAll without affixed tabs leaves nothing, focused null', () => {
    const w = fresh()
    w.open(list, meta('a'))
    w.open(detail3, meta('b'))
    expect(w.closeAll()).toBeNull()
    expect(w.state.tabs).toEqual([])
    expect(w.state.tree).toBeNull()
    expect(w.state.focused).toBeNull()
  })

  it('closed tabs can all be reopened, the last of the tab bar first', () => {
    const w = withTabs(list, detail3, patients)
    w.closeAll()
    expect(w.state.closed.map((c) => c.path)).toEqual([patients, detail3, list])
    expect(w.reopenClosed()).toBe(patients)
  })
})

describe('split', () => {
  it('split right puts the previously focused tab beside the focused pane, side by side', () => {
    const w = withTabs(list, detail3)
    expect(w.split('row')).toBe(true)
    expect(w.state.tree).toEqual({ type: 'split', direction: 'row', children: [detail3, list], splitPercentages: [50, 50] })
    expect(w.state.focused).toBe(list)
    expect(w.visibleLeaves()).toEqual([detail3, list])
    healthy(w)
  })

  it('split down puts them one above the other', () => {
    const w = withTabs(list, detail3)
    expect(w.split('column', list)).toBe(true)
    expect(w.state.tree).toEqual({ type: 'split', direction: 'column', children: [detail3, list], splitPercentages: [50, 50] })
  })

  it('prefers the most recently focused tab not on screen', () => {
    const w = withTabs(list, detail3, patients)
    w.open(list)
    w.open(patients)
    // recent: patients, list, detail3, dash; list is the most recent not on screen.
    w.split('row')
    expect(w.visibleLeaves()).toEqual([patients, list])
    // Again: the next not on screen is detail3 (more recent than dash).
    w.split('column')
    expect(w.visibleLeaves()).toEqual([patients, list, detail3])
    expect(w.state.tree).toEqual({
      type: 'split',
      direction: 'row',
      children: [patients, { type: 'split', direction: 'column', children: [list, detail3], splitPercentages: [50, 50] }],
      splitPercentages: [50, 50],
    })
    healthy(w)
  })

  it('moves a pane already on screen beside the focused one', () => {
    const w = withTabs(list, detail3, patients)
    w.setTree({ type: 'split', direction: 'row', children: [list, detail3, patients] })
    w.setFocused(list)
    expect(w.split('column', patients)).toBe(true)
    expect(w.state.tree).toEqual({
      type: 'split',
      direction: 'row',
      // The row had no sizes (equal panes) and still has none.
      children: [{ type: 'split', direction: 'column', children: [list, patients], splitPercentages: [50, 50] }, detail3],
    })
    healthy(w)
  })

  it('does nothing and answers false without another tab', () => {
    const w = fresh()
    expect(w.split('row')).toBe(false)
    w.open(list, meta('a'))
    expect(w.split('row')).toBe(false)
    expect(w.split('row', list)).toBe(false)
    expect(w.split('row', '/unknown')).toBe(false)
    expect(w.state.tree).toBe(list)
  })

  it('does nothing when every other tab is already on screen', () => {
    const w = withTabs(list)
    w.split('row')
    const tree = JSON.stringify(snapshot(w.state).tree)
    expect(w.split('row')).toBe(false)
    expect(JSON.stringify(snapshot(w.state).tree)).toBe(tree)
  })

  it('openBeside adds a tab and opens it to the side of the focused pane', () => {
    const w = withTabs(detail3)
    expect(w.openBeside(detail4, meta('route.multiDetail', { noCache: true }))).toBe(true)
    expect(w.visibleLeaves()).toEqual([detail3, detail4])
    expect(w.state.focused).toBe(detail4)
    expect(w.state.tabs.find((t) => t.path === detail4)?.noCache).toBe(true)
    // Nothing focused: it is a plain open.
    const e = fresh()
    expect(e.openBeside(list, meta('a'), 'column')).toBe(true)
    expect(e.state.tree).toBe(list)
    healthy(w)
  })
})

describe('setTree (react-mosaic onChange)', () => {
  it('accepts a tree from a drag: panes moved and resized', () => {
    const w = withTabs(list, detail3)
    w.split('row', list)
    const dragged = {
      type: 'split' as const,
      direction: 'column' as const,
      children: [list, detail3],
      splitPercentages: [30, 70],
    }
    expect(w.setTree(dragged)).toBe(list)
    expect(w.state.tree).toEqual(dragged)
    expect(w.visibleLeaves()).toEqual([list, detail3])
  })

  it('tabs whose leaves leave the tree stay as tabs, hidden; the focus moves to a pane on screen', () => {
    const w = withTabs(list, detail3)
    w.split('row', list) // focused: list
    expect(w.setTree(detail3)).toBe(detail3)
    expect(tabPaths(w)).toEqual([dash, list, detail3])
    expect(w.visibleLeaves()).toEqual([detail3])
    healthy(w)
  })

  it('drops leaves that are not tabs, and repeated ones', () => {
    const w = withTabs(list, detail3)
    w.setTree({ type: 'split', direction: 'row', children: [list, '/ghost', list, detail3] })
    expect(w.state.tree).toEqual({ type: 'split', direction: 'row', children: [list, detail3] })
    healthy(w)
  })

  it('accepts a valtio snapshot (what the UI renders) and frozen trees, and stores fresh ones', () => {
    const w = withTabs(list, detail3)
    w.split('row', list)
    const before = JSON.stringify(w.state.tree)
    w.setTree(snapshot(w.state).tree)
    expect(JSON.stringify(w.state.tree)).toBe(before)
    const swapped = Object.freeze({
      type: 'split' as const,
      direction: 'row' as const,
      children: Object.freeze([list, detail3]),
      splitPercentages: Object.freeze([60, 40]),
    })
    w.setTree(swapped)
    expect(w.state.tree).toEqual(swapped)
    expect(w.state.tree).not.toBe(swapped)
    // The store's tree stays writable by the store.
    expect(w.split('column', dash)).toBe(true)
    healthy(w)
  })

  it('an empty tree leaves nothing focused', () => {
    const w = withTabs(list)
    expect(w.setTree(null)).toBeNull()
    expect(w.state.focused).toBeNull()
    expect(tabPaths(w)).toEqual([dash, list])
    // A plain open shows a tab again.
    w.open(list)
    expect(w.state.focused).toBe(list)
  })
})

describe('focus', () => {
  it('focusNext and focusPrevious cycle through the panes on screen in tree order', () => {
    const w = withTabs(list, detail3, patients)
    w.setTree({ type: 'split', direction: 'row', children: [list, { type: 'split', direction: 'column', children: [detail3, patients] }] })
    w.setFocused(list)
    expect(w.focusNext()).toBe(detail3)
    expect(w.focusNext()).toBe(patients)
    expect(w.focusNext()).toBe(list)
    expect(w.focusPrevious()).toBe(patients)
    expect(w.focusPrevious()).toBe(detail3)
    healthy(w)
  })

  it('never focuses a hidden tab', () => {
    const w = withTabs(list, detail3)
    expect(w.focusNext()).toBe(detail3)
    expect(w.focusPrevious()).toBe(detail3)
    expect(w.setFocused(list)).toBe(false)
    expect(w.state.focused).toBe(detail3)
    expect(fresh().focusNext()).toBeNull()
  })

  it('setFocused moves the focus to a pane on screen', () => {
    const w = withTabs(list, detail3)
    w.split('row', list)
    expect(w.setFocused(detail3)).toBe(true)
    expect(w.state.focused).toBe(detail3)
  })
})

describe('reopenClosed', () => {
  it('reopens the most recently closed tab first, shown alone and focused, with its flags', () => {
    const w = withTabs(list, detail3, patients)
    w.close(list)
    w.close(detail3)
    expect(w.canReopen()).toBe(true)
    w.open(patients, meta('route.patientList', { noCache: true }))
    w.close(patients)
    expect(w.reopenClosed()).toBe(patients)
    expect(w.state.tabs.find((t) => t.path === patients)?.noCache).toBe(true)
    expect(w.state.tree).toBe(patients)
    expect(w.state.focused).toBe(patients)
    expect(w.reopenClosed()).toBe(detail3)
    expect(w.reopenClosed()).toBe(list)
    expect(w.canReopen()).toBe(false)
    expect(w.reopenClosed()).toBeNull()
    expect(tabPaths(w)).toEqual([dash, patients, detail3, list])
    healthy(w)
  })

  it(`keeps at most ${closedLimit}, dropping the oldest`, () => {
    const w = fresh()
    for (let i = 0; i < closedLimit + 5; i++) {
      w.open(`/p/${i}`, meta(`t${i}`))
      w.close()
    }
    expect(w.state.closed).toHaveLength(closedLimit)
    expect(w.state.closed[0]?.path).toBe(`/p/${closedLimit + 4}`)
    expect(w.state.closed.at(-1)?.path).toBe('/p/5')
  })

  it('a tab opened again leaves the stack; closing it again puts it on top once', () => {
    const w = withTabs(list, detail3)
    w.close(list)
    w.close(detail3)
    w.open(list, meta('x'))
    expect(w.state.closed.map((c) => c.path)).toEqual([detail3])
    w.close(list)
    expect(w.state.closed.map((c) => c.path)).toEqual([list, detail3])
  })
})

describe('the app singleton', () => {
  afterEach(() => store.resetWorkspace())

  it('exports the operations bound to the `workspace` proxy', () => {
    store.open(list, meta('route.multiList'))
    store.open(detail3, meta('route.multiDetail'))
    expect(store.split('row')).toBe(true)
    expect(store.visibleLeaves()).toEqual([detail3, list])
    expect(store.workspace.focused).toBe(list)
    expect(store.close()).toBe(detail3)
    expect(store.canReopen()).toBe(true)
    expect(store.reopenClosed()).toBe(list)
    expect(store.focusNext()).toBe(list)
    expect(store.focusPrevious()).toBe(list)
    expect(store.closeOthers()).toBe(list)
    expect(store.closeAll()).toBeNull()
    expect(store.setTree(null)).toBeNull()
    expect(store.setFocused(list)).toBe(false)
  })

  it('resetWorkspace empties it', () => {
    store.open(list, meta('a'))
    store.resetWorkspace()
    expect(snapshot(store.workspace)).toEqual({ tabs: [], tree: null, focused: null, closed: [], recent: [] })
  })
})
