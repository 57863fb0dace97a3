import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { snapshot } from 'valtio/vanilla'
import type { Tree, WorkspaceState } from '../../../src/state/workspace.ts'
import { isSplit, isTabs, visibleLeaves } from '../../../src/state/mosaicTree.ts'
import { MemoryStorage, fresh, invariantProblems } from './support.ts'

const pool = ['/dashboard', '/a', '/b?id=1', '/b?id=2', '/c', '/d', '/e'] as const
const pathArb = fc.constantFrom(...pool)
const anyPathArb = fc.oneof(pathArb, fc.constant('/ghost'), fc.constant(''))
const directionArb = fc.constantFrom<'row' | 'column'>('row', 'column')

/** Trees as react-mosaic might hand them over, including leaves that are not tabs, repeats and tabs nodes. */
const treeArb: fc.Arbitrary<Tree | null> = fc
  .letrec<{ node: Tree }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      anyPathArb.filter((p) => p !== ''),
      fc.record({
        type: fc.constant('split' as const),
        direction: directionArb,
        children: fc.array(tie('node'), { minLength: 1, maxLength: 4 }),
      }),
      fc
        .tuple(directionArb, fc.array(tie('node'), { minLength: 2, maxLength: 3 }), fc.integer({ min: 1, max: 9 }))
        .map(([direction, children, w]): Tree => ({
          type: 'split',
          direction,
          children,
          splitPercentages: children.map((_, i) => (i === 0 ? w * 10 : 1)),
        })),
      fc
        .tuple(fc.uniqueArray(pathArb, { minLength: 1, maxLength: 3 }), fc.nat(3))
        .map(([tabs, activeTabIndex]): Tree => ({ type: 'tabs', tabs, activeTabIndex })),
    ),
  }))
  .node.chain((t) => fc.constantFrom<Tree | null>(t, null))

type Op =
  | { op: 'open'; path: string; withMeta: boolean; affix: boolean; noCache: boolean }
  | { op: 'close'; path: string | undefined }
  | { op: 'closeOthers'; path: string | undefined }
  | { op: 'closeAll' }
  | { op: 'split'; direction: 'row' | 'column'; path: string | undefined }
  | { op: 'openBeside'; path: string; direction: 'row' | 'column' }
  | { op: 'focusNext' }
  | { op: 'focusPrevious' }
  | { op: 'reopenClosed' }
  | { op: 'setTree'; tree: Tree | null }
  | { op: 'setFocused'; path: string }
  | { op: 'roundTrip' }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      op: fc.constant('open' as const),
      path: anyPathArb,
      withMeta: fc.boolean(),
      affix: fc.boolean(),
      noCache: fc.boolean(),
    }),
    weight: 6,
  },
  { arbitrary: fc.record({ op: fc.constant('close' as const), path: fc.option(anyPathArb, { nil: undefined }) }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('closeOthers' as const), path: fc.option(anyPathArb, { nil: undefined }) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('closeAll' as const) }), weight: 1 },
  {
    arbitrary: fc.record({ op: fc.constant('split' as const), direction: directionArb, path: fc.option(anyPathArb, { nil: undefined }) }),
    weight: 4,
  },
  { arbitrary: fc.record({ op: fc.constant('openBeside' as const), path: anyPathArb, direction: directionArb }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('focusNext' as const) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('focusPrevious' as const) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('reopenClosed' as const) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('setTree' as const), tree: treeArb }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('setFocused' as const), path: anyPathArb }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('roundTrip' as const) }), weight: 1 },
)

/** The state with sizes rounded, so a save and load can be compared exactly. */
function comparable(ws: WorkspaceState): unknown {
  const round = (t: Tree): Tree =>
    isSplit(t)
      ? {
          ...t,
          children: t.children.map(round),
          ...(t.splitPercentages ? { splitPercentages: t.splitPercentages.map((p) => Math.round(p * 1e6) / 1e6) } : {}),
        }
      : isTabs(t)
        ? { ...t, tabs: [...t.tabs] }
        : t
  const plain = JSON.parse(JSON.stringify(snapshot(ws))) as WorkspaceState
  return { ...plain, tree: plain.tree === null ? null : round(plain.tree) }
}

