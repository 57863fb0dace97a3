/**
 * Pure functions over react-mosaic-component v7's n-ary tree (DESIGN §5), keyed by tab path.
 *
 * The format (node_modules/react-mosaic-component/types-*.d.mts):
 *   leaf   = the key itself (here: a tab's full path)
 *   split  = { type: 'split', direction: 'row' | 'column', children, splitPercentages? }
 *   tabs   = { type: 'tabs', tabs: key[], activeTabIndex }
 * 'row' lays children side by side, 'column' one above the other.
 *
 * Only types are imported from react-mosaic-component: its index pulls in React components,
 * and the store (and its unit tests) stay free of React. Every function returns fresh plain
 * objects and never mutates its input, so a valtio proxy can be passed in and the result
 * assigned back.
 */
import type { MosaicDirection, MosaicNode, MosaicSplitNode, MosaicTabsNode } from 'react-mosaic-component'

export type Tree = MosaicNode<string>

/** A tree as a valtio snapshot (or any frozen copy) shows it: what the UI hands back. */
export type ReadonlyTree =
  | string
  | {
      readonly type: 'split'
      readonly direction: MosaicDirection
      readonly children: readonly ReadonlyTree[]
      readonly splitPercentages?: readonly number[]
    }
  | { readonly type: 'tabs'; readonly tabs: readonly string[]; readonly activeTabIndex: number }
export type { MosaicDirection }

/** Deeper trees than this are treated as corrupt (a screen cannot show them anyway). */
export const maxTreeDepth = 32

export function isSplit(node: Tree | null | undefined): node is MosaicSplitNode<string> {
  return typeof node === 'object' && node !== null && node.type === 'split'
}

export function isTabs(node: Tree | null | undefined): node is MosaicTabsNode<string> {
  return typeof node === 'object' && node !== null && node.type === 'tabs'
}

/** Every leaf in tree order, including the inactive tabs of a tabs node. */
export function leaves(tree: ReadonlyTree | null): string[] {
  if (tree === null) return []
  if (typeof tree === 'string') return [tree]
  if (tree.type === 'split') return tree.children.flatMap(leaves)
  return [...tree.tabs]
}

/** The leaves on screen, in tree order: a tabs node shows only its active tab. */
export function visibleLeaves(tree: ReadonlyTree | null): string[] {
  if (tree === null) return []
  if (typeof tree === 'string') return [tree]
  if (tree.type === 'split') return tree.children.flatMap(visibleLeaves)
  const active = tree.tabs[tree.activeTabIndex] ?? tree.tabs[0]
  return active === undefined ? [] : [active]
}

export function containsLeaf(tree: ReadonlyTree | null, leaf: string): boolean {
  return leaves(tree).includes(leaf)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Scales `values` to sum to 100, or answers undefined when they cannot be sizes. */
function toPercentages(values: readonly unknown[] | undefined, count: number): number[] | undefined {
  if (values === undefined || values.length !== count) return undefined
  const numbers: number[] = []
  for (const v of values) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) return undefined
    numbers.push(v)
  }
  const sum = numbers.reduce((a, b) => a + b, 0)
  if (!(sum > 0)) return undefined
  return numbers.map((n) => (n * 100) / sum)
}

/**
 * Validates and normalizes anything claiming to be a tree (react-mosaic's onChange, or what
 * localStorage held) into a fresh tree, or null when nothing valid remains:
 * - leaves must be non-empty strings accepted by `keep`; a leaf seen before is dropped;
 * - a split needs a valid direction; one with a single child becomes that child, an empty one
 *   disappears; a child split of the same direction is flattened into its parent (as
 *   react-mosaic's own normalizeMosaicTree does);
 * - splitPercentages are kept for the surviving children and rescaled to 100, or dropped when
 *   they are not positive numbers, one per child;
 * - a tabs node keeps its valid tabs (one tab becomes a leaf, none disappears); its active tab
 *   stays active, or the tab that took its place does;
 * - anything else, or nesting deeper than maxTreeDepth, is dropped.
 */
