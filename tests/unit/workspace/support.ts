import { proxy } from 'valtio/vanilla'
import { bindWorkspace, emptyWorkspace, closedLimit, type StorageLike, type WorkspaceState } from '../../../src/state/workspace.ts'
import { isSplit, isTabs, leaves, visibleLeaves, type Tree } from '../../../src/state/mosaicTree.ts'

/** A fresh workspace proxy and its operations, independent of the app's singleton. */
export function fresh() {
  const state = proxy(emptyWorkspace())
  return { state, ...bindWorkspace(state) }
}

export const meta = (title: string, extra: { affix?: boolean; noCache?: boolean } = {}) => ({ title, ...extra })

/** A Storage stand-in: a Map, plus a switch to make writes fail like a full quota. */
export class MemoryStorage implements StorageLike {
  readonly data = new Map<string, string>()
  failWrites = false
  getItem(key: string): string | null {
    return this.data.get(key) ?? null
  }
  setItem(key: string, value: string): void {
    if (this.failWrites) throw new DOMException('quota', 'QuotaExceededError')
    this.data.set(key, String(value))
  }
}

/** Structural problems of a tree: the shape react-mosaic renders. */
function treeProblems(node: Tree, out: string[]): void {
  if (isSplit(node)) {
    if (node.direction !== 'row' && node.direction !== 'column') out.push(`bad direction ${String(node.direction)}`)
    if (node.children.length < 2) out.push('split with fewer than two children')
    if (node.splitPercentages !== undefined) {
      if (node.splitPercentages.length !== node.children.length) out.push('percentages do not match children')
      const sum = node.splitPercentages.reduce((a, b) => a + b, 0)
      if (Math.abs(sum - 100) > 1e-6) out.push(`percentages sum to ${sum}`)
      if (node.splitPercentages.some((p) => !(p > 0))) out.push('non-positive percentage')
    }
    for (const c of node.children) {
      if (isSplit(c) && c.direction === node.direction) out.push('unflattened split of the same direction')
      treeProblems(c, out)
    }
  } else if (isTabs(node)) {
    if (node.tabs.length < 2) out.push('tabs node with fewer than two tabs')
    if (!(node.activeTabIndex >= 0 && node.activeTabIndex < node.tabs.length)) out.push('active tab out of range')
  } else if (typeof node !== 'string' || node === '') {
    out.push(`bad leaf ${JSON.stringify(node)}`)
  }
}

/** Every invariant the store promises; empty when all hold. */
export function invariantProblems(ws: WorkspaceState, affixed: readonly string[] = []): string[] {
  const out: string[] = []
  const paths = ws.tabs.map((t) => t.path)
  if (new Set(paths).size !== paths.length) out.push(`duplicate tabs ${paths.join(',')}`)
  const all = leaves(ws.tree)
  if (new Set(all).size !== all.length) out.push(`duplicate leaves ${all.join(',')}`)
  for (const l of all) if (!paths.includes(l)) out.push(`leaf ${l} is not a tab`)
  if (ws.tree !== null) treeProblems(ws.tree, out)
  const shown = visibleLeaves(ws.tree)
  if (ws.tree === null ? ws.focused !== null : ws.focused === null || !shown.includes(ws.focused)) {
    out.push(`focused ${String(ws.focused)} is not a visible leaf of ${JSON.stringify(ws.tree)}`)
  }
  for (const a of affixed) if (!paths.includes(a)) out.push(`affixed ${a} was removed`)
  for (const t of ws.tabs) if (affixed.includes(t.path) && !t.affix) out.push(`affixed ${t.path} lost its flag`)
  if (ws.closed.length > closedLimit) out.push(`closed has ${ws.closed.length}`)
  const closed = ws.closed.map((c) => c.path)
  if (new Set(closed).size !== closed.length) out.push('duplicate closed entries')
  for (const c of closed) if (paths.includes(c)) out.push(`closed ${c} is an open tab`)
  for (const r of ws.recent) if (!paths.includes(r)) out.push(`recent ${r} is not a tab`)
  return out
}