describe('workspace invariants under any sequence of operations', () => {
  it('every leaf is a tab, no duplicates, focus on a visible leaf or null, affixed tabs never removed', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const w = fresh()
        const storage = new MemoryStorage()
        w.restore('u', { storage, affix: [{ path: '/dashboard', title: 'route.dashboard' }] })
        const affixed = new Set<string>(['/dashboard'])

        for (const o of ops) {
          const tabsBefore = w.state.tabs.map((t) => t.path)
          const focusedBefore = w.state.focused
          switch (o.op) {
            case 'open': {
              const shownBefore = w.visibleLeaves()
              const ok = w.open(o.path, o.withMeta ? { title: `t${o.path}`, affix: o.affix, noCache: o.noCache } : undefined)
              expect(ok).toBe(o.path !== '' && (o.withMeta || tabsBefore.includes(o.path)))
              if (ok) {
                expect(w.state.focused).toBe(o.path)
                if (o.withMeta && o.affix) affixed.add(o.path)
                // Navigating inside a split swaps only the focused pane; the split stays.
                if (shownBefore.includes(o.path)) expect(w.visibleLeaves()).toEqual(shownBefore)
                else if (shownBefore.length > 1)
                  expect(w.visibleLeaves()).toEqual(shownBefore.map((p) => (p === focusedBefore ? o.path : p)))
                else expect(w.visibleLeaves()).toEqual([o.path])
              }
              break
            }
            case 'close': {
              const target = o.path ?? focusedBefore
              const answer = w.close(o.path)
              expect(answer).toBe(w.state.focused)
              if (target !== null && affixed.has(target)) expect(w.state.tabs.map((t) => t.path)).toEqual(tabsBefore)
              else if (target !== null && tabsBefore.includes(target)) expect(w.state.tabs.map((t) => t.path)).not.toContain(target)
              break
            }
            case 'closeOthers': {
              expect(w.closeOthers(o.path)).toBe(w.state.focused)
              const keep = o.path ?? focusedBefore
              for (const t of w.state.tabs) expect(t.affix || t.path === keep).toBe(true)
              break
            }
            case 'closeAll':
              expect(w.closeAll()).toBe(w.state.focused)
              expect(w.state.tabs.every((t) => t.affix)).toBe(true)
              expect(w.state.focused).toBe(w.state.tabs[0]?.path ?? null)
              break
            case 'split': {
              const ok = w.split(o.direction, o.path)
              if (ok) {
                expect(w.visibleLeaves()).toContain(focusedBefore)
                expect(w.visibleLeaves()).toContain(w.state.focused)
                expect(w.state.focused).not.toBe(focusedBefore)
                if (o.path !== undefined) expect(w.state.focused).toBe(o.path)
              } else {
                expect(w.state.focused).toBe(focusedBefore)
              }
              expect(w.state.tabs.map((t) => t.path)).toEqual(tabsBefore)
              break
            }
            case 'openBeside': {
              const shownBefore = w.visibleLeaves()
              const ok = w.openBeside(o.path, { title: 'x' }, o.direction)
              if (ok) expect(w.state.focused).toBe(o.path)
              // Always a new pane beside the focused one, which keeps its content.
              if (ok && focusedBefore !== null) {
                const shown = w.visibleLeaves()
                expect(shown).toContain(focusedBefore)
                expect(shown.length).toBe(shownBefore.includes(o.path) ? shownBefore.length : shownBefore.length + 1)
                expect(shown.filter((p) => p !== o.path)).toEqual(shownBefore.filter((p) => p !== o.path))
              }
              if (!ok) expect(w.state.focused).toBe(focusedBefore)
              break
            }
            case 'focusNext':
              expect(w.focusNext()).toBe(w.state.focused)
              break
            case 'focusPrevious':
              expect(w.focusPrevious()).toBe(w.state.focused)
              break
            case 'reopenClosed': {
              const top = w.state.closed[0]?.path ?? null
              expect(w.reopenClosed()).toBe(top)
              if (top !== null) expect(w.state.focused).toBe(top)
              break
            }
            case 'setTree':
              expect(w.setTree(o.tree)).toBe(w.state.focused)
              expect(w.state.tabs.map((t) => t.path)).toEqual(tabsBefore)
              break
            case 'setFocused':
              expect(w.setFocused(o.path)).toBe(visibleLeaves(w.state.tree).includes(o.path))
              break
            case 'roundTrip': {
              const before = comparable(w.state)
              expect(w.persist('u', storage)).toBe(true)
              w.reset()
              w.restore('u', { storage, affix: [] })
              // Only an empty layout with tabs left is repaired on load (the first affixed tab is shown).
              if (w.state.tree !== null && (before as WorkspaceState).tree === null) break
              expect(comparable(w.state)).toEqual(before)
              break
            }
          }
          const problems = invariantProblems(w.state, [...affixed])
          if (problems.length > 0) throw new Error(`after ${JSON.stringify(o)}: ${problems.join('; ')}`)
        }
      }),
      { numRuns: 400 },
    )
  }, 30_000)
})