export function sanitizeTree(input: unknown, keep: (leaf: string) => boolean = () => true): Tree | null {
  const seen = new Set<string>()

  const leaf = (value: unknown): string | null => {
    if (typeof value !== 'string' || value === '' || seen.has(value) || !keep(value)) return null
    seen.add(value)
    return value
  }

  const visit = (node: unknown, depth: number): Tree | null => {
    if (depth > maxTreeDepth) return null
    if (!isRecord(node)) return leaf(node)

    if (node.type === 'tabs') {
      if (!Array.isArray(node.tabs)) return null
      const raw: unknown[] = node.tabs
      const active = typeof node.activeTabIndex === 'number' && Number.isInteger(node.activeTabIndex) ? node.activeTabIndex : 0
      const tabs: string[] = []
      let activeIndex = -1
      raw.forEach((t, i) => {
        const kept = leaf(t)
        if (kept === null) return
        // The active tab, or failing that the first survivor after it, becomes active.
        if (activeIndex === -1 && i >= active) activeIndex = tabs.length
        tabs.push(kept)
      })
      if (tabs.length === 0) return null
      if (tabs.length === 1) return tabs[0] ?? null
      if (activeIndex === -1) activeIndex = tabs.length - 1
      return { type: 'tabs', tabs, activeTabIndex: activeIndex }
    }

    if (node.type === 'split') {
      const direction = node.direction
      if (direction !== 'row' && direction !== 'column') return null
      if (!Array.isArray(node.children)) return null
      const rawChildren: unknown[] = node.children
      const rawPercentages = Array.isArray(node.splitPercentages) ? (node.splitPercentages as unknown[]) : undefined
      const given = toPercentages(rawPercentages, rawChildren.length)
      const children: Tree[] = []
      const shares: number[] = []
      let flattened = false
      rawChildren.forEach((c, i) => {
        const child = visit(c, depth + 1)
        if (child === null) return
        const share = given?.[i] ?? 100 / rawChildren.length
        if (isSplit(child) && child.direction === direction) {
          flattened = true
          const inner = child.splitPercentages ?? child.children.map(() => 100 / child.children.length)
          child.children.forEach((grandchild, j) => {
            children.push(grandchild)
            shares.push(((inner[j] ?? 0) * share) / 100)
          })
        } else {
          children.push(child)
          shares.push(share)
        }
      })
      if (children.length === 0) return null
      if (children.length === 1) return children[0] ?? null
      const result: MosaicSplitNode<string> = { type: 'split', direction, children }
      // Sizes the user chose survive (so do the sizes of a flattened split); a split that never
      // had sizes stays without them.
      if (given !== undefined || flattened) {
        const scaled = toPercentages(shares, children.length)
        if (scaled !== undefined) result.splitPercentages = scaled
      }
      return result
    }

    return null
  }

  return visit(input, 0)
}

/** A fresh copy of `tree` without `leaf` (its share of space goes to its siblings). */
export function removeLeaf(tree: Tree | null, leaf: string): Tree | null {
  return sanitizeTree(tree, (l) => l !== leaf)
}

/** A fresh copy of `tree` keeping only the leaves `keep` accepts. */
export function filterLeaves(tree: Tree | null, keep: (leaf: string) => boolean): Tree | null {
  return sanitizeTree(tree, keep)
}

/** Makes `leaf` the active tab of its tabs node, if it sits in one; else answers `tree` itself. */
export function activateLeaf(tree: Tree | null, leaf: string): Tree | null {
  if (tree === null) return null
  if (isTabs(tree)) {
    const index = tree.tabs.indexOf(leaf)
    if (index < 0 || index === tree.activeTabIndex) return tree
    return { type: 'tabs', tabs: [...tree.tabs], activeTabIndex: index }
  }
  if (isSplit(tree)) {
    let changed = false
    const children = tree.children.map((c) => {
      const next = activateLeaf(c, leaf)
      if (next !== c) changed = true
      return next ?? c
    })
    if (!changed) return tree
    const result: MosaicSplitNode<string> = { type: 'split', direction: tree.direction, children }
    if (tree.splitPercentages !== undefined) result.splitPercentages = [...tree.splitPercentages]
    return result
  }
  return tree
}

