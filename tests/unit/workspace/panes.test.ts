import { describe, expect, it } from 'vitest'
import { snapshot } from 'valtio/vanilla'
import { replaceLeaf } from '../../../src/state/mosaicTree.ts'
import { fresh, invariantProblems, meta } from './support.ts'

const dash = '/dashboard'
const a = '/dataDictionary/preview-crf?id=1'
const b = '/dataDictionary/preview-crf?id=2'
const list = '/dataDictionary/list'
const diseases = '/dataDictionary/disease'

function healthy(w: ReturnType<typeof fresh>) {
  expect(
    invariantProblems(
      w.state,
      w.state.tabs.filter((t) => t.affix).map((t) => t.path),
    ),
  ).toEqual([])
}

/** `a` and `b` side by side, `b` focused (open `a`, then `b` to its side). */
function split() {
  const w = fresh()
  w.open(dash, meta('route.dashboard', { affix: true }))
  w.open(a, meta('route.previewCRF'))
  expect(w.openBeside(b, meta('route.previewCRF'))).toBe(true)
  return w
}

describe('open to the side always makes a new pane beside the focused one', () => {
  it('a new tab gets its own pane right of the focused one; the focused pane keeps its content', () => {
    const w = split()
    expect(w.visibleLeaves()).toEqual([a, b])
    expect(w.state.focused).toBe(b)
    healthy(w)
  })

  it('a tab that exists hidden gets a new pane; nothing on screen is replaced', () => {
    const w = split()
    w.open(list, meta('route.dictionaryList')) // replaces b in the split; b is hidden now
    expect(w.visibleLeaves()).toEqual([a, list])
    expect(w.openBeside(b, meta('route.previewCRF'))).toBe(true)
    expect(w.visibleLeaves()).toEqual([a, list, b])
    expect(w.state.focused).toBe(b)
    healthy(w)
  })

  it('a hidden tab with one pane on screen makes a split, not a replacement', () => {
    const w = fresh()
    w.open(a, meta('route.previewCRF'))
    w.open(b, meta('route.previewCRF'))
    expect(w.visibleLeaves()).toEqual([b])
    expect(w.openBeside(a, meta('route.previewCRF'))).toBe(true)
    expect(w.visibleLeaves()).toEqual([b, a])
    healthy(w)
  })

  it('a tab on screen elsewhere moves beside the focused pane, which keeps its content', () => {
    const w = split()
    w.openBeside(list, meta('route.dictionaryList')) // a | b | list, list focused
    w.setFocused(a)
    expect(w.openBeside(list, meta('route.dictionaryList'))).toBe(true)
    expect(w.visibleLeaves()).toEqual([a, list, b])
    expect(w.state.focused).toBe(list)
    healthy(w)
  })

  it('below the focused pane with direction column, nesting inside a row split', () => {
    const w = split()
    w.setFocused(a)
    expect(w.openBeside(list, meta('route.dictionaryList'), 'column')).toBe(true)
    expect(snapshot(w.state).tree).toEqual({
      type: 'split',
      direction: 'row',
      children: [{ type: 'split', direction: 'column', children: [a, list], splitPercentages: [50, 50] }, b],
      splitPercentages: [50, 50],
    })
  })

  it('the focused tab itself cannot be a second pane: false, nothing changes', () => {
    const w = split()
    const before = JSON.stringify(snapshot(w.state))
    expect(w.openBeside(b, meta('route.previewCRF'))).toBe(false)
    expect(JSON.stringify(snapshot(w.state))).toBe(before)
  })
})

describe('navigating inside a split replaces only the focused pane', () => {
  it('a plain open of a new tab takes the focused pane and keeps the split and the other pane', () => {
    const w = split()
    w.setFocused(a)
    expect(w.open(list, meta('route.dictionaryList'))).toBe(true)
    expect(w.visibleLeaves()).toEqual([list, b])
    expect(w.state.focused).toBe(list)
    // The replaced tab stays a tab, hidden.
    expect(w.state.tabs.map((t) => t.path)).toContain(a)
    healthy(w)
  })

  it('keeps the sizes the user chose', () => {
    const w = split()
    w.setTree({ type: 'split', direction: 'row', children: [a, b], splitPercentages: [30, 70] })
    w.setFocused(b)
    w.open(diseases, meta('route.diseaseList'))
    expect(snapshot(w.state).tree).toEqual({ type: 'split', direction: 'row', children: [a, diseases], splitPercentages: [30, 70] })
  })

  it('a hidden tab opened again also takes the focused pane', () => {
    const w = split()
    w.open(list, meta('route.dictionaryList'))
    w.open(b)
    expect(w.visibleLeaves()).toEqual([a, b])
    expect(w.state.focused).toBe(b)
  })

  it('a tab already on screen only gets the focus', () => {
    const w = split()
    expect(w.open(a)).toBe(true)
    expect(w.visibleLeaves()).toEqual([a, b])
    expect(w.state.focused).toBe(a)
  })

  it('with one pane a plain open still shows the tab alone', () => {
    const w = fresh()
    w.open(a, meta('route.previewCRF'))
    w.open(list, meta('route.dictionaryList'))
    expect(w.state.tree).toBe(list)
  })

  it('reopening a closed tab inside a split takes the focused pane', () => {
    const w = split()
    w.openBeside(list, meta('route.dictionaryList'))
    w.close(list)
    expect(w.visibleLeaves()).toEqual([a, b])
    expect(w.reopenClosed()).toBe(list)
    expect(w.visibleLeaves()).toEqual([a, list])
    healthy(w)
  })
})

describe('replaceLeaf', () => {
  it('replaces a leaf in a nested split and inside a tabs node, and leaves an unknown target alone', () => {
    const tree = {
      type: 'split' as const,
      direction: 'row' as const,
      children: ['/x', { type: 'tabs' as const, tabs: ['/y', '/z'], activeTabIndex: 1 }],
    }
    expect(replaceLeaf(tree, '/z', '/n')).toEqual({
      type: 'split',
      direction: 'row',
      children: ['/x', { type: 'tabs', tabs: ['/y', '/n'], activeTabIndex: 1 }],
    })
    expect(replaceLeaf(tree, '/x', '/n')).toEqual({ ...tree, children: ['/n', tree.children[1]] })
    expect(replaceLeaf(tree, '/ghost', '/n')).toEqual(tree)
    expect(replaceLeaf('/x', '/x', '/n')).toBe('/n')
    expect(replaceLeaf(null, '/x', '/n')).toBeNull()
  })
})
