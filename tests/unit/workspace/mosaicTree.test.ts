import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { getLeaves, isSplitNode, isTabsNode, type MosaicNode } from 'react-mosaic-component'
import {
  activateLeaf,
  containsLeaf,
  copyTree,
  insertBeside,
  leaves,
  maxTreeDepth,
  removeLeaf,
  sanitizeTree,
  visibleLeaves,
  type Tree,
} from '../../../src/state/mosaicTree.ts'

const row = (children: Tree[], splitPercentages?: number[]): Tree =>
  splitPercentages ? { type: 'split', direction: 'row', children, splitPercentages } : { type: 'split', direction: 'row', children }
const column = (children: Tree[], splitPercentages?: number[]): Tree =>
  splitPercentages ? { type: 'split', direction: 'column', children, splitPercentages } : { type: 'split', direction: 'column', children }

/** Random trees over distinct keys, in react-mosaic's own v7 format. */
const treeArb: fc.Arbitrary<MosaicNode<string>> = fc
  .uniqueArray(fc.constantFrom('/a', '/b', '/c', '/d', '/e', '/f', '/g', '/h'), { minLength: 1, maxLength: 8 })
  .chain((keys) => {
    const build = (ks: string[]): fc.Arbitrary<MosaicNode<string>> => {
      if (ks.length === 1) return fc.constant(ks[0] as string)
      return fc
        .tuple(fc.integer({ min: 1, max: ks.length - 1 }), fc.constantFrom<'row' | 'column'>('row', 'column'), fc.boolean(), fc.boolean())
        .chain(([cut, direction, tabs, sized]) => {
          if (tabs && ks.length <= 3) return fc.constant<MosaicNode<string>>({ type: 'tabs', tabs: ks, activeTabIndex: cut - 1 })
          return fc
            .tuple(build(ks.slice(0, cut)), build(ks.slice(cut)))
            .map(([l, r]): MosaicNode<string> =>
              sized
                ? { type: 'split', direction, children: [l, r], splitPercentages: [cut * 10, 100 - cut * 10] }
                : { type: 'split', direction, children: [l, r] },
            )
        })
    }
    return build(keys)
  })

describe('mosaicTree agrees with react-mosaic-component v7', () => {
  it('has the same leaves as getLeaves and the same node kinds', () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        expect(leaves(tree)).toEqual(getLeaves(tree))
        const clean = sanitizeTree(tree)
        expect(clean === null ? [] : getLeaves(clean)).toEqual(getLeaves(tree))
      }),
    )
    const split = sanitizeTree(row(['/a', '/b']))
    expect(isSplitNode(split)).toBe(true)
    const tabs = sanitizeTree({ type: 'tabs', tabs: ['/a', '/b'], activeTabIndex: 1 })
    expect(isTabsNode(tabs)).toBe(true)
  })

  it('builds splits react-mosaic reads: type, direction, children, percentages summing to 100', () => {
    const t = insertBeside('/a', '/a', '/b', 'row')
    expect(t).toEqual({ type: 'split', direction: 'row', children: ['/a', '/b'], splitPercentages: [50, 50] })
    expect(getLeaves(t)).toEqual(['/a', '/b'])
  })
})

describe('leaves and visibleLeaves', () => {
  it('answers nothing for an empty tree and the key for a leaf', () => {
    expect(leaves(null)).toEqual([])
    expect(visibleLeaves(null)).toEqual([])
    expect(leaves('/a')).toEqual(['/a'])
    expect(visibleLeaves('/a')).toEqual(['/a'])
  })

  it('shows only the active tab of a tabs node', () => {
    const t: Tree = row(['/a', { type: 'tabs', tabs: ['/b', '/c', '/d'], activeTabIndex: 2 }])
    expect(leaves(t)).toEqual(['/a', '/b', '/c', '/d'])
    expect(visibleLeaves(t)).toEqual(['/a', '/d'])
    expect(containsLeaf(t, '/c')).toBe(true)
    expect(containsLeaf(t, '/x')).toBe(false)
  })
})