/** The node that holds `leaf` as a pane: the leaf itself, or the tabs node it sits in. */
function holds(node: Tree, leaf: string): boolean {
  return node === leaf || (isTabs(node) && node.tabs.includes(leaf))
}

/**
 * Puts `leaf` beside the pane showing `target` ('row': to its right, 'column': below it), the
 * two sharing the target's space equally. Inside a split of the same direction the new pane
 * becomes the target's next sibling; otherwise the target's pane is replaced by a new split.
 * `leaf` must not already be in the tree. When `target` is not in the tree, answers a copy of
 * `tree` unchanged.
 */
export function insertBeside(tree: Tree | null, target: string, leaf: string, direction: MosaicDirection): Tree | null {
  if (tree === null) return null
  const pair = (node: Tree): MosaicSplitNode<string> => ({
    type: 'split',
    direction,
    children: [copyTree(node), leaf],
    splitPercentages: [50, 50],
  })
  if (holds(tree, target)) return pair(tree)
  if (!isSplit(tree)) return copyTree(tree)

  const index = tree.children.findIndex((c) => holds(c, target))
  if (index < 0) {
    const children = tree.children.map((c) => insertBeside(c, target, leaf, direction) ?? c)
    const result: MosaicSplitNode<string> = { type: 'split', direction: tree.direction, children }
    if (tree.splitPercentages !== undefined) result.splitPercentages = [...tree.splitPercentages]
    return result
  }

  const count = tree.children.length
  const shares = toPercentages(tree.splitPercentages, count) ?? tree.children.map(() => 100 / count)
  const children = tree.children.map(copyTree)
  const own = shares[index] ?? 100 / count
  if (tree.direction === direction) {
    children.splice(index + 1, 0, leaf)
    shares.splice(index, 1, own / 2, own / 2)
    return { type: 'split', direction, children, splitPercentages: shares }
  }
  const holder = tree.children[index]
  if (holder !== undefined) children[index] = pair(holder)
  const result: MosaicSplitNode<string> = { type: 'split', direction: tree.direction, children }
  if (tree.splitPercentages !== undefined) result.splitPercentages = shares
  return result
}

/**
 * Puts `leaf` where the pane showing `target` is (in its tabs node, in the target's place), the
 * rest of the tree and its sizes untouched. `leaf` must not already be in the tree. When
 * `target` is not in the tree, answers a copy of `tree` unchanged.
 */
export function replaceLeaf(tree: Tree | null, target: string, leaf: string): Tree | null {
  if (tree === null) return null
  if (tree === target) return leaf
  if (isTabs(tree)) return { type: 'tabs', tabs: tree.tabs.map((t) => (t === target ? leaf : t)), activeTabIndex: tree.activeTabIndex }
  if (!isSplit(tree)) return tree
  const result: MosaicSplitNode<string> = {
    type: 'split',
    direction: tree.direction,
    children: tree.children.map((c) => replaceLeaf(c, target, leaf) ?? c),
  }
  if (tree.splitPercentages !== undefined) result.splitPercentages = [...tree.splitPercentages]
  return result
}

/** A deep plain copy (a valtio proxy in, plain objects out). */
export function copyTree(tree: Tree): Tree {
  if (isSplit(tree)) {
    const result: MosaicSplitNode<string> = { type: 'split', direction: tree.direction, children: tree.children.map(copyTree) }
    if (tree.splitPercentages !== undefined) result.splitPercentages = [...tree.splitPercentages]
    return result
  }
  if (isTabs(tree)) return { type: 'tabs', tabs: [...tree.tabs], activeTabIndex: tree.activeTabIndex }
  return tree
}