describe('sanitizeTree', () => {
  it('rejects what is not a tree', () => {
    for (const bad of [
      undefined,
      null,
      42,
      '',
      true,
      [],
      {},
      { type: 'split' },
      { type: 'split', direction: 'diagonal', children: ['/a', '/b'] },
      { type: 'split', direction: 'row', children: 'ab' },
      { type: 'tabs', tabs: 'x' },
      { first: '/a', second: '/b', direction: 'row' },
    ]) {
      expect(sanitizeTree(bad)).toBeNull()
    }
  })

  it('drops unknown and repeated leaves and collapses what is left', () => {
    expect(sanitizeTree(row(['/a', '/x']), (l) => l !== '/x')).toBe('/a')
    expect(sanitizeTree(row(['/a', '/a']))).toBe('/a')
    expect(sanitizeTree(row(['/a', 7 as unknown as string, '/b']))).toEqual(row(['/a', '/b']))
    expect(sanitizeTree(row([column(['/x', '/y']), '/b']), (l) => l === '/b')).toBe('/b')
  })

  it('keeps the sizes of the survivors, rescaled to 100', () => {
    expect(sanitizeTree(row(['/a', '/b', '/c'], [20, 30, 50]), (l) => l !== '/c')).toEqual(row(['/a', '/b'], [40, 60]))
    // Sizes that cannot be sizes are dropped, not trusted.
    expect(sanitizeTree(row(['/a', '/b'], [50]))).toEqual(row(['/a', '/b']))
    expect(sanitizeTree(row(['/a', '/b'], [-10, 110]))).toEqual(row(['/a', '/b']))
    expect(sanitizeTree({ type: 'split', direction: 'row', children: ['/a', '/b'], splitPercentages: ['50', 50] })).toEqual(
      row(['/a', '/b']),
    )
    expect(sanitizeTree(row(['/a', '/b'], [1, 3]))).toEqual(row(['/a', '/b'], [25, 75]))
  })

  it('flattens a split inside a split of the same direction, keeping the areas', () => {
    const t = row([row(['/a', '/b'], [50, 50]), '/c'], [50, 50])
    expect(sanitizeTree(t)).toEqual(row(['/a', '/b', '/c'], [25, 25, 50]))
    // Nested of the other direction stays nested.
    const u = row([column(['/a', '/b']), '/c'])
    expect(sanitizeTree(u)).toEqual(u)
  })

  it('keeps the active tab of a tabs node, or the one that took its place', () => {
    const tabs = { type: 'tabs', tabs: ['/a', '/b', '/c'], activeTabIndex: 1 }
    expect(sanitizeTree(tabs)).toEqual(tabs)
    expect(sanitizeTree(tabs, (l) => l !== '/a')).toEqual({ type: 'tabs', tabs: ['/b', '/c'], activeTabIndex: 0 })
    expect(sanitizeTree(tabs, (l) => l !== '/b')).toEqual({ type: 'tabs', tabs: ['/a', '/c'], activeTabIndex: 1 })
    expect(sanitizeTree({ ...tabs, activeTabIndex: 2 }, (l) => l !== '/c')).toEqual({ type: 'tabs', tabs: ['/a', '/b'], activeTabIndex: 1 })
    expect(sanitizeTree({ ...tabs, activeTabIndex: 9 })).toEqual({ type: 'tabs', tabs: ['/a', '/b', '/c'], activeTabIndex: 2 })
    expect(sanitizeTree(tabs, (l) => l === '/c')).toBe('/c')
  })

  it('refuses trees nested deeper than a screen can show', () => {
    let deep: unknown = '/a'
    for (let i = 0; i < maxTreeDepth + 5; i++) deep = { type: 'split', direction: i % 2 ? 'row' : 'column', children: [deep, `/x${i}`] }
    const clean = sanitizeTree(deep)
    expect(clean).not.toBeNull()
    expect(leaves(clean)).not.toContain('/a')
  })

  it('answers fresh objects, never its input', () => {
    const t = row(['/a', column(['/b', '/c'])], [30, 70])
    const clean = sanitizeTree(t)
    expect(clean).toEqual(t)
    expect(clean).not.toBe(t)
  })
})

describe('removeLeaf', () => {
  it('leaves the other pane alone as the whole tree', () => {
    expect(removeLeaf(row(['/a', '/b'], [30, 70]), '/a')).toBe('/b')
    expect(removeLeaf('/a', '/a')).toBeNull()
    expect(removeLeaf(null, '/a')).toBeNull()
    expect(removeLeaf(row(['/a', column(['/b', '/c'])]), '/a')).toEqual(column(['/b', '/c']))
  })

  it('does not mutate its input', () => {
    const t = row(['/a', '/b', '/c'], [20, 30, 50])
    const before = JSON.stringify(t)
    removeLeaf(t, '/b')
    expect(JSON.stringify(t)).toBe(before)
  })
})

describe('insertBeside', () => {
  it('splits a lone pane to the right (row) or below (column)', () => {
    expect(insertBeside('/a', '/a', '/b', 'row')).toEqual(row(['/a', '/b'], [50, 50]))
    expect(insertBeside('/a', '/a', '/b', 'column')).toEqual(column(['/a', '/b'], [50, 50]))
  })

  it('joins a split of the same direction, halving only the target pane', () => {
    expect(insertBeside(row(['/a', '/b'], [40, 60]), '/a', '/c', 'row')).toEqual(row(['/a', '/c', '/b'], [20, 20, 60]))
    expect(insertBeside(row(['/a', '/b']), '/b', '/c', 'row')).toEqual(row(['/a', '/b', '/c'], [50, 25, 25]))
  })

  it('nests a split of the other direction in place of the target', () => {
    expect(insertBeside(row(['/a', '/b'], [40, 60]), '/b', '/c', 'column')).toEqual(row(['/a', column(['/b', '/c'], [50, 50])], [40, 60]))
    expect(insertBeside(row(['/a', column(['/b', '/c'])]), '/c', '/d', 'row')).toEqual(
      row(['/a', column(['/b', row(['/c', '/d'], [50, 50])])]),
    )
  })

  it('splits beside the tabs node that shows the target', () => {
    const tabs: Tree = { type: 'tabs', tabs: ['/a', '/b'], activeTabIndex: 0 }
    expect(insertBeside(tabs, '/a', '/c', 'row')).toEqual(row([tabs, '/c'], [50, 50]))
  })

  it('answers the tree unchanged when the target is absent', () => {
    expect(insertBeside(row(['/a', '/b']), '/x', '/c', 'row')).toEqual(row(['/a', '/b']))
    expect(insertBeside(null, '/a', '/b', 'row')).toBeNull()
  })
})

describe('activateLeaf and copyTree', () => {
  it('makes a hidden tab of a tabs node active, and answers the same tree when nothing changes', () => {
    const t: Tree = row(['/a', { type: 'tabs', tabs: ['/b', '/c'], activeTabIndex: 0 }])
    expect(activateLeaf(t, '/c')).toEqual(row(['/a', { type: 'tabs', tabs: ['/b', '/c'], activeTabIndex: 1 }]))
    expect(activateLeaf(t, '/b')).toBe(t)
    expect(activateLeaf(t, '/a')).toBe(t)
    expect(activateLeaf(null, '/a')).toBeNull()
  })

  it('copies deeply', () => {
    const t = row(['/a', column(['/b', '/c'], [10, 90])], [30, 70])
    const c = copyTree(t)
    expect(c).toEqual(t)
    expect(c).not.toBe(t)
  })
})
